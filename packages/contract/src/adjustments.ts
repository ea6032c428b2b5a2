import { z } from 'zod';
import { ADJUSTMENT_KINDS, ADJUSTMENT_MESSAGES, ADJUSTMENT_REASONS, MAX_DISCOUNT_BPS } from '@comanda/domain';
import { CentsSchema, FIELD_MESSAGES, IdSchema, InputCentsSchema, InstantSchema } from './common.ts';

export const AdjustmentKindSchema = z.enum(ADJUSTMENT_KINDS);

/** A discount or comp (cortesía) of an order, as the order's screens and tickets show it. */
export const OrderAdjustmentSchema = z.object({
  id: IdSchema,
  kind: AdjustmentKindSchema,
  /** null: the whole check. */
  itemId: z.string().nullable(),
  units: z.number().int().nullable(),
  percentBps: z.number().int().nullable(),
  requestedAmount: CentsSchema.nullable(),
  /** What it takes off the order now (recomputed whenever the items change). */
  amount: CentsSchema,
  reason: z.string(),
  note: z.string().nullable(),
  authorizedBy: z.string(),
  authorizedByName: z.string(),
  createdBy: z.string(),
  createdByName: z.string(),
  createdAt: InstantSchema,
});
export type OrderAdjustment = z.infer<typeof OrderAdjustmentSchema>;

export const AdjustmentParamsSchema = z.strictObject({ orderId: IdSchema, adjustmentId: IdSchema });

/**
 * POST /api/orders/:orderId/adjustments. Always authorised by an admin PIN. A comp of units names
 * the line and the units; a comp of the order names neither. A discount gives a percent (basis
 * points, 1000 = 10 %) or an amount in centavos, on a line or on the check. The server computes
 * what it takes off; a client never sends a figure that is stored as such.
 */
export const CreateAdjustmentBodySchema = z
  .strictObject({
    kind: AdjustmentKindSchema,
    scope: z.enum(['item', 'order']),
    itemId: IdSchema.optional(),
    units: z.number().int().min(1, ADJUSTMENT_MESSAGES.unitsRequired).max(999).optional(),
    percentBps: z
      .number()
      .int()
      .min(1, ADJUSTMENT_MESSAGES.percentRange)
      .max(MAX_DISCOUNT_BPS, ADJUSTMENT_MESSAGES.percentRange)
      .optional(),
    amount: InputCentsSchema.min(1, ADJUSTMENT_MESSAGES.amountPositive).optional(),
    reason: z.enum(ADJUSTMENT_REASONS, ADJUSTMENT_MESSAGES.reasonRequired),
    note: z.string().trim().max(300, FIELD_MESSAGES.noteTooLong).nullable().optional(),
    pin: z.string().max(16),
  })
  .superRefine((b, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (b.scope === 'item' && !b.itemId) fail(ADJUSTMENT_MESSAGES.itemRequired);
    if (b.scope === 'order' && b.itemId) fail(ADJUSTMENT_MESSAGES.itemRequired);
    if (b.kind === 'comp') {
      if (b.percentBps !== undefined || b.amount !== undefined) fail(ADJUSTMENT_MESSAGES.percentOrAmount);
      if (b.scope === 'item' && b.units === undefined) fail(ADJUSTMENT_MESSAGES.unitsRequired);
      if (b.scope === 'order' && b.units !== undefined) fail(ADJUSTMENT_MESSAGES.orderComp);
    } else {
      if ((b.percentBps === undefined) === (b.amount === undefined)) fail(ADJUSTMENT_MESSAGES.percentOrAmount);
      if (b.units !== undefined) fail(ADJUSTMENT_MESSAGES.percentOrAmount);
    }
    if (b.reason === 'Otro' && !b.note?.trim()) fail(ADJUSTMENT_MESSAGES.noteRequired);
  });
export type CreateAdjustmentBody = z.infer<typeof CreateAdjustmentBodySchema>;

export const RemoveAdjustmentBodySchema = z.strictObject({ pin: z.string().max(16) });
export type RemoveAdjustmentBody = z.infer<typeof RemoveAdjustmentBodySchema>;

/** Cash close: the discounts and comps of the paid orders of the period. */
export const AdjustmentTotalsRowSchema = z.object({
  key: z.string(),
  discountCount: z.number().int().min(0),
  discountAmount: CentsSchema,
  compCount: z.number().int().min(0),
  compAmount: CentsSchema,
});
export type AdjustmentTotalsRow = z.infer<typeof AdjustmentTotalsRowSchema>;

export const AdjustmentsSummarySchema = z.object({
  totalDiscounts: CentsSchema,
  totalComps: CentsSchema,
  byReason: z.array(AdjustmentTotalsRowSchema),
  byUser: z.array(AdjustmentTotalsRowSchema),
});
export type AdjustmentsSummary = z.infer<typeof AdjustmentsSummarySchema>;
