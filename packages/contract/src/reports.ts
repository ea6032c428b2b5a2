import { z } from 'zod';
import { REPORT_MAX_DAYS, daysInRange } from '@comanda/domain';
import { CentsSchema } from './common.ts';
import { ShiftQueryDateSchema } from './cash-close.ts';
import { TaxBreakdownSchema } from './tax.ts';

/** Owner reports over a range of business days; every amount in centavos. */
export const REPORT_MESSAGES = {
  rangeOrder: 'La fecha inicial debe ser anterior o igual a la final',
  rangeTooLong: `El periodo no puede pasar de ${REPORT_MAX_DAYS} días`,
} as const;

export const REPORT_KINDS = [
  'todos',
  'horas',
  'dias',
  'productos',
  'categorias',
  'meseros',
  'cancelaciones',
  'metodos',
  'impuestos',
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

const range = { from: ShiftQueryDateSchema, to: ShiftQueryDateSchema };
const checkRange = (q: { from: string; to: string }, ctx: z.RefinementCtx) => {
  if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['from'], message: REPORT_MESSAGES.rangeOrder });
  else if (daysInRange(q.from, q.to) > REPORT_MAX_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_MESSAGES.rangeTooLong });
};

export const ReportsQuerySchema = z.strictObject(range).superRefine(checkRange);
export type ReportsQuery = z.infer<typeof ReportsQuerySchema>;

/** The export routes also choose one report ('todos': every one, one sheet each). */
export const ReportsExportQuerySchema = z.strictObject({ ...range, report: z.enum(REPORT_KINDS).optional() }).superRefine(checkRange);
export type ReportsExportQuery = z.infer<typeof ReportsExportQuerySchema>;

const count = z.number().int().min(0);
const SalesFiguresSchema = z.object({ orders: count, total: CentsSchema, tips: CentsSchema });

export const ReportTotalsSchema = z.object({
  orders: count,
  items: count,
  subtotal: CentsSchema,
  discount: CentsSchema,
  comp: CentsSchema,
  tips: CentsSchema,
  total: CentsSchema,
  averageTicket: CentsSchema,
});

export const ReportLossKindSchema = z.enum(['void', 'cancel', 'discount', 'comp']);
export type ReportLossKind = z.infer<typeof ReportLossKindSchema>;
const LossFiguresSchema = z.object({ kind: ReportLossKindSchema, count, units: count, amount: CentsSchema });

export const ReportsResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
  /** The hour a business day starts (the shift's end, 3 by default): 01:00 belongs to the night before. */
  dayStartHour: z.number().int().min(0).max(23),
  totals: ReportTotalsSchema,
  /** 24 rows in business order (03:00 … 02:00). */
  byHour: z.array(SalesFiguresSchema.extend({ hour: z.number().int().min(0).max(23) })),
  /** 7 rows, Monday (0) first; `days`: business days of that weekday with sales. */
  byWeekday: z.array(SalesFiguresSchema.extend({ weekday: z.number().int().min(0).max(6), days: count })),
  products: z.array(z.object({ productId: z.string(), productName: z.string(), category: z.string(), units: count, amount: CentsSchema })),
  categories: z.array(z.object({ category: z.string(), units: count, amount: CentsSchema })),
  waiters: z.array(
    z.object({
      waiterId: z.string().nullable(),
      waiterName: z.string(),
      tickets: count,
      sales: CentsSchema,
      averageTicket: CentsSchema,
      tips: CentsSchema,
    }),
  ),
  losses: z.object({
    totals: z.array(LossFiguresSchema),
    byReason: z.array(LossFiguresSchema.extend({ reason: z.string() })),
    byUser: z.array(LossFiguresSchema.extend({ userId: z.string().nullable(), userName: z.string() })),
  }),
  methods: z.array(z.object({ method: z.string(), payments: count, amount: CentsSchema, tips: CentsSchema })),
  /** The period's paid checks' frozen tax breakdowns added up by rate (ventas netas, IVA); tips are apart, in `totals`. */
  taxes: TaxBreakdownSchema,
});
export type ReportsResponse = z.infer<typeof ReportsResponseSchema>;
