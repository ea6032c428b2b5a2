import { sql } from 'kysely';
import type { Order, SessionUser } from '@comanda/contract';
import { PIN_MESSAGES } from '@comanda/domain';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { verifyPin } from '../../auth/verify-pin.ts';
import { assertMayWorkOrder, lockOpenOrder } from '../../model/orders/order-access.ts';
import { loadOrder } from '../../model/orders/order-repository.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { requireWorkableOrder, SERVICE_MESSAGES } from './service-guards.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * Hands a table (its activo order) to another waiter: both orders.waiter_id and tables.waiter_id
 * change in one transaction, so every access rule (routes, live topics, the tables list) follows
 * at once. An admin does it alone; a waiter hands over their own table with an admin's PIN.
 * The old waiter hears the change (their screen refetches and is refused), the new one too.
 */
export async function changeWaiter(
  ctx: WriteContext,
  user: SessionUser,
  input: { orderId: string; waiterId: string; pin?: string | undefined; ip: string; sessionHash?: string | null },
): Promise<Order> {
  // Ownership first, so a waiter cannot probe PINs through someone else's table.
  await requireWorkableOrder(ctx.db.db, user, input.orderId);
  let authorizedBy: string | null = null;
  if (user.role !== 'admin') {
    if (!input.pin) throw new AppError(403, 'pin_required', SERVICE_MESSAGES.pinRequired);
    const authorizer = await verifyPin(ctx, {
      pin: input.pin,
      actorId: user.id,
      sessionHash: input.sessionHash ?? null,
      ip: input.ip,
      purpose: 'change-waiter',
      roles: ['admin'],
      ownPinRefused: new AppError(403, 'not_admin_pin', PIN_MESSAGES.notAdmin),
    });
    authorizedBy = authorizer.id;
  }
  const waiter = await ctx.db.db
    .selectFrom('users')
    .select(['id', 'display_name', 'role'])
    .where('id', '=', input.waiterId)
    .where('active', '=', 1)
    .where('role', 'in', ['waiter', 'admin'])
    .executeTakeFirst();
  if (!waiter) throw notFound(SERVICE_MESSAGES.waiterNotFound);

  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockOpenOrder(trx, input.orderId, now);
    assertMayWorkOrder(user, order);
    if (order.waiter_id === waiter.id) throw conflict(SERVICE_MESSAGES.sameWaiter, 'same_waiter');
    const row = await trx
      .updateTable('orders')
      .set({ waiter_id: waiter.id, waiter_name: waiter.display_name, version: sql<number>`version + 1`, updated_at: now })
      .where('id', '=', order.id)
      .returning(['version'])
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('tables')
      .set({ waiter_id: waiter.id, waiter_name: waiter.display_name, updated_at: now })
      .where('id', '=', order.table_id)
      .where('current_order_id', '=', order.id)
      .execute();
    await audit(trx, now, {
      actor: user,
      action: 'order.waiter-changed',
      entity: 'order',
      entityId: order.id,
      authorizedBy,
      data: {
        tableId: order.table_id,
        number: order.table_number,
        fromWaiterId: order.waiter_id,
        fromWaiterName: order.waiter_name,
        toWaiterId: waiter.id,
        toWaiterName: waiter.display_name,
      },
    });
    const version = Number(row.version);
    // The old owner hears it (their screen refetches and is refused); the new one picks it up.
    emitOrderChanged(emit, order.id, version, { owner: order.waiter_id, board: true });
    emitOrderChanged(emit, order.id, version, { owner: waiter.id, tables: false });
    emit({ topic: 'tables', type: 'table.updated', id: order.table_id, version });
    return loadOrder(trx, order.id);
  });
}
