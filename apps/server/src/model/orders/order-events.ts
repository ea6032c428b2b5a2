import { boardTopic, orderTopic, type BoardLiveChange } from '@comanda/contract';
import type { Station } from '@comanda/domain';
import type { Emit } from '../../http/transaction.ts';

/**
 * Which boards an item change wakes: `true` when the stations are not known (every board), or
 * the stations of the items that changed (decision 0029: a beer does not refetch the kitchen).
 */
export type BoardChange = boolean | readonly Station[];

const BOTH: readonly Station[] = ['cocina', 'barra'];

/**
 * The live events of a changed order: its own topic, the lists, and the boards when items moved.
 * `owner` is the order's waiter: of the waiters, only they hear these events (the live hub filters).
 * `board` publishes on 'board' (every station: the admin panel, the print worker) and on the
 * stations' own topics ('board:cocina', 'board:barra') the station boards listen to.
 * `lines`, given only when the write knows its whole change to the boards, rides on those events
 * (each station's topic with its own lines), so boards patch instead of reading again.
 */
export function emitOrderChanged(
  emit: Emit,
  orderId: string,
  version: number,
  opts: { owner: string | null; board?: BoardChange; tables?: boolean; lines?: BoardLiveChange },
): void {
  const owner = opts.owner;
  emit({ topic: orderTopic(orderId), type: 'order.updated', id: orderId, version, owner });
  emit({ topic: 'orders', type: 'order.updated', id: orderId, version, owner });
  if (opts.tables !== false) emit({ topic: 'tables', type: 'table.updated', id: orderId, version, owner });
  const stations = opts.board === true ? BOTH : opts.board ? [...new Set(opts.board)] : [];
  if (stations.length === 0) return;
  const change = opts.lines;
  emit({ topic: 'board', type: 'board.updated', id: orderId, version, ...(change ? { board: change } : {}) });
  for (const station of stations) {
    const own = change && { lines: change.lines.filter((l) => l.station === station), removed: change.removed };
    emit({ topic: boardTopic(station), type: 'board.updated', id: orderId, version, ...(own ? { board: own } : {}) });
  }
}
