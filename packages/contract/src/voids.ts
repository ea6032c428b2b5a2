import { z } from 'zod';
import { VOID_MESSAGES, VOID_NOTE_MAX, VOID_REASON_MAX, VOID_REASONS_MAX } from '@comanda/domain';
import { CentsSchema, FIELD_MESSAGES, IdSchema } from './common.ts';

const reason = z.string().trim().min(1, VOID_MESSAGES.reasonRequired).max(VOID_REASON_MAX, FIELD_MESSAGES.reasonTooLong);
const note = z.string().trim().max(VOID_NOTE_MAX, FIELD_MESSAGES.noteTooLong);
const pin = z.string().max(16);

/** POST /api/orders/:orderId/items/:itemId/void: cancel `quantity` units of one line with a reason. */
export const VoidItemBodySchema = z.strictObject({
  quantity: z.number(VOID_MESSAGES.units).int(VOID_MESSAGES.units).min(1, VOID_MESSAGES.units).max(9999, VOID_MESSAGES.units),
  reason,
  note: note.nullable().optional(),
  /** An admin's PIN: required when the item is listo or entregado. */
  pin: pin.optional(),
});
export type VoidItemBody = z.infer<typeof VoidItemBodySchema>;

/** POST /api/orders/:orderId/cancel: an empty order needs nothing; one with items needs both. */
export const CancelOrderBodySchema = z.strictObject({
  reason: reason.optional(),
  note: note.nullable().optional(),
  pin: pin.optional(),
});
export type CancelOrderBody = z.infer<typeof CancelOrderBodySchema>;

/** POST /api/orders/:orderId/deliver: listo → entregado for the given items of the order. */
export const DeliverItemsBodySchema = z.strictObject({
  itemIds: z.array(IdSchema).min(1, VOID_MESSAGES.deliverNothing).max(200),
});
export type DeliverItemsBody = z.infer<typeof DeliverItemsBodySchema>;

/** The admin-editable list of void reasons (Configuración). */
export const VoidReasonsSchema = z.object({ reasons: z.array(z.string()) });
export type VoidReasons = z.infer<typeof VoidReasonsSchema>;
export const VoidReasonsBodySchema = z.strictObject({
  reasons: z.array(z.string().max(VOID_REASON_MAX, FIELD_MESSAGES.reasonTooLong)).max(VOID_REASONS_MAX, 'Demasiados motivos'),
});

/** Cash close "Cancelaciones": voided units and cancelled orders of the shift, by reason and by user. */
export const CancellationGroupSchema = z.object({
  key: z.string(),
  label: z.string(),
  count: z.number().int().min(0),
  amount: CentsSchema,
});
export type CancellationGroup = z.infer<typeof CancellationGroupSchema>;

export const CancellationsReportSchema = z.object({
  date: z.string(),
  voids: z.object({
    /** Voided lines (a partial void counts once) and the units and amount they took off. */
    count: z.number().int().min(0),
    units: z.number().int().min(0),
    amount: CentsSchema,
    byReason: z.array(CancellationGroupSchema),
    byUser: z.array(CancellationGroupSchema),
  }),
  cancelledOrders: z.object({
    count: z.number().int().min(0),
    amount: CentsSchema,
    byReason: z.array(CancellationGroupSchema),
    byUser: z.array(CancellationGroupSchema),
  }),
});
export type CancellationsReport = z.infer<typeof CancellationsReportSchema>;
