import type { CardPayment, CardReview, Order, SessionUser } from '@comanda/contract';
import { cardStatesFor, cents } from '@comanda/domain';
import type { CardPaymentRow } from '../../db/schema.ts';
import { audit } from '../../http/audit.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { mutate, type Trx } from '../../http/transaction.ts';
import { claimKey, requestHash, storeResponse } from '../../http/idempotency.ts';
import { cardGateway } from '../../model/card-payments/card-gateway.ts';
import { CARD_MESSAGES, emitCardReview, findCardPayment, presentCardPayment } from '../../model/card-payments/card-payment-store.ts';
import { recordCardCharge } from '../../model/card-payments/settle-card-payment.ts';
import { REVIEW_MESSAGES } from '../../model/card-payments/card-review-guard.ts';
import type { AppContext } from '../../http/context.ts';
import type { WriteContext } from '../../http/request-context.ts';

export async function reviewsOfOrder(db: Trx, orderId: string, maxAttempts: number): Promise<CardPayment[]> {
  const rows = await db
    .selectFrom('card_payments')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('state', '=', 'needs_review')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => presentCardPayment(r, maxAttempts));
}

const REVIEW_LIST_MAX = 200;

/** The admin's list: every approved charge still waiting, oldest first (the longest waiting on top). */
export async function listCardReviews(ctx: AppContext): Promise<CardReview[]> {
  const maxAttempts = cardGateway(ctx).poll.maxAttempts;
  const rows = await ctx.db.db
    .selectFrom('card_payments')
    .innerJoin('orders', 'orders.id', 'card_payments.order_id')
    .selectAll('card_payments')
    .select([
      'orders.table_number as o_table_number',
      'orders.table_name as o_table_name',
      'orders.waiter_name as o_waiter_name',
      'orders.status as o_status',
      'orders.subtotal as o_subtotal',
    ])
    .where('card_payments.state', '=', 'needs_review')
    .orderBy('card_payments.updated_at')
    .orderBy('card_payments.id')
    .limit(REVIEW_LIST_MAX)
    .execute();
  return rows.map(({ o_table_number, o_table_name, o_waiter_name, o_status, o_subtotal, ...row }) => ({
    ...presentCardPayment(row, maxAttempts),
    tableNumber: o_table_number,
    tableName: o_table_name,
    waiterName: o_waiter_name,
    orderStatus: o_status,
    orderSubtotal: cents(Number(o_subtotal)),
  }));
}

interface SettleRequest {
  id: string;
  idempotencyKey: string;
  user: SessionUser;
}

async function pendingRow(trx: Trx, id: string): Promise<CardPaymentRow> {
  const row = await findCardPayment(trx, id);
  if (!row) throw notFound(CARD_MESSAGES.notFound);
  if (row.state !== 'needs_review') throw conflict(REVIEW_MESSAGES.notPending, 'card_payment_not_in_review');
  return row;
}

/** Moves the row out of review, once: of two admins settling at the same time, one wins. */
async function leaveReview(trx: Trx, id: string, state: 'approved' | 'refunded', now: number): Promise<void> {
  const res = await trx
    .updateTable('card_payments')
    .set({ state, error: null, updated_at: now })
    .where('id', '=', id)
    .where('state', 'in', cardStatesFor('reviewed'))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict(REVIEW_MESSAGES.notPending, 'card_payment_not_in_review');
}

/**
 * 'Registrar como pago': the approved charge becomes the open order's payment and closes it, for
 * exactly the amount the terminal took (what it holds beyond the items is recorded as tip; a
 * charge short of the items is refused: mark it refunded and charge again). One transaction,
 * audited; a repeat of the Idempotency-Key answers the first response.
 */
export async function recordCardPayment(ctx: WriteContext, req: SettleRequest): Promise<{ payment: CardPayment; order: Order }> {
  const maxAttempts = cardGateway(ctx).poll.maxAttempts;
  const stored = await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const hash = requestHash({ id: req.id, action: 'record' });
    const earlier = await claimKey(trx, { key: req.idempotencyKey, scope: `card-review:${req.id}`, hash, now });
    if (earlier) return earlier;
    const row = await pendingRow(trx, req.id);
    const order = await trx.selectFrom('orders').select(['status', 'subtotal']).where('id', '=', row.order_id).executeTakeFirst();
    if (!order) throw notFound(CARD_MESSAGES.notFound);
    if (order.status !== 'activo') throw conflict(REVIEW_MESSAGES.orderClosed, 'order_closed');
    const charged = Number(row.approved_amount ?? row.amount);
    await leaveReview(trx, row.id, 'approved', now);
    // A part of a mixed payment: the charge's part, the rest of what was charged as its tip.
    const closed = await recordCardCharge(ctx, trx, row, {
      charged,
      providerPaymentId: row.provider_payment_id,
      actor: { id: req.user.id, displayName: req.user.displayName },
      emit,
      partTip: { amount: Math.max(0, charged - Number(row.part_amount)) },
    });
    await audit(trx, now, {
      actor: req.user,
      action: 'card_payment.recorded',
      entity: 'card_payment',
      entityId: row.id,
      data: {
        orderId: row.order_id,
        charged,
        asked: Number(row.amount),
        subtotal: closed.subtotal,
        tip: closed.tip,
        reason: row.error,
        providerPaymentId: row.provider_payment_id,
      },
    });
    emitCardReview(emit, row.id, row.order_id);
    const after = (await findCardPayment(trx, row.id))!;
    const response = { statusCode: 200, body: { payment: presentCardPayment(after, maxAttempts), order: closed } };
    await storeResponse(trx, req.idempotencyKey, response);
    return response;
  });
  return stored.body as { payment: CardPayment; order: Order };
}

/**
 * 'Marcar como reembolsado en la terminal': staff refunded the charge on the terminal (or in
 * Mercado Pago); the order stays as it is and may be charged again. Audited with the note.
 */
export async function markCardPaymentRefunded(ctx: WriteContext, req: SettleRequest & { note: string | null }): Promise<CardPayment> {
  const maxAttempts = cardGateway(ctx).poll.maxAttempts;
  const stored = await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const hash = requestHash({ id: req.id, action: 'refunded', note: req.note });
    const earlier = await claimKey(trx, { key: req.idempotencyKey, scope: `card-review:${req.id}`, hash, now });
    if (earlier) return earlier;
    const row = await pendingRow(trx, req.id);
    await leaveReview(trx, row.id, 'refunded', now);
    await audit(trx, now, {
      actor: req.user,
      action: 'card_payment.refunded',
      entity: 'card_payment',
      entityId: row.id,
      data: {
        orderId: row.order_id,
        charged: Number(row.approved_amount ?? row.amount),
        reason: row.error,
        note: req.note,
        providerPaymentId: row.provider_payment_id,
      },
    });
    emitCardReview(emit, row.id, row.order_id);
    const after = (await findCardPayment(trx, row.id))!;
    const response = { statusCode: 200, body: { payment: presentCardPayment(after, maxAttempts) } };
    await storeResponse(trx, req.idempotencyKey, response);
    return response;
  });
  return (stored.body as { payment: CardPayment }).payment;
}
