import { PostgresAdapter, sql } from 'kysely';
import { tableLiveCard, type TableLiveCard } from '@comanda/contract';
import type { Trx } from '../../http/transaction.ts';

/**
 * A table may hold several activo orders: the separate checks split from its order and the
 * bar's named tabs (docs/decisions/0014-checks-are-orders.md). Exactly one of them is the one
 * the table links (tables.current_order_id, and the order's unique active_table_id); the others
 * keep active_table_id null.
 *
 * Call this when `leavingOrderId` stops being activo (paid, cancelled, moved away), after its
 * own active_table_id was cleared, inside the same transaction. If the table linked that order:
 * while another order of the table is still activo, the link (and the table's waiter) moves to
 * the oldest of them and the table stays ocupada; otherwise the table is freed. A table that
 * links another order (a check paid before the table's order) is left as it is.
 * Returns the table's live card as this leaves it (the rows in hand: its UPDATE's and the table's
 * other activo orders), or null when the table was left as it is.
 */
export async function releaseTableLink(trx: Trx, tableId: string, leavingOrderId: string, now: number): Promise<TableLiveCard | null> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) return releaseInOneStatement(trx, tableId, leavingOrderId, now);
  return releaseTableLinkInTurn(trx, tableId, leavingOrderId, now);
}

/** releaseTableLink in turn: the table's other activo orders read, then the table's UPDATE (SQLite's way, the rule's reference). */
export async function releaseTableLinkInTurn(
  trx: Trx,
  tableId: string,
  leavingOrderId: string,
  now: number,
): Promise<TableLiveCard | null> {
  const others = await trx
    .selectFrom('orders')
    .select(['id', 'waiter_id', 'waiter_name'])
    .where('table_id', '=', tableId)
    .where('status', '=', 'activo')
    .where('id', '!=', leavingOrderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const heir = others[0];
  const linked = await trx
    .updateTable('tables')
    .set(
      heir
        ? { current_order_id: heir.id, waiter_id: heir.waiter_id, waiter_name: heir.waiter_name, updated_at: now }
        : { status: 'libre', waiter_id: null, waiter_name: null, current_order_id: null, updated_at: now },
    )
    .where('id', '=', tableId)
    .where('current_order_id', '=', leavingOrderId)
    .returning(['id', 'number', 'status', 'waiter_id', 'waiter_name', 'updated_at'])
    .executeTakeFirst();
  if (!linked) return null;
  if (heir) await trx.updateTable('orders').set({ active_table_id: tableId }).where('id', '=', heir.id).execute();
  return tableLiveCard(
    linked,
    others.map((o) => o.waiter_id),
  );
}

/** The table as its UPDATE returns it, the live card's row. */
export type LinkedTable = Parameters<typeof tableLiveCard>[0];

/** The waiters of the table's other activo orders, oldest first (a JSON list): what the live card counts. */
export const OTHER_WAITERS = sql<
  (string | null)[]
>`(SELECT COALESCE(json_agg(o.waiter_id ORDER BY o.created_at, o.id), '[]'::json) FROM others o)`;

/**
 * PostgreSQL: releaseTableLink in one round trip (two or three were). The table's other activo
 * orders, the table's UPDATE and the heir's link are one statement: its CTEs share one snapshot,
 * taken where the separate read was (after the leaving order was cleared, under the table's lock
 * the close took first), so they see what that read saw.
 */
async function releaseInOneStatement(trx: Trx, tableId: string, leavingOrderId: string, now: number): Promise<TableLiveCard | null> {
  const { rows } = await sql<LinkedTable & { other_waiters: (string | null)[] }>`
    WITH ${releaseSteps(tableId, leavingOrderId, now)}
    SELECT linked.*, ${OTHER_WAITERS} AS other_waiters FROM linked`.execute(trx);
  const row = rows[0];
  if (!row) return null;
  const { other_waiters: otherWaiters, ...linked } = row;
  return tableLiveCard(linked, otherWaiters);
}

/**
 * The release's CTEs, for a statement's WITH: `others` (the table's other activo orders), `heir`
 * (the oldest of them), `linked` (the table's UPDATE, when it links the leaving order: its row)
 * and `handed` (the heir's link). A statement that runs them answers with `linked` and `OTHER_WAITERS`.
 */
export function releaseSteps(tableId: string, leavingOrderId: string, now: number) {
  return sql`others AS (
      SELECT id, waiter_id, waiter_name, created_at FROM orders
      WHERE table_id = ${tableId} AND status = 'activo' AND id <> ${leavingOrderId}
    ),
    heir AS (SELECT id, waiter_id, waiter_name FROM others ORDER BY created_at, id LIMIT 1),
    linked AS (
      UPDATE tables SET
        status = CASE WHEN EXISTS (SELECT 1 FROM heir) THEN status ELSE 'libre' END,
        current_order_id = (SELECT id FROM heir),
        waiter_id = (SELECT waiter_id FROM heir),
        waiter_name = (SELECT waiter_name FROM heir),
        updated_at = ${now}
      WHERE id = ${tableId} AND current_order_id = ${leavingOrderId}
      RETURNING id, number, status, waiter_id, waiter_name, updated_at
    ),
    handed AS (
      UPDATE orders SET active_table_id = ${tableId}
      WHERE id = (SELECT id FROM heir) AND EXISTS (SELECT 1 FROM linked)
    )`;
}

/** The live card of a table the release left (releaseSteps' `linked` row and `OTHER_WAITERS`), or null when it left the table alone. */
export function releasedCard(linked: LinkedTable | null, waiters: (string | null)[]): TableLiveCard | null {
  return linked ? tableLiveCard(linked, waiters) : null;
}

/**
 * Takes the row lock of the order's table (PostgreSQL; SQLite has one writer anyway). Every
 * command that changes which orders a table holds (close, split into checks, open a tab) takes
 * the table's lock before any order's, so two of them on one table never deadlock and the one
 * that waits sees the other's committed orders.
 */
export async function lockTableOfOrder(trx: Trx, orderId: string, now: number): Promise<void> {
  await trx
    .updateTable('tables')
    .set({ updated_at: now })
    .where('id', '=', (eb) => eb.selectFrom('orders').select('table_id').where('orders.id', '=', orderId))
    .execute();
}
