import type { Insertable } from 'kysely';
import type { OrdersTable } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';

export interface NewOrder {
  id: string;
  table: { id: string; number: number; name?: string | null };
  waiter: { id: string | null; name: string | null };
  /** The table links this order (an ordinary open); separate checks and extra bar tabs do not. */
  linked: boolean;
  now: number;
  /** Checks made together are a millisecond apart so they list in the order they were named. */
  createdAt?: number;
  tabName?: string | null;
  parentOrderId?: string | null;
  /** An equal-share check owes its share with no items of its own. */
  shareAmount?: number;
  /** A separate check's share of its table's guests; 1 when omitted. */
  peopleCount?: number;
}

/**
 * The row of a new activo order: one person, nothing charged, version 1. Every way an order
 * begins (a table opened, a bar tab, a separate check, items moved to a free table) starts here.
 */
export function newOrderRow(o: NewOrder) {
  const share = o.shareAmount ?? 0;
  return {
    id: o.id,
    table_id: o.table.id,
    table_number: o.table.number,
    table_name: o.table.name ?? null,
    active_table_id: o.linked ? o.table.id : null,
    waiter_id: o.waiter.id,
    waiter_name: o.waiter.name,
    status: 'activo',
    payment_method: null,
    people_count: o.peopleCount ?? 1,
    admin_comments: null,
    subtotal: 0,
    tip: 0,
    total: share,
    ...(share > 0 ? { share_amount: share } : {}),
    version: 1,
    created_at: o.createdAt ?? o.now,
    updated_at: o.now,
    completed_at: null,
    ...(o.parentOrderId ? { parent_order_id: o.parentOrderId } : {}),
    ...(o.tabName ? { tab_name: o.tabName } : {}),
  } satisfies Insertable<OrdersTable>;
}

/**
 * A free table becomes ocupada by `waiter`, linking `orderId`: only while it is libre, so of
 * several devices opening it at once exactly one gets it. Returns the table, or undefined when
 * it was not free.
 */
export async function claimFreeTable(
  trx: Trx,
  tableId: string,
  waiter: { id: string | null; name: string | null },
  orderId: string,
  now: number,
): Promise<{ id: string; number: number } | undefined> {
  return trx
    .updateTable('tables')
    .set({ status: 'ocupada', waiter_id: waiter.id, waiter_name: waiter.name, current_order_id: orderId, updated_at: now })
    .where('id', '=', tableId)
    .where('status', '=', 'libre')
    .returning(['id', 'number'])
    .executeTakeFirst();
}
