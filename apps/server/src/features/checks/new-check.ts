import { sql } from 'kysely';
import { checkName } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';
import { newOrderId } from '../../http/ids.ts';
import type { OrderRow } from '../../db/schema.ts';
import { newOrderRow } from '../../model/orders/new-order.ts';

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
 * named. An equal-share check owes `shareAmount` with no items of its own.
 */
export async function insertCheck(
  trx: Trx,
  source: Pick<OrderRow, 'table_id' | 'table_number' | 'table_name' | 'waiter_id' | 'waiter_name'>,
  check: { rootId: string; index: number; k: number; now: number; shareAmount?: number; peopleCount?: number },
): Promise<{ orderId: string; tabName: string }> {
  const orderId = newOrderId();
  const tabName = checkName(check.index);
  await trx
    .insertInto('orders')
    .values(
      newOrderRow({
        id: orderId,
        table: { id: source.table_id, number: source.table_number, name: source.table_name },
        waiter: { id: source.waiter_id, name: source.waiter_name },
        linked: false,
        now: check.now,
        createdAt: check.now + check.k,
        tabName,
        parentOrderId: check.rootId,
        ...(check.shareAmount !== undefined ? { shareAmount: check.shareAmount } : {}),
        ...(check.peopleCount !== undefined ? { peopleCount: check.peopleCount } : {}),
      }),
    )
    .execute();
  return { orderId, tabName };
}
