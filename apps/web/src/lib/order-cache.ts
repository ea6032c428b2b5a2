import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Order, OrderWriteResponse } from '@comanda/contract';
import { applyOrderChange, ORDER_CHANGE_PREFER } from '@comanda/contract';

/** Asks an item write for the light answer (what changed, not the whole order: decision 0029). */
export const MINIMAL_ANSWER = { prefer: ORDER_CHANGE_PREFER } as const;

/**
 * The order a write's answer leaves in the cache, or undefined when the cached copy cannot be
 * patched exactly (none cached, another order, or a version missed in between: refetch instead).
 * A copy already as new as the answer is kept: a slow answer never overwrites a fresher read.
 */
export function orderAfterWrite(current: Order | undefined, answer: OrderWriteResponse): Order | undefined {
  if ('order' in answer)
    return current && current.id === answer.order.id && current.version > answer.order.version ? current : answer.order;
  const next = answer.change.order.version;
  if (!current || current.id !== answer.change.order.id) return undefined;
  if (current.version >= next) return current;
  // The write bumps the version by one: a cached copy one behind is exactly the order before it.
  if (current.version !== next - 1) return undefined;
  return applyOrderChange(current, answer.change) ?? undefined;
}

/**
 * Stores a write's answer in the cached order under key; when the copy cannot be patched, marks
 * it stale so it is read again. Returns true when the cache holds the answer's version.
 */
export function storeOrderAnswer(qc: QueryClient, key: QueryKey, answer: OrderWriteResponse): boolean {
  const next = orderAfterWrite(qc.getQueryData<Order>(key), answer);
  if (next) {
    qc.setQueryData<Order>(key, next);
    return true;
  }
  void qc.invalidateQueries({ queryKey: key, exact: true });
  return false;
}

const isChange = (body: unknown): body is Extract<OrderWriteResponse, { change: unknown }> =>
  typeof body === 'object' && body !== null && 'change' in body;

/**
 * Patches every cached order under a key prefix (a table's orders) with a sent outbox entry's
 * light answer. True only when each cached copy of that order now holds the answer's version.
 */
export function patchCachedOrders(qc: QueryClient, prefix: QueryKey, body: unknown): boolean {
  if (!isChange(body)) return false;
  let all = true;
  let any = false;
  for (const [key, data] of qc.getQueriesData<Order>({ queryKey: prefix })) {
    if (!data || data.id !== body.change.order.id) continue;
    any = true;
    if (!storeOrderAnswer(qc, key, body)) all = false;
  }
  return any && all;
}
