import { z } from 'zod';
import { DENOMINATION_SLOTS, MAX_PIECES } from '@comanda/domain';
import { CentsSchema, IdSchema, InputCentsSchema, InstantSchema } from './common.ts';
import { ShiftQueryDateSchema } from './cash-close.ts';
import { TaxBreakdownSchema } from './tax.ts';

const pieces = z.number().int().min(0).max(MAX_PIECES);
/** Pieces counted per denomination (keys from DENOMINATION_SLOTS); a missing key is zero. */
export const DenominationCountSchema = z.strictObject(
  Object.fromEntries(DENOMINATION_SLOTS.map((s) => [s.key, pieces.optional()])) as Record<
    (typeof DENOMINATION_SLOTS)[number]['key'],
    z.ZodOptional<typeof pieces>
  >,
);

/** 'propinas' is written only by a tip payout (tips.ts), never through the movements route. */
export const DrawerMovementKindSchema = z.enum(['deposito', 'retiro', 'gasto', 'propinas']);
export const CashMovementKindSchema = z.enum(['deposito', 'retiro', 'gasto']);

export const OpenDrawerBodySchema = z.strictObject({ count: DenominationCountSchema });
export const DrawerSettingsBodySchema = z.strictObject({ enabled: z.boolean() });
export const DrawerMovementBodySchema = z.strictObject({
  kind: CashMovementKindSchema,
  amount: InputCentsSchema.refine((n) => n > 0, 'El monto debe ser mayor a cero'),
  reason: z.string().trim().min(1, 'Escribe el motivo').max(200),
  pin: z.string().max(12),
});
export const CorteZBodySchema = z.strictObject({
  count: DenominationCountSchema,
  comment: z.string().trim().max(500),
  cashierPin: z.string().max(12),
  adminPin: z.string().max(12),
});
export const DrawerSessionParamsSchema = z.strictObject({ sessionId: IdSchema });
export const DrawerSessionsQuerySchema = z.strictObject({ date: ShiftQueryDateSchema.optional() });

export const DrawerMovementSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  kind: DrawerMovementKindSchema,
  amount: CentsSchema,
  reason: z.string(),
  authorizedByName: z.string(),
  createdByName: z.string(),
  createdAt: InstantSchema,
  /** Who received a tip payout; null for the other kinds. */
  recipientName: z.string().nullable(),
});

export const DrawerFiguresSchema = z.object({
  float: CentsSchema,
  cashSales: CentsSchema,
  cashReceived: CentsSchema,
  change: CentsSchema,
  deposits: CentsSchema,
  withdrawals: CentsSchema,
  paidOuts: CentsSchema,
  /** Card and transfer tips handed to waiters in cash (0 in cortes Z closed before tip payouts existed). */
  tipPayouts: CentsSchema,
  expected: z.number().int(),
  cashCount: z.number().int(),
  /** For information: not in the drawer. */
  card: CentsSchema,
  transfer: CentsSchema,
  /** The session's paid checks' frozen tax breakdowns added up (absent on cortes Z closed before the tax model). */
  taxes: TaxBreakdownSchema.optional(),
});

/** An open session as the screen shows it: never its expected cash (the count is blind). */
export const DrawerSessionSchema = z.object({
  id: z.string(),
  status: z.enum(['abierta', 'cerrada']),
  openedAt: InstantSchema,
  openedByName: z.string(),
  float: CentsSchema,
  floatCount: z.record(z.string(), z.number().int()),
  movements: z.array(DrawerMovementSchema),
});

export const CorteSchema = z.object({
  session: DrawerSessionSchema,
  figures: DrawerFiguresSchema,
  at: InstantSchema,
  closedAt: InstantSchema.nullable(),
  counted: z.number().int().nullable(),
  countedCount: z.record(z.string(), z.number().int()).nullable(),
  difference: z.number().int().nullable(),
  comment: z.string().nullable(),
  cashierName: z.string().nullable(),
  adminName: z.string().nullable(),
});

export const DrawerStateResponseSchema = z.object({ enabled: z.boolean(), session: DrawerSessionSchema.nullable() });
/** printJobs: slips written for the caja printer with the change (0: none set, the screen prints through the browser). */
export const DrawerMovementResponseSchema = z.object({ movement: DrawerMovementSchema, printJobs: z.number().int().optional() });
export const CorteResponseSchema = z.object({ corte: CorteSchema, printJobs: z.number().int().optional() });
export const DrawerMovementParamsSchema = z.strictObject({ movementId: IdSchema });
/** "Imprimir" of a corte or slip on the caja printer: how many jobs were written (0: print through the browser). */
export const DrawerPrintResponseSchema = z.object({ jobs: z.number().int() });
export const DrawerSessionsResponseSchema = z.object({ date: z.string(), cortes: z.array(CorteSchema) });

export type DenominationCountInput = z.infer<typeof DenominationCountSchema>;
export type DrawerMovementView = z.infer<typeof DrawerMovementSchema>;
export type DrawerSessionView = z.infer<typeof DrawerSessionSchema>;
export type Corte = z.infer<typeof CorteSchema>;
export type DrawerStateResponse = z.infer<typeof DrawerStateResponseSchema>;
export type DrawerMovementBody = z.infer<typeof DrawerMovementBodySchema>;
export type CorteZBody = z.infer<typeof CorteZBodySchema>;
