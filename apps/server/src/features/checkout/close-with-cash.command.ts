import type { CloseOrderBody, Order, SessionUser } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { cashierFor } from './cashier.ts';
import { closeOrderInTx } from '../../model/checkout/close-order.ts';
import { requestHash, responseRider, type StoredResponse } from '../../http/idempotency.ts';
import { claimKeyLockingTable } from './claim-and-lock.ts';
import type { WriteContext } from '../../http/request-context.ts';
import type { SessionToCheck } from '../../auth/sessions.ts';

export interface CashCloseRequest {
  orderId: string;
  body: CloseOrderBody;
  idempotencyKey: string;
  user: SessionUser;
  ip: string;
  sessionHash?: string | null;
  /** The caller's session when the route took it as remembered: checked with the PIN (cashierFor). */
  session?: SessionToCheck | undefined;
}

/**
 * POST /api/orders/:orderId/close for cash: the PIN names the cashier (any active user), then one
 * transaction claims the idempotency key and closes the order. A repeat of the key answers the
 * first response; the same key for a different request is refused.
 */
export async function closeWithCash(ctx: WriteContext, req: CashCloseRequest): Promise<StoredResponse> {
  const { cashier, user } = await cashierFor(ctx, { ...req, pin: req.body.pin });
  const { method, tipBps, receivedAmount } = req.body;
  const peopleCount = req.body.peopleCount ?? null;
  const splitCount = req.body.splitCount ?? null;
  const hash = requestHash({ orderId: req.orderId, method, tipBps, peopleCount, splitCount, receivedAmount, cashierId: cashier.id });

  return mutate(ctx, async (trx, emit) => {
    const claim = { key: req.idempotencyKey, scope: `order-close:${req.orderId}`, hash, now: ctx.clock.now(), orderId: req.orderId };
    const claimed = await claimKeyLockingTable(trx, claim);
    if ('stored' in claimed) return claimed.stored;
    const answer = (order: Order): StoredResponse => ({ statusCode: 200, body: { order } });
    const closed = await closeOrderInTx(ctx, trx, {
      orderId: req.orderId,
      method,
      tipBps,
      peopleCount,
      splitCount,
      receivedAmount,
      cashier: { id: cashier.id, name: cashier.displayName },
      providerPaymentId: null,
      actor: { id: user.id, displayName: user.displayName },
      emit,
      // No card charge may be on its way or awaiting review (the customer would pay twice): refused
      // from the table's lock, taken with the key's claim.
      tableLock: 'held',
      claimed: claimed.order,
      // The payment joins the drawer's open session; the answer is stored with that statement (on
      // PostgreSQL the close's last one, with the rollups, the payment and the ticket).
      drawer: {
        riders: (order) => [responseRider(trx, req.idempotencyKey, answer(order))],
      },
    });
    return answer(closed);
  });
}
