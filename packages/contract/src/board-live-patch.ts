import type { BoardItem, BoardStationFilter } from './board.ts';
import type { BoardLiveChange } from './live-events.ts';

/** Oldest first, as GET /api/board answers (created_at, then id). */
function before(a: BoardItem, b: BoardItem): boolean {
  return a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);
}

/**
 * A board's lines after a board event, patched from the event alone, or null when they must be
 * read again (no list yet, or an event that does not carry its change). A line the list holds in a
 * newer state than the event's (an event from the other server process arriving late) is kept;
 * a line of another station than the board's is left out; new lines go in by creation time.
 * The web's boards, the night benchmark's boards and the server's tests all use this one rule.
 */
export function patchBoardFromEvent(
  cached: readonly BoardItem[] | undefined,
  change: BoardLiveChange | undefined,
  station: BoardStationFilter,
): BoardItem[] | null {
  if (!cached || !change) return null;
  let list: BoardItem[] = change.removed.length ? cached.filter((i) => !change.removed.includes(i.id)) : [...cached];
  let changed = list.length !== cached.length;
  for (const line of change.lines) {
    if (station !== 'all' && line.station !== station) continue;
    const at = list.findIndex((i) => i.id === line.id);
    if (at >= 0) {
      if (list[at]!.updatedAt > line.updatedAt) continue;
      list = list.map((i, k) => (k === at ? line : i));
    } else {
      const next = list.findIndex((i) => before(line, i));
      list.splice(next === -1 ? list.length : next, 0, line);
    }
    changed = true;
  }
  return changed ? list : (cached as BoardItem[]);
}
