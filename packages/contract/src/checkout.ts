import { z } from 'zod';
import { MAX_SPLIT_COUNT, MAX_TIP_BPS } from '@comanda/domain';
import { IdSchema, InputCentsSchema } from './common.ts';
import { OrderSchema, PaymentSchema } from './orders.ts';

/** One checkout attempt: the browser makes it once and resends it on retries of that attempt. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;
export const IDEMPOTENCY_KEY_MESSAGE = 'Falta el encabezado Idempotency-Key o no es válido';

export const IdempotencyHeadersSchema = z.object({
  'idempotency-key': z.string({ error: IDEMPOTENCY_KEY_MESSAGE }).regex(IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_MESSAGE),
});

/** The split calculator's count (SPEC §5: a whole number of at least 1). */
export const SplitCountSchema = z.number().int().min(1).max(MAX_SPLIT_COUNT);

export const CloseOrderParamsSchema = z.object({ orderId: IdSchema });

/**
 * Cash close. Only the inputs a person chooses travel: the server recomputes subtotal, tip,
 * total and change from the item rows, so a forged total is refused (strict object) or ignored.
 */
export const CloseOrderBodySchema = z.strictObject({
  method: z.literal('efectivo'),
  /** Checked against every active user's PIN; malformed input reads as a wrong PIN. */
  pin: z.string().max(12),
  tipBps: z.number().int().min(0).max(MAX_TIP_BPS),
  /** The table's guests, only when the close changes them; omitted: they stay as set on the order. */
  peopleCount: z.number().int().min(1).max(999).optional(),
  /** What the checkout's calculator divided the check by (the ticket's "Dividido entre N"). */
  splitCount: SplitCountSchema.optional(),
  receivedAmount: InputCentsSchema,
});
export type CloseOrderBody = z.infer<typeof CloseOrderBodySchema>;

export const PAYMENT_REFERENCE_MAX = 60;
/** A transfer's bank (SPEI) reference, trimmed; the request omits it when there is none. */
export const PaymentReferenceSchema = z.string().trim().max(PAYMENT_REFERENCE_MAX, 'La referencia es demasiado larga');

/**
 * One part of an order's balance (mixed payments, equal shares): cash or transfer, recorded
 * without the terminal. `amount` is what it pays of the balance (centavos, at most the balance);
 * the tip is a rate (tipBps) or an amount (tipAmount), on top. When the parts cover the amount
 * owed, the same transaction closes the order.
 */
export const AddPaymentBodySchema = z
  .strictObject({
    method: z.enum(['efectivo', 'transferencia']),
    pin: z.string().max(12),
    amount: InputCentsSchema.min(1),
    tipBps: z.number().int().min(0).max(MAX_TIP_BPS).optional(),
    tipAmount: InputCentsSchema.optional(),
    peopleCount: z.number().int().min(1).max(999).optional(),
    /** A payment that settles the order: what the calculator divided it by. */
    splitCount: SplitCountSchema.optional(),
    /** Cash only: centavos handed over for this part and its tip. */
    receivedAmount: InputCentsSchema.optional(),
    /** Transfer only: the bank reference, optional. */
    reference: PaymentReferenceSchema.optional(),
  })
  .refine((b) => b.tipBps === undefined || b.tipAmount === undefined, {
    message: 'Indica la propina como porcentaje o como monto, no ambos',
  });
export type AddPaymentBody = z.infer<typeof AddPaymentBodySchema>;

export const AddPaymentResponseSchema = z.object({
  order: OrderSchema,
  payment: PaymentSchema,
  /** True when this payment settled the balance and the order was paid (folio, ticket, table freed). */
  closed: z.boolean(),
});
export type AddPaymentResponse = z.infer<typeof AddPaymentResponseSchema>;
