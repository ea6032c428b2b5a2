import type { Order, SessionUser, Table } from '@comanda/contract';
import { mayWorkOrder } from '@comanda/domain';

/**
 * Where an order can go, mirroring the server's rules: a transfer needs a free table; a merge an
 * occupied table whose order this user may work (a waiter's own, any for an admin); moving units
 * either. The order's own table is never offered.
 */
export function serviceTargets(
  tables: readonly Table[],
  order: Pick<Order, 'tableId'>,
  me: Pick<SessionUser, 'id' | 'role'> | null | undefined,
) {
  const others = tables.filter((tb) => tb.id !== order.tableId);
  const free = others.filter((tb) => tb.status === 'libre');
  const workable = others.filter(
    (tb) => tb.status === 'ocupada' && tb.currentOrderId !== null && me != null && mayWorkOrder(me, tb.waiterId),
  );
  const either = [...free, ...workable].sort((a, b) => a.number - b.number);
  return { free, workable, either };
}

/** The lines of a move request: only lines with at least one unit chosen. */
export function chosenLines(counts: Record<string, number>): { itemId: string; quantity: number }[] {
  return Object.entries(counts)
    .filter(([, quantity]) => quantity > 0)
    .map(([itemId, quantity]) => ({ itemId, quantity }));
}
