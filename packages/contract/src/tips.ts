import { z } from 'zod';
import { POOL_ROLES, isValidPool, TIP_MESSAGES } from '@comanda/domain';
import { CentsSchema, IdSchema, InputCentsSchema, InstantSchema } from './common.ts';
import { ShiftQueryDateSchema } from './cash-close.ts';
import { DrawerMovementSchema } from './drawer.ts';

/** Tips of a drawer session (default: the open one) or of a range of business dates. */
export const TipsQuerySchema = z.strictObject({
  sessionId: IdSchema.optional(),
  from: ShiftQueryDateSchema.optional(),
  to: ShiftQueryDateSchema.optional(),
});

export const PoolRoleSchema = z.enum(POOL_ROLES);
const percent = z.number().int().min(0).max(100);
export const TipPoolSchema = z
  .strictObject({
    enabled: z.boolean(),
    percents: z.strictObject({ waiter: percent, kitchen: percent, barra: percent }),
  })
  .refine((p) => isValidPool(p.percents), { message: TIP_MESSAGES.badPool, path: ['percents'] });

export const TipRowSchema = z.object({
  userId: z.string(),
  name: z.string(),
  role: z.string(),
  /** Cash tips: they stayed with the waiter. */
  cash: CentsSchema,
  card: CentsSchema,
  transfer: CentsSchema,
  /** What this person is owed before payouts: card + transfer tips, or their pooled share. */
  share: CentsSchema,
  paid: CentsSchema,
  owed: CentsSchema,
});

export const TipsResponseSchema = z.object({
  /** The session shown (null: a date range). */
  sessionId: z.string().nullable(),
  from: InstantSchema,
  to: InstantSchema,
  fromDate: z.string().nullable(),
  toDate: z.string().nullable(),
  /** Payouts are made only from the open session, against its own tips. */
  payable: z.boolean(),
  pool: z.object({ enabled: z.boolean(), percents: z.object({ waiter: z.number(), kitchen: z.number(), barra: z.number() }) }),
  rows: z.array(TipRowSchema),
  totals: z.object({ cash: CentsSchema, card: CentsSchema, transfer: CentsSchema, paid: CentsSchema, owed: CentsSchema }),
});

export const TipPayoutBodySchema = z.strictObject({
  userId: IdSchema,
  amount: InputCentsSchema.refine((n) => n > 0, 'El monto debe ser mayor a cero'),
  /** The PIN of the person who receives the cash. */
  pin: z.string().max(12),
});
export const TipPayoutResponseSchema = z.object({ movement: DrawerMovementSchema, printJobs: z.number().int().optional() });

export type TipsQuery = z.infer<typeof TipsQuerySchema>;
export type TipsResponse = z.infer<typeof TipsResponseSchema>;
export type TipRow = z.infer<typeof TipRowSchema>;
export type TipPool = z.infer<typeof TipPoolSchema>;
export type TipPayoutBody = z.infer<typeof TipPayoutBodySchema>;
