import type { SessionUser, TableCheck } from '@comanda/contract';
import { canCharge, itemQuantity, mayWorkOrder, type ItemStatus, cents } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { ORDER_MESSAGES } from '../../model/orders/order-access.ts';
import { TAB_MESSAGES } from './open-tab.command.ts';

/**
 * The open orders of one table (its separate checks, or the bar's tabs), oldest first, with
 * what the order screen lists: name, waiter, total, whether it can be charged. A waiter sees
 * only their own, as with orders.
 */
export async function listTableChecks(db: Trx, user: SessionUser, tableId: string): Promise<TableCheck[]> {
  const table = await db.selectFrom('tables').select('id').where('id', '=', tableId).executeTakeFirst();
  if (!table) throw notFound(TAB_MESSAGES.tableNotFound);
  const open = await db
    .selectFrom('orders')
    .select(['id', 'tab_name', 'waiter_id', 'waiter_name', 'subtotal', 'total', 'share_amount', 'active_table_id', 'created_at'])
    .where('table_id', '=', tableId)
    .where('status', '=', 'activo')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const rows = open.filter((o) => mayWorkOrder(user, o.waiter_id));
  // Another waiter's table is refused as its order is, not answered with an empty list.
  if (open.length > 0 && rows.length === 0) throw forbidden(ORDER_MESSAGES.notOwner);
  if (rows.length === 0) return [];
  const items = await db
    .selectFrom('order_items')
    .select(['order_id', 'status', 'quantity'])
    .where(
      'order_id',
      'in',
      rows.map((r) => r.id),
    )
    .where('is_deleted', '=', 0)
    .execute();
  return rows.map((r) => {
    const own = items
      .filter((i) => i.order_id === r.id)
      .map((i) => ({ isDeleted: false as const, status: i.status as ItemStatus, quantity: Number(i.quantity) }));
    return {
      id: r.id,
      tabName: r.tab_name,
      waiterName: r.waiter_name,
      subtotal: cents(Number(r.subtotal)),
      itemCount: itemQuantity(own),
      canCharge: canCharge(own, Number(r.share_amount)),
      current: r.active_table_id !== null,
      total: cents(Number(r.total)),
      shareAmount: cents(Number(r.share_amount)),
    };
  });
}
