import type { SessionUser, Table } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { touchOrder } from '../../model/orders/order-repository.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { presentTable } from './list-tables.query.ts';
import { newTableRow } from '../../model/tables/new-table.ts';
import { isUniqueViolation, TABLE_MESSAGES } from './table-messages.ts';
import type { WriteContext } from '../../http/request-context.ts';

/** The unique index on tables.number decides; a taken number is a conflict, not a 500. */
async function withNumberGuard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(TABLE_MESSAGES.numberTaken, 'number_taken');
    throw error;
  }
}

export async function createTable(ctx: WriteContext, user: SessionUser, number: number): Promise<Table> {
  return withNumberGuard(() =>
    mutate(ctx, async (trx, emit) => {
      const now = ctx.clock.now();
      const taken = await trx.selectFrom('tables').select('id').where('number', '=', number).executeTakeFirst();
      if (taken) throw conflict(TABLE_MESSAGES.numberTaken, 'number_taken');
      const row = newTableRow(number, now);
      await trx.insertInto('tables').values(row).execute();
      await audit(trx, now, { actor: user, action: 'table.created', entity: 'table', entityId: row.id, data: { number } });
      emit({ topic: 'tables', type: 'table.created', id: row.id });
      return presentTable(row, null, true);
    }),
  );
}

/** A new number also relabels the table's active order, so its ticket shows where it is served. */
export async function renumberTable(ctx: WriteContext, user: SessionUser, tableId: string, number: number): Promise<Table> {
  return withNumberGuard(() =>
    mutate(ctx, async (trx, emit) => {
      const now = ctx.clock.now();
      const before = await trx.selectFrom('tables').selectAll().where('id', '=', tableId).executeTakeFirst();
      if (!before) throw notFound(TABLE_MESSAGES.notFound);
      if (before.number === number) return presentTable(before, null, true);
      const taken = await trx.selectFrom('tables').select('id').where('number', '=', number).executeTakeFirst();
      if (taken) throw conflict(TABLE_MESSAGES.numberTaken, 'number_taken');
      const row = await trx
        .updateTable('tables')
        .set({ number, updated_at: now })
        .where('id', '=', tableId)
        .returningAll()
        .executeTakeFirstOrThrow();
      const active = await trx.selectFrom('orders').select(['id', 'waiter_id']).where('active_table_id', '=', tableId).executeTakeFirst();
      if (active) {
        await trx.updateTable('orders').set({ table_number: number }).where('id', '=', active.id).execute();
        emitOrderChanged(emit, active.id, await touchOrder(trx, active.id, now), { owner: active.waiter_id, board: true });
      }
      await audit(trx, now, {
        actor: user,
        action: 'table.renumbered',
        entity: 'table',
        entityId: tableId,
        data: { from: before.number, to: number },
      });
      emit({ topic: 'tables', type: 'table.updated', id: tableId });
      return presentTable(row, null, true);
    }),
  );
}

/** Only a free table without an active order can go; its past orders keep their number. */
export async function deleteTable(ctx: WriteContext, user: SessionUser, tableId: string): Promise<void> {
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const row = await trx.selectFrom('tables').selectAll().where('id', '=', tableId).executeTakeFirst();
    if (!row) throw notFound(TABLE_MESSAGES.notFound);
    const active = await trx.selectFrom('orders').select('id').where('active_table_id', '=', tableId).executeTakeFirst();
    if (active || row.status !== 'libre') throw conflict(TABLE_MESSAGES.hasActiveOrder, 'table_in_use');
    // Conditional on still being free: an open that slipped in between makes this a no-op.
    const removed = await trx.deleteFrom('tables').where('id', '=', tableId).where('status', '=', 'libre').executeTakeFirst();
    if (Number(removed.numDeletedRows) !== 1) throw conflict(TABLE_MESSAGES.hasActiveOrder, 'table_in_use');
    await audit(trx, now, { actor: user, action: 'table.deleted', entity: 'table', entityId: tableId, data: { number: row.number } });
    emit({ topic: 'tables', type: 'table.deleted', id: tableId });
  });
}
