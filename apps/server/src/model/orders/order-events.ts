import type { Emit } from '../../http/transaction.ts';

/**
 * The live events of a changed order: its own topic, the lists, and the boards when items moved.
 * `owner` is the order's waiter: of the waiters, only they hear these events (the live hub filters).
 */
export function emitOrderChanged(
  emit: Emit,
  orderId: string,
  version: number,
  opts: { owner: string | null; board?: boolean; tables?: boolean },
): void {
  const owner = opts.owner;
  emit({ topic: `order:${orderId}`, type: 'order.updated', id: orderId, version, owner });
  emit({ topic: 'orders', type: 'order.updated', id: orderId, version, owner });
  if (opts.tables !== false) emit({ topic: 'tables', type: 'table.updated', id: orderId, version, owner });
  if (opts.board) emit({ topic: 'board', type: 'board.updated', id: orderId, version });
}
