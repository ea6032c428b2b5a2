import { sql } from 'kysely';
import { checkName } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';
import { newOrderId } from '../../http/ids.ts';
import type { OrderRow } from '../../db/schema.ts';

/**
 * Where the names of a table's new checks go on from: A is the order itself, then one letter per
 * check the order already had (`parent_order_id` = the first order of the table).
 */
export async function nextCheckIndex(trx: Trx, rootId: string): Promise<number> {
  const siblings = await trx
    .selectFrom('orders')
    .select(sql<number>`COUNT(*)`.as('n'))
    .where('parent_order_id', '=', rootId)
    .executeTakeFirstOrThrow();
  return Number(siblings.n) + 1;
}

/**
 * A new open check of the same table and waiter, named by its index ("Cuenta B"…). Checks made
 * together are one millisecond apart (`created_at` = now + k), so they list in the order they were
 * named. An equal-share check owes `shareAmount` with no items of its own (decision 0022).
 */
export async function insertCheck(
  trx: Trx,
  source: Pick<OrderRow, 'table_id' | 'table_number' | 'table_name' | 'waiter_id' | 'waiter_name'>,
  check: { rootId: string; index: number; k: number; now: number; shareAmount?: number },
): Promise<{ orderId: string; tabName: string }> {
  const orderId = newOrderId();
  const tabName = checkName(check.index);
  const share = check.shareAmount ?? 0;
  await trx
    .insertInto('orders')
    .values({
      id: orderId,
      table_id: source.table_id,
      table_number: source.table_number,
      table_name: source.table_name,
      active_table_id: null,
      waiter_id: source.waiter_id,
      waiter_name: source.waiter_name,
      status: 'activo',
      payment_method: null,
      people_count: 1,
      admin_comments: null,
      subtotal: 0,
      tip: 0,
      total: share,
      ...(share > 0 ? { share_amount: share } : {}),
      version: 1,
      created_at: check.now + check.k,
      updated_at: check.now,
      completed_at: null,
      parent_order_id: check.rootId,
      tab_name: tabName,
    })
    .execute();
  return { orderId, tabName };
}
