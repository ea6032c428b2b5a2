import { sql } from 'kysely';
import type { Order, SessionUser } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { conflict } from '../../http/errors.ts';
import { loadOrder } from '../../model/orders/order-repository.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { freeTableOf, lockOrdersInOrder, requireTable, SERVICE_MESSAGES, thawOrders } from './service-guards.ts';
import { requireOrderToEdit } from '../../model/orders/order-guards.ts';
import { isUniqueViolation } from './unique-violation.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * Moves an activo order, whole, to a free table: the target becomes ocupada by the order's
 * waiter, the old table libre. Items, statuses and print history stay with the order (nothing
 * is a new comanda); the boards show the new table number at once.
 */
export async function transferOrder(ctx: WriteContext, user: SessionUser, input: { orderId: string; tableId: string }): Promise<Order> {
  // The ownership read also tells whether a card attempt timed out: only then is it settled.
  const { row: existing, timedOut } = await requireOrderToEdit(ctx, user, input.orderId);
  if (existing.table_id === input.tableId) throw conflict(SERVICE_MESSAGES.sameTable, 'same_table');
  await requireTable(ctx.db.db, input.tableId);
  if (timedOut) await thawOrders(ctx, input.orderId);
  try {
    return await mutate(ctx, async (trx, emit) => {
      const now = ctx.clock.now();
      const order = (await lockOrdersInOrder(trx, user, [input.orderId], now)).get(input.orderId)!;
      if (order.table_id === input.tableId) throw conflict(SERVICE_MESSAGES.sameTable, 'same_table');
      // Claims the target only while it is libre: of two transfers to one table, one wins.
      const target = await trx
        .updateTable('tables')
        .set({ status: 'ocupada', waiter_id: order.waiter_id, waiter_name: order.waiter_name, current_order_id: order.id, updated_at: now })
        .where('id', '=', input.tableId)
        .where('status', '=', 'libre')
        .returning(['id', 'number'])
        .executeTakeFirst();
      if (!target) throw conflict(SERVICE_MESSAGES.targetNotFree, 'table_taken');
      const moved = await trx
        .updateTable('orders')
        .set({
          table_id: target.id,
          table_number: target.number,
          active_table_id: target.id,
          version: sql<number>`version + 1`,
          updated_at: now,
        })
        .where('id', '=', order.id)
        .returning(['version'])
        .executeTakeFirstOrThrow();
      await freeTableOf(trx, order.table_id, order.id, now);
      await audit(trx, now, {
        actor: user,
        action: 'order.transferred',
        entity: 'order',
        entityId: order.id,
        data: { fromTableId: order.table_id, fromNumber: order.table_number, toTableId: target.id, toNumber: target.number },
      });
      const version = Number(moved.version);
      emitOrderChanged(emit, order.id, version, { owner: order.waiter_id, board: true });
      emit({ topic: 'tables', type: 'table.updated', id: order.table_id, version });
      emit({ topic: 'tables', type: 'table.updated', id: target.id, version });
      return loadOrder(trx, order.id);
    });
  } catch (error) {
    // The unique active_table_id: an order appeared on the target between the checks.
    if (isUniqueViolation(error)) throw conflict(SERVICE_MESSAGES.targetNotFree, 'table_taken');
    throw error;
  }
}
