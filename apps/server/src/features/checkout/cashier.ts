import type { SessionUser } from '@comanda/contract';
import type { AppContext } from '../../http/context.ts';
import { notFound } from '../../http/errors.ts';
import { verifyPin, type PinUser } from '../../auth/verify-pin.ts';
import { findOrderRow, ORDER_NOT_FOUND } from '../../model/orders/order-repository.ts';
import { assertMayWorkOrder } from '../../model/orders/order-access.ts';

/**
 * Before a cash or transfer payment, outside its transaction: the order exists and the user may
 * work it, and the PIN names the cashier the cash close shows (any active user; throttled).
 */
export async function cashierFor(
  ctx: AppContext,
  req: { orderId: string; user: SessionUser; ip: string; sessionHash?: string | null; pin: string },
): Promise<PinUser> {
  const order = await findOrderRow(ctx.db.db, req.orderId);
  if (!order) throw notFound(ORDER_NOT_FOUND);
  assertMayWorkOrder(req.user, order);
  return verifyPin(ctx, { pin: req.pin, actorId: req.user.id, sessionHash: req.sessionHash ?? null, ip: req.ip, purpose: 'cash-close' });
}
