import type { Order, SessionUser } from '@comanda/contract';
import { CHECK_MESSAGES, isBarTable, normalizeTabName, TAB_NAME_MESSAGES, tabNameKey } from '@comanda/domain';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { newOrderId } from '../../http/ids.ts';
import { loadOrder } from '../../model/orders/order-repository.ts';
import { claimFreeTable, newOrderRow } from '../../model/orders/new-order.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { MESSAGES } from '../../http/messages.ts';
import type { WriteContext } from '../../http/request-context.ts';

export const TAB_MESSAGES = MESSAGES.tabs;

/**
 * A named tab on the Barra (table 0): a new activo order even when the Barra is already
 * ocupada (docs/decisions/0014-checks-are-orders.md). A free Barra is opened by it exactly as
 * SPEC's open does (the table links the tab); on an ocupada Barra the tab is one more open
 * order the table does not link. The table's row lock serializes openers, so two tabs of the
 * same name can never both open. Only the Barra allows this; any other table opens as always.
 */
export async function openTab(ctx: WriteContext, user: SessionUser, tableId: string, rawName: string): Promise<Order> {
  const name = normalizeTabName(rawName);
  const orderId = await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const table = await trx
      .updateTable('tables')
      .set({ updated_at: now })
      .where('id', '=', tableId)
      .returning(['id', 'number', 'status'])
      .executeTakeFirst();
    if (!table) throw notFound(TAB_MESSAGES.tableNotFound);
    if (!isBarTable(table.number)) throw conflict(CHECK_MESSAGES.onlyBar, 'not_bar');
    const open = await trx.selectFrom('orders').select('tab_name').where('table_id', '=', tableId).where('status', '=', 'activo').execute();
    if (open.some((o) => o.tab_name !== null && tabNameKey(o.tab_name) === tabNameKey(name)))
      throw conflict(TAB_NAME_MESSAGES.taken, 'tab_name_taken');

    const id = newOrderId();
    // A free Barra: this tab becomes the order the table links, as an ordinary open would.
    const waiter = { id: user.id, name: user.displayName };
    // Claimed only while libre: a tab opened at the same moment as an ordinary open is one more tab.
    const links = table.status === 'libre' && (await claimFreeTable(trx, tableId, waiter, id, now)) !== undefined;
    await trx
      .insertInto('orders')
      .values(newOrderRow({ id, table, waiter, linked: links, now, tabName: name }))
      .execute();
    await audit(trx, now, {
      actor: user,
      action: 'tab.opened',
      entity: 'order',
      entityId: id,
      data: { tableId, number: table.number, name, linksTable: links },
    });
    emitOrderChanged(emit, id, 1, { owner: user.id });
    emit({ topic: 'tables', type: 'table.updated', id: tableId, changedOrdersOf: user.id });
    return id;
  });
  return loadOrder(ctx.db.db, orderId);
}
