import type { Order, SessionUser } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { newOrderId } from '../../http/ids.ts';
import { presentOrder } from '../../model/orders/order-presenter.ts';
import { claimFreeTable, newOrderRow } from '../../model/orders/new-order.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { isUniqueViolation, TABLE_MESSAGES } from './table-messages.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * libre → ocupada and a new empty activo order, in one transaction (SPEC §4). The conditional
 * update lets exactly one of several simultaneous openers through; the unique active_table_id
 * is the database's own guarantee of one active order per table.
 */
export async function openTable(ctx: WriteContext, user: SessionUser, tableId: string): Promise<Order> {
  try {
    return await mutate(ctx, async (trx, emit) => {
      const now = ctx.clock.now();
      const table = await trx.selectFrom('tables').select(['id', 'number']).where('id', '=', tableId).executeTakeFirst();
      if (!table) throw notFound(TABLE_MESSAGES.notFound);
      const orderId = newOrderId();
      const waiter = { id: user.id, name: user.displayName };
      if (!(await claimFreeTable(trx, tableId, waiter, orderId, now))) throw conflict(TABLE_MESSAGES.openFailed, 'table_taken');
      const order = await trx
        .insertInto('orders')
        .values(newOrderRow({ id: orderId, table, waiter, linked: true, now }))
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(trx, now, {
        actor: user,
        action: 'table.opened',
        entity: 'table',
        entityId: tableId,
        data: { orderId, number: table.number },
      });
      emitOrderChanged(emit, orderId, 1, { owner: user.id });
      // The other waiters see the table taken; only its owner hears about the order itself.
      emit({ topic: 'tables', type: 'table.updated', id: tableId, changedOrdersOf: user.id });
      // A new order has no lines, payments or adjustments yet: the answer is its row.
      return presentOrder(order, [], []);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(TABLE_MESSAGES.openFailed, 'table_taken');
    throw error;
  }
}
