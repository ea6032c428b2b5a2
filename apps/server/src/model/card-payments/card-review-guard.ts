import type { Trx } from '../../http/transaction.ts';
import { conflict } from '../../http/errors.ts';

export const REVIEW_MESSAGES = {
  pending:
    'Hay un cobro con tarjeta aprobado por revisar en esta orden. Un administrador debe registrarlo como pago o marcarlo como reembolsado antes de cobrar de nuevo.',
  notPending: 'Este cobro ya no está por revisar',
  orderClosed: 'La orden ya está cerrada: este cobro solo puede marcarse como reembolsado en la terminal.',
} as const;

/** Refuses a new charge (cash or card) while an approved charge of the order waits for review. */
export async function assertNoPendingReview(trx: Trx, orderId: string): Promise<void> {
  const row = await trx
    .selectFrom('card_payments')
    .select('id')
    .where('order_id', '=', orderId)
    .where('state', '=', 'needs_review')
    .executeTakeFirst();
  if (row) throw conflict(REVIEW_MESSAGES.pending, 'card_payment_needs_review');
}
