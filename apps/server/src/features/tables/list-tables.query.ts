import { PostgresAdapter, sql, type Expression, type RawBuilder } from 'kysely';
import { tablePublicFields, type SessionUser, type Table, type TableOrderSummary } from '@comanda/contract';
import { canCharge, compareTables, itemQuantity, mayWorkEveryOrder, type ItemStatus, cents } from '@comanda/domain';
import type { TableRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';

/**
 * Every table with a summary of its active order, in three queries whatever the number of
 * tables: the tables, the active orders (with their last item and approved card charges
 * waiting for review), and item quantities grouped by order and status. A waiter sees the summaries of their own tables only.
 * On PostgreSQL the three are one statement (a phone reads the list after each of its writes), and
 * `sessionOk` (a remembered session's check) is evaluated with them: null when it did not hold.
 */
export async function listTables(
  db: Trx,
  user: SessionUser,
  sessionOk?: RawBuilder<boolean>,
  /** The three queries in turn on PostgreSQL too: what its one statement must equal (table-list-statement.test.ts). */
  { inTurn = false } = {},
): Promise<Table[] | null> {
  const ownOnly = !mayWorkEveryOrder(user.role);
  let orders = db
    .selectFrom('orders')
    .select([
      'id',
      'table_id',
      'active_table_id',
      'table_name',
      'tab_name',
      'waiter_id',
      'waiter_name',
      'status',
      'subtotal',
      'total',
      'share_amount',
      'created_at',
      'version',
    ])
    .select((eb) =>
      eb
        .selectFrom('order_items')
        .select('product_name')
        .whereRef('order_items.order_id', '=', 'orders.id')
        .where('order_items.is_deleted', '=', 0)
        .orderBy('order_items.created_at', 'desc')
        .orderBy('order_items.id', 'desc')
        .limit(1)
        .as('last_item_name'),
    )
    .select((eb) =>
      eb
        .selectFrom('card_payments')
        .select(sql<number>`COUNT(*)`.as('n'))
        .whereRef('card_payments.order_id', '=', 'orders.id')
        .where('card_payments.state', '=', 'needs_review')
        .as('card_reviews'),
    )
    .where('status', '=', 'activo');
  let counts = db
    .selectFrom('order_items')
    .innerJoin('orders', 'orders.id', 'order_items.order_id')
    .select(['order_items.order_id as order_id', 'order_items.status as status', sql<number>`SUM(order_items.quantity)`.as('quantity')])
    .where('orders.status', '=', 'activo')
    .where('order_items.is_deleted', '=', 0)
    .groupBy(['order_items.order_id', 'order_items.status']);
  if (ownOnly) {
    orders = orders.where('waiter_id', '=', user.id);
    counts = counts.where('orders.waiter_id', '=', user.id);
  }
  const tablesQuery = db.selectFrom('tables').selectAll().orderBy('number');
  let read: {
    tables: TableRow[];
    orderRows: Awaited<ReturnType<typeof orders.execute>>;
    countRows: Awaited<ReturnType<typeof counts.execute>>;
  };
  if (!inTurn && db.getExecutor().adapter instanceof PostgresAdapter) {
    // Each list as JSON: its columns are text and integers, read back with the values the queries give.
    const list = (query: Expression<unknown>) => sql`(SELECT COALESCE(json_agg(x), '[]'::json) FROM (${query}) x)`;
    const { rows } = await sql<{ tables: TableRow[]; orders: typeof read.orderRows; counts: typeof read.countRows; session_ok: boolean }>`
      SELECT ${list(tablesQuery)} AS tables, ${list(orders)} AS orders, ${list(counts)} AS counts, ${sessionOk ?? sql`true`} AS session_ok`.execute(
      db,
    );
    const row = rows[0]!;
    if (!row.session_ok) return null;
    read = { tables: row.tables, orderRows: row.orders, countRows: row.counts };
  } else {
    const [tables, orderRows, countRows] = await Promise.all([tablesQuery.execute(), orders.execute(), counts.execute()]);
    read = { tables, orderRows, countRows };
  }
  const { tables, orderRows, countRows } = read;

  // One pseudo-item per (order, status) group: the domain's gate and counts apply unchanged.
  const groups = new Map<string, { isDeleted: false; status: ItemStatus; quantity: number }[]>();
  for (const c of countRows) {
    const list = groups.get(c.order_id) ?? [];
    list.push({ isDeleted: false, status: c.status, quantity: Number(c.quantity) });
    groups.set(c.order_id, list);
  }
  const byTable = new Map<string, TableOrderSummary>();
  // A table's other open orders (separate checks, the bar's tabs: 0014), oldest first.
  const extraByTable = new Map<string, TableOrderSummary[]>();
  for (const o of orderRows) {
    const items = groups.get(o.id) ?? [];
    const summary: TableOrderSummary = {
      id: o.id,
      tableName: o.table_name,
      waiterName: o.waiter_name,
      status: o.status,
      itemCount: itemQuantity(items),
      lastItemName: o.last_item_name ?? null,
      subtotal: cents(Number(o.subtotal)),
      createdAt: Number(o.created_at),
      canCharge: canCharge(items, Number(o.share_amount)),
      total: cents(Number(o.total)),
      version: o.version,
      cardReviews: Number(o.card_reviews ?? 0),
      tabName: o.tab_name ?? null,
    };
    if (o.active_table_id) byTable.set(o.active_table_id, summary);
    else extraByTable.set(o.table_id, [...(extraByTable.get(o.table_id) ?? []), summary]);
  }
  for (const list of extraByTable.values()) list.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  return tables
    .sort(compareTables)
    .map((row) => presentTable(row, byTable.get(row.id) ?? null, !ownOnly || row.waiter_id === user.id, extraByTable.get(row.id) ?? []));
}

/** A table card; the link to its order is hidden from waiters who do not own it. */
export function presentTable(
  row: TableRow,
  order: TableOrderSummary | null,
  mayLink: boolean,
  extraOrders: TableOrderSummary[] = [],
): Table {
  return { ...tablePublicFields(row), currentOrderId: mayLink ? row.current_order_id : null, order, extraOrders };
}
