import type { Order, SessionUser } from '@comanda/contract';
import { mayDeliver, VOID_MESSAGES } from '@comanda/domain';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { findOrderRow, loadOrder, ORDER_NOT_FOUND, touchOrder } from '../../model/orders/order-repository.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { boardLineOf } from '../../model/orders/board-lines.ts';
import { assertMayWorkOrder, lockWorkableOrder, ORDER_MESSAGES } from '../../model/orders/order-access.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * The waiter carries the plates: from the order screen they mark their own order's listo items
 * as entregado; an admin may do it on any order. Only listo → entregado: the
 * boards keep every other status change. Items already entregado are skipped (a repeated tap is
 * not a change); any other status, a voided item or one of another order refuses the whole request.
 */
export async function deliverItems(
  ctx: WriteContext,
  user: SessionUser,
  input: { orderId: string; itemIds: readonly string[] },
): Promise<Order> {
  const existing = await findOrderRow(ctx.db.db, input.orderId);
  if (!existing) throw notFound(ORDER_NOT_FOUND);
  assertMayWorkOrder(user, existing);
  const ids = [...new Set(input.itemIds)];

  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockWorkableOrder(trx, user, input.orderId, now);
    const items = await trx
      .selectFrom('order_items')
      .select(['id', 'status', 'is_deleted', 'station', 'product_name', 'quantity'])
      .where('order_id', '=', input.orderId)
      .where('id', 'in', ids)
      .execute();
    if (items.length !== ids.length) throw notFound(ORDER_MESSAGES.itemNotFound);
    if (items.some((i) => i.is_deleted === 1)) throw conflict(VOID_MESSAGES.itemVoided, 'item_deleted');
    const pending = items.filter((i) => i.status !== 'entregado');
    if (pending.some((i) => !mayDeliver(i.status))) throw conflict(VOID_MESSAGES.deliverNotReady, 'item_not_ready');
    if (pending.length === 0) return;
    const delivered = await trx
      .updateTable('order_items')
      .set({ status: 'entregado', updated_at: now })
      .where('order_id', '=', input.orderId)
      .where(
        'id',
        'in',
        pending.map((i) => i.id),
      )
      .where('status', '=', 'listo')
      .returningAll()
      .execute();
    const version = await touchOrder(trx, input.orderId, now);
    for (const item of pending) {
      await audit(trx, now, {
        actor: user,
        action: 'item.status_changed',
        entity: 'order_item',
        entityId: item.id,
        data: { orderId: input.orderId, from: 'listo', to: 'entregado', station: item.station, via: 'order-screen' },
      });
    }
    // The boards of the lines' stations patch them to Entregado from the event (the order's lock
    // holds its table and waiter as they are).
    emitOrderChanged(emit, input.orderId, version, {
      owner: order.waiter_id,
      board: delivered.map((i) => i.station),
      lines: { lines: delivered.map((i) => boardLineOf(order, i)), removed: [] },
    });
  });
  return loadOrder(ctx.db.db, input.orderId);
}
