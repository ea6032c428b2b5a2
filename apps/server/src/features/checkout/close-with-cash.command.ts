import type { CloseOrderBody, SessionUser } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { cashierFor } from './cashier.ts';
import { closeOrderInTx } from '../../model/checkout/close-order.ts';
import { requestHash, responseRider, type StoredResponse } from '../../http/idempotency.ts';
import { claimKeyLockingTable } from './claim-and-lock.ts';
import { newId } from '../../http/ids.ts';
import { attachToDrawer } from '../../model/drawer/drawer-store.ts';
import type { WriteContext } from '../../http/request-context.ts';

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
export async function closeWithCash(ctx: WriteContext, req: CashCloseRequest): Promise<StoredResponse> {
  const cashier = await cashierFor(ctx, { ...req, pin: req.body.pin });
  const { method, tipBps, peopleCount, receivedAmount } = req.body;
  const hash = requestHash({ orderId: req.orderId, method, tipBps, peopleCount, receivedAmount, cashierId: cashier.id });

  return mutate(ctx, async (trx, emit) => {
    const claim = { key: req.idempotencyKey, scope: `order-close:${req.orderId}`, hash, now: ctx.clock.now(), orderId: req.orderId };
    const stored = await claimKeyLockingTable(trx, claim);
    if (stored) return stored;
    const paymentId = newId();
    const closed = await closeOrderInTx(ctx, trx, {
      orderId: req.orderId,
      paymentId,
      method,
      tipBps,
      peopleCount,
      receivedAmount,
      cashier: { id: cashier.id, name: cashier.displayName },
      providerPaymentId: null,
      actor: { id: req.user.id, displayName: req.user.displayName },
      emit,
      // No card charge may be on its way or awaiting review (the customer would pay twice): refused
      // from the table's lock, taken with the key's claim.
      tableLock: 'held',
    });
    const response: StoredResponse = { statusCode: 200, body: { order: closed } };
    // The answer is stored with the drawer's statement: on PostgreSQL one round trip for both.
    const riders = [responseRider(trx, req.idempotencyKey, response)];
    await attachToDrawer(trx, { orderId: req.orderId, paymentId, now: ctx.clock.now(), emit, riders });
    return response;
  });
}
