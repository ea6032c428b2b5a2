import { z } from 'zod';
import { CentsSchema, FIELD_MESSAGES, InstantSchema, IsoDateSchema } from './common.ts';
import { TicketSummarySchema } from './tickets.ts';
import { TaxBreakdownSchema } from './tax.ts';

/** A real calendar day: '2025-02-30' matches the pattern but is refused. */
export const ShiftDateSchema = IsoDateSchema.refine((value) => {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}, FIELD_MESSAGES.invalidDate);

/** Days a shift report can ask for: beyond these the shift window falls off the calendar. */
export const SHIFT_DATE_RANGE = { min: '2000-01-01', max: '2100-12-31' } as const;
export const SHIFT_DATE_OUT_OF_RANGE = `La fecha debe estar entre ${SHIFT_DATE_RANGE.min} y ${SHIFT_DATE_RANGE.max}`;

/** A real calendar day within SHIFT_DATE_RANGE (ISO dates compare as strings). */
export const ShiftQueryDateSchema = ShiftDateSchema.refine(
  (value) => value >= SHIFT_DATE_RANGE.min && value <= SHIFT_DATE_RANGE.max,
  SHIFT_DATE_OUT_OF_RANGE,
);

export const CashCloseQuerySchema = z.strictObject({
  /** The shift's start day (YYYY-MM-DD); the server picks the default when absent (SPEC §9). */
  date: ShiftQueryDateSchema.optional(),
});
export type CashCloseQuery = z.infer<typeof CashCloseQuerySchema>;

export const PaymentMethodTotalsSchema = z.object({
  efectivo: CentsSchema,
  tarjeta: CentsSchema,
  transferencia: CentsSchema,
});

/** SPEC §3 Shift summary; every amount in centavos. */
export const ShiftSummarySchema = z.object({
  totalSales: CentsSchema,
  totalOrders: z.number().int().min(0),
  totalItems: z.number().int().min(0),
  totalTips: CentsSchema,
  totalSubtotal: CentsSchema,
  paymentMethods: PaymentMethodTotalsSchema,
  /** totalSales / totalOrders, rounded to the centavo; 0 without orders. */
  averageOrderValue: CentsSchema,
  /** Mean tip rate in percent (15 = 15 %) over orders with a tip above 0 only; 0 when none. */
  averageTipPercent: z.number().min(0),
  /** First and last folio of the shift's paid orders (null without orders or folios). */
  folios: z.object({ first: z.number().int(), last: z.number().int() }).nullable(),
  /** Paid orders settled with more than one payment (mixed payments, equal shares). */
  mixedOrders: z.number().int().min(0),
});
export type ShiftSummary = z.infer<typeof ShiftSummarySchema>;

export const HourSalesSchema = z.object({
  /** Business-local hour of day, 0–23. */
  hour: z.number().int().min(0).max(23),
  /** Start of this hour bucket. */
  start: InstantSchema,
  orders: z.number().int().min(0),
  total: CentsSchema,
});
export type HourSales = z.infer<typeof HourSalesSchema>;

export const ProductSalesSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  quantity: z.number().int().min(0),
  amount: CentsSchema,
});
export type ProductSales = z.infer<typeof ProductSalesSchema>;

export const WaiterSalesSchema = z.object({
  waiterId: z.string().nullable(),
  waiterName: z.string().nullable(),
  orders: z.number().int().min(0),
  total: CentsSchema,
  tips: CentsSchema,
});
export type WaiterSales = z.infer<typeof WaiterSalesSchema>;

export const ShiftStatisticsSchema = z.object({
  /** Every hour of the window in order, zero-filled. */
  salesByHour: z.array(HourSalesSchema),
  /** Up to 10, by quantity sold (non-deleted items). */
  topProducts: z.array(ProductSalesSchema),
  /** Up to 10, by amount sold. */
  topProductsByAmount: z.array(ProductSalesSchema),
  /** By total, highest first. */
  salesByWaiter: z.array(WaiterSalesSchema),
});
export type ShiftStatistics = z.infer<typeof ShiftStatisticsSchema>;

export const OutsideShiftSchema = z.object({
  /** Paid orders of that business day completed outside every shift window. */
  count: z.number().int().min(0),
  total: CentsSchema,
});

export const CashCloseResponseSchema = z.object({
  date: IsoDateSchema,
  timezone: z.string(),
  shiftStartHour: z.number().int(),
  shiftEndHour: z.number().int(),
  window: z.object({ start: InstantSchema, end: InstantSchema }),
  summary: ShiftSummarySchema,
  statistics: ShiftStatisticsSchema,
  outsideShift: OutsideShiftSchema,
  /** The shift's paid checks' frozen tax breakdowns added up by rate: ventas netas and IVA trasladado. */
  taxes: TaxBreakdownSchema,
});
export type CashCloseResponse = z.infer<typeof CashCloseResponseSchema>;

export const OutsideShiftResponseSchema = z.object({
  date: IsoDateSchema,
  count: z.number().int().min(0),
  total: CentsSchema,
  /** Newest first, at most OUTSIDE_SHIFT_LIST_MAX; `count` says how many exist. */
  tickets: z.array(TicketSummarySchema),
});
export type OutsideShiftResponse = z.infer<typeof OutsideShiftResponseSchema>;

export const OUTSIDE_SHIFT_LIST_MAX = 200;
