import type { Role, SessionUser } from '@comanda/contract';
import type { Trx } from '../http/transaction.ts';
import { mayWorkOrder } from '../features/orders/order-access.ts';

const ORDER = 'order:';
const CARD_PAYMENT = 'card-payment:';

/** Which topics a role may hear at all; order and card-payment topics are then checked one by one. */
export function mayHear(role: Role, topic: string): boolean {
  if (topic.startsWith(ORDER) || topic.startsWith(CARD_PAYMENT)) return role === 'admin' || role === 'waiter';
  switch (topic) {
    case 'tables':
    case 'products':
    case 'config':
      return true;
    case 'orders':
      return role === 'admin' || role === 'waiter';
    case 'board':
      return role !== 'waiter';
    case 'users':
    case 'terminals':
    case 'tickets':
      return role === 'admin';
    default:
      return false;
  }
}

/**
 * Splits requested topics into granted and denied, deny by default. An admin hears every order
 * and card payment; a waiter only `order:<id>` of an order they may work on and `card-payment:<id>`
 * of such an order's attempt, by the same rule as the order routes (mayWorkOrder). An id that does
 * not exist is denied. At most two queries whatever the number of topics.
 */
export async function authorizeTopics(
  db: Trx,
  user: SessionUser,
  topics: readonly string[],
): Promise<{ granted: string[]; denied: string[] }> {
  const granted: string[] = [];
  const denied: string[] = [];
  const orderIds: string[] = [];
  const cardIds: string[] = [];
  for (const topic of topics) {
    if (!mayHear(user.role, topic)) denied.push(topic);
    else if (user.role !== 'admin' && topic.startsWith(ORDER)) orderIds.push(topic.slice(ORDER.length));
    else if (user.role !== 'admin' && topic.startsWith(CARD_PAYMENT)) cardIds.push(topic.slice(CARD_PAYMENT.length));
    else granted.push(topic);
  }
  if (orderIds.length) {
    const rows = await db.selectFrom('orders').select(['id', 'waiter_id']).where('id', 'in', orderIds).execute();
    const allowed = new Set(rows.filter((r) => mayWorkOrder(user, r)).map((r) => r.id));
    for (const id of orderIds) (allowed.has(id) ? granted : denied).push(ORDER + id);
  }
  if (cardIds.length) {
    const rows = await db
      .selectFrom('card_payments')
      .innerJoin('orders', 'orders.id', 'card_payments.order_id')
      .select(['card_payments.id as id', 'orders.waiter_id as waiter_id'])
      .where('card_payments.id', 'in', cardIds)
      .execute();
    const allowed = new Set(rows.filter((r) => mayWorkOrder(user, r)).map((r) => r.id));
    for (const id of cardIds) (allowed.has(id) ? granted : denied).push(CARD_PAYMENT + id);
  }
  return { granted, denied };
}
