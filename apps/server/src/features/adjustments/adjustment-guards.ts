import { lockUnfrozenOrder, requireOrderToEdit, thawTimedOut } from '../../model/orders/order-guards.ts';
import type { Order, SessionUser } from '@comanda/contract';
import type { OrderRow } from '../../db/schema.ts';
import { PIN_MESSAGES } from '@comanda/domain';
import { mutate, type Trx } from '../../http/transaction.ts';
import { AppError } from '../../http/errors.ts';
import { verifyPin, type PinUser } from '../../auth/verify-pin.ts';
import { loadOrder, touchOrder } from '../../model/orders/order-repository.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import type { AppContext } from '../../http/context.ts';
import type { WriteContext } from '../../http/request-context.ts';

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
  const { timedOut } = await requireOrderToEdit(ctx, input.user, input.orderId);
  const authorizer = await verifyPin(ctx, {
    pin: input.pin,
    actorId: input.user.id,
    sessionHash: input.sessionHash ?? null,
    ip: input.ip,
    purpose: 'adjust-order',
    roles: ['admin'],
    ownPinRefused: new AppError(403, 'not_admin_pin', PIN_MESSAGES.notAdmin),
  });
  if (timedOut) await thawTimedOut(ctx, input.orderId);
  return authorizer;
}

/** What an adjustment's steps work on: the locked order, the authorising admin, the moment. */
export interface Adjusting {
  trx: Trx;
  order: OrderRow;
  authorizer: PinUser;
  now: number;
}

/**
 * One adjustment change (add or remove) in one transaction: authorised by an admin PIN, the
 * order locked and not frozen by a live card charge, `apply` writes the change, the order's
 * figures are recomputed, then `record` (when given) audits what `apply` returned (reading the stored figures) and every
 * screen of the order hears of it.
 */
export async function adjustOrder<T>(
  ctx: WriteContext,
  caller: AdjustmentCaller,
  steps: { apply(a: Adjusting): Promise<T>; record?(a: Adjusting, applied: T): Promise<void> },
): Promise<Order> {
  const authorizer = await authorizeAdjustment(ctx, caller);
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    // While the terminal may still charge the order, what it owes is frozen (the charge was
    // computed when the payment started): the same rule as item edits, told by the lock itself.
    const order = await lockUnfrozenOrder(trx, caller.user, caller.orderId, now);
    const a = { trx, order, authorizer, now };
    const applied = await steps.apply(a);
    const version = await touchOrder(trx, order.id, now);
    await steps.record?.(a, applied);
    emitOrderChanged(emit, order.id, version, { owner: order.waiter_id });
  });
  return loadOrder(ctx.db.db, caller.orderId);
}
