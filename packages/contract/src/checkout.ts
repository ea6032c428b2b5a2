import { z } from 'zod';
import { MAX_TIP_BPS } from '@comanda/domain';
import { IdSchema, InputCentsSchema } from './common.ts';

/** One checkout attempt: the browser makes it once and resends it on retries of that attempt. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;
export const IDEMPOTENCY_KEY_MESSAGE = 'Falta el encabezado Idempotency-Key o no es válido';

export const IdempotencyHeadersSchema = z.object({
  'idempotency-key': z.string({ error: IDEMPOTENCY_KEY_MESSAGE }).regex(IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_MESSAGE),
});

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
  peopleCount: z.number().int().min(1).max(999),
  receivedAmount: InputCentsSchema,
});
export type CloseOrderBody = z.infer<typeof CloseOrderBodySchema>;
