import type { CloseOrderBody, SessionUser } from '@comanda/contract';
import type { AppContext } from '../../http/context.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { mutate } from '../../http/transaction.ts';
import { verifyPin } from '../../auth/verify-pin.ts';
import { findOrderRow, ORDER_NOT_FOUND } from '../../model/orders/order-repository.ts';
import { assertMayWorkOrder } from '../../model/orders/order-access.ts';
import { closeOrderInTx } from '../../model/checkout/close-order.ts';
import { claimKey, requestHash, storeResponse, type StoredResponse } from '../../http/idempotency.ts';
import { CARD_MESSAGES, LIVE_STATES } from '../../model/card-payments/card-payment-store.ts';
import { assertNoPendingReview } from '../../model/card-payments/card-review-guard.ts';
import { attachToDrawer } from '../../model/drawer/drawer-store.ts';

export interface CashCloseRequest {
  orderId: string;
  body: CloseOrderBody;
  idempotencyKey: string;
  user: SessionUser;
  ip: string;
  sessionHash?: string | null;
}

/**
 * POST /api/orders/:orderId/close for cash: the PIN names the cashier (any active user), then one
 * transaction claims the idempotency key and closes the order. A repeat of the key answers the
 * first response; the same key for a different request is refused.
 */
export async function closeWithCash(ctx: AppContext, req: CashCloseRequest): Promise<StoredResponse> {
  const order = await findOrderRow(ctx.db.db, req.orderId);
  if (!order) throw notFound(ORDER_NOT_FOUND);
  assertMayWorkOrder(req.user, order);
  const cashier = await verifyPin(ctx, {
    pin: req.body.pin,
    actorId: req.user.id,
    sessionHash: req.sessionHash ?? null,
    ip: req.ip,
    purpose: 'cash-close',
  });
  const { method, tipBps, peopleCount, receivedAmount } = req.body;
  const hash = requestHash({ orderId: req.orderId, method, tipBps, peopleCount, receivedAmount, cashierId: cashier.id });

  return mutate(ctx, async (trx, emit) => {
    const stored = await claimKey(trx, { key: req.idempotencyKey, scope: `order-close:${req.orderId}`, hash, now: ctx.clock.now() });
    if (stored) return stored;
    // A card payment still on the terminal could be approved after this cash close: the customer would pay twice.
    const liveCard = await trx
      .selectFrom('card_payments')
      .select('id')
      .where('order_id', '=', req.orderId)
      .where('state', 'in', [...LIVE_STATES])
      .executeTakeFirst();
    if (liveCard) throw conflict(CARD_MESSAGES.inProgress, 'card_payment_in_progress');
    // An approved card charge not yet settled: cash now would take the money a second time.
    await assertNoPendingReview(trx, req.orderId);
    const closed = await closeOrderInTx(ctx, trx, {
      orderId: req.orderId,
      method,
      tipBps,
      peopleCount,
      receivedAmount,
      cashier: { id: cashier.id, name: cashier.displayName },
      providerPaymentId: null,
      actor: { id: req.user.id, displayName: req.user.displayName },
      emit,
    });
    await attachToDrawer(trx, { orderId: req.orderId, now: ctx.clock.now(), emit });
    const response: StoredResponse = { statusCode: 200, body: { order: closed } };
    await storeResponse(trx, req.idempotencyKey, response);
    return response;
  });
}
