import type { Role, SessionUser } from '@comanda/contract';
import type { Trx } from '../db/trx.ts';
import { mayWorkEveryOrder, mayWorkOrder, takesOrders } from '@comanda/domain';

const ORDER = 'order:';
const CARD_PAYMENT = 'card-payment:';

/** Which topics a role may hear at all; order and card-payment topics are then checked one by one. */
export function mayHear(role: Role, topic: string): boolean {
  if (topic.startsWith(ORDER) || topic.startsWith(CARD_PAYMENT)) return takesOrders(role);
  switch (topic) {
    case 'tables':
    case 'products':
    case 'config':
      return true;
    case 'orders':
      return takesOrders(role);
    case 'board':
    case 'board:cocina':
    case 'board:barra':
    case 'printers':
      return role !== 'waiter';
    case 'inventory':
      return role === 'admin' || role === 'barra';
    case 'users':
    case 'terminals':
    case 'tickets':
    case 'invoicing':
    case 'drawer':
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
  const checked = !mayWorkEveryOrder(user.role);
  const idsOf = (prefix: string) =>
    checked ? topics.filter((t) => t.startsWith(prefix) && mayHear(user.role, t)).map((t) => t.slice(prefix.length)) : [];
  const orderIds = idsOf(ORDER);
  const cardIds = idsOf(CARD_PAYMENT);
  const allowed = new Set<string>();
  if (orderIds.length) {
    const rows = await db.selectFrom('orders').select(['id', 'waiter_id']).where('id', 'in', orderIds).execute();
    for (const r of rows) if (mayWorkOrder(user, r.waiter_id)) allowed.add(ORDER + r.id);
  }
  if (cardIds.length) {
    const rows = await db
      .selectFrom('card_payments')
      .innerJoin('orders', 'orders.id', 'card_payments.order_id')
      .select(['card_payments.id as id', 'orders.waiter_id as waiter_id'])
      .where('card_payments.id', 'in', cardIds)
      .execute();
    for (const r of rows) if (mayWorkOrder(user, r.waiter_id)) allowed.add(CARD_PAYMENT + r.id);
  }
  const granted: string[] = [];
  const denied: string[] = [];
  for (const topic of topics) {
    const perItem = checked && (topic.startsWith(ORDER) || topic.startsWith(CARD_PAYMENT));
    const ok = mayHear(user.role, topic) && (!perItem || allowed.has(topic));
    (ok ? granted : denied).push(topic);
  }
  return { granted, denied };
}
