/**
 * Who prepared a line, read from its status moves in the audit trail: the actor of the last move
 * to 'listo' (a line sent back and marked listo again belongs to whoever marked it last). A line
 * never marked listo has no preparer on record (null).
 */
export interface StatusMove {
  /** The audit entry's sequence: later moves have larger ones. */
  seq: number;
  actorId: string | null;
  actorName: string | null;
  /** The status the move went to (the entry's data.to). */
  to: string;
}

export interface Preparer {
  id: string | null;
  name: string;
}

export function preparerOf(moves: readonly StatusMove[]): Preparer | null {
  let last: StatusMove | null = null;
  for (const m of moves) if (m.to === 'listo' && (!last || m.seq > last.seq)) last = m;
  if (!last) return null;
  return { id: last.actorId, name: last.actorName ?? '' };
}

/** The status a move went to, from the audit entry's data JSON ('' when absent or unreadable). */
export function statusMoveTarget(data: string | null): string {
  if (!data) return '';
  try {
    const parsed: unknown = JSON.parse(data);
    const to = parsed && typeof parsed === 'object' ? (parsed as { to?: unknown }).to : undefined;
    return typeof to === 'string' ? to : '';
  } catch {
    return '';
  }
}
