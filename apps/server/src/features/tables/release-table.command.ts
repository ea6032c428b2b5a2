import type { SessionUser, Table } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { presentTable } from './list-tables.query.ts';
import { TABLE_MESSAGES } from './table-messages.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * ocupada → libre for a table left without an active order (a crash or a manual database fix
 * can leave one behind): without this it could never be opened again. A table whose order is
 * still activo is refused: that order must be paid, the table is not simply cleared.
 */
export async function releaseTable(ctx: WriteContext, user: SessionUser, tableId: string): Promise<Table> {
  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const before = await trx.selectFrom('tables').selectAll().where('id', '=', tableId).executeTakeFirst();
    if (!before) throw notFound(TABLE_MESSAGES.notFound);
    if (before.status === 'libre') throw conflict(TABLE_MESSAGES.alreadyFree, 'table_free');
    const active = await trx
      .selectFrom('orders')
      .select('id')
      .where((eb) => eb.or([eb('active_table_id', '=', tableId), eb.and([eb('table_id', '=', tableId), eb('status', '=', 'activo')])]))
      .executeTakeFirst();
    if (active) throw conflict(TABLE_MESSAGES.releaseHasOrder, 'table_has_order');
    // Conditional on still being ocupada, so two admins releasing at once write one audit entry.
    const row = await trx
      .updateTable('tables')
      .set({ status: 'libre', waiter_id: null, waiter_name: null, current_order_id: null, updated_at: now })
      .where('id', '=', tableId)
      .where('status', '=', 'ocupada')
      .returningAll()
      .executeTakeFirst();
    if (!row) throw conflict(TABLE_MESSAGES.alreadyFree, 'table_free');
    await audit(trx, now, {
      actor: user,
      action: 'table.released',
      entity: 'table',
      entityId: tableId,
      data: { number: before.number, waiterId: before.waiter_id, waiterName: before.waiter_name, currentOrderId: before.current_order_id },
    });
    emit({ topic: 'tables', type: 'table.released', id: tableId });
    return presentTable(row, null, true);
  });
}
