import { assertNotFrozen } from '../../model/orders/order-guards.ts';
import type { SessionUser } from '@comanda/contract';
import { PIN_MESSAGES } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import type { Trx } from '../../http/transaction.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { verifyPin, type PinUser } from '../../auth/verify-pin.ts';
import { reconcileTimedOut } from '../../model/card-payments/timed-out.ts';
import { findOrderRow, ORDER_NOT_FOUND } from '../../model/orders/order-repository.ts';
import { assertMayWorkOrder } from '../../model/orders/order-access.ts';

export interface AdjustmentCaller {
  user: SessionUser;
  orderId: string;
  pin: string;
  ip: string;
  sessionHash?: string | null;
}

/**
 * Before an adjustment's transaction: the caller may work the order (a waiter their own, an
 * admin any) and an admin's PIN authorises it (ownership first, so a waiter cannot probe PINs
 * through someone else's table). A timed-out card attempt is settled first, as for item edits.
 */
export async function authorizeAdjustment(ctx: AppContext, input: AdjustmentCaller): Promise<PinUser> {
  const existing = await findOrderRow(ctx.db.db, input.orderId);
  if (!existing) throw notFound(ORDER_NOT_FOUND);
  assertMayWorkOrder(input.user, existing);
  const authorizer = await verifyPin(ctx, {
    pin: input.pin,
    actorId: input.user.id,
    sessionHash: input.sessionHash ?? null,
    ip: input.ip,
    purpose: 'adjust-order',
    roles: ['admin'],
    ownPinRefused: new AppError(403, 'not_admin_pin', PIN_MESSAGES.notAdmin),
  });
  await reconcileTimedOut(ctx, input.orderId).catch(() => undefined);
  return authorizer;
}

/**
 * While the terminal may still charge the order, what it owes is frozen (the charge was computed
 * when the payment started): the same rule as item edits. Call after the order row is locked.
 */
export async function assertNoLiveCardPayment(trx: Trx, orderId: string): Promise<void> {
  await assertNotFrozen(trx, orderId);
}
