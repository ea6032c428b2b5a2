import { History } from 'lucide-react';
import { t } from '../../lib/i18n/es-MX.ts';

/** One move on the board that can still be sent back: what it said and how to revert it. */
export interface RecentMove {
  id: string;
  label: string;
  at: number;
  revert: () => Promise<void>;
}

/** How many moves, and for how long, the board keeps to recall after the 10 s toast is gone. */
export const RECENT_LIMIT = 5;
export const RECENT_MS = 10 * 60_000;

/**
 * "Recientes": the board's last moves (newest first), each with Regresar, for a mistaken Listo or
 * Entregado noticed after its undo toast has gone. Closed by default so it takes one line.
 */
export function RecentMoves({ moves, onRevert }: { moves: readonly RecentMove[]; onRevert: (move: RecentMove) => void }) {
  if (moves.length === 0) return null;
  return (
    <details data-testid="board-recent" className="rounded-xl border border-slate-200 bg-white px-3 py-1 shadow-sm">
      <summary className="flex min-h-11 cursor-pointer items-center gap-2 text-base font-bold text-slate-800">
        <History className="h-5 w-5" aria-hidden />
        {t.boardRecent.title(moves.length)}
      </summary>
      <ul className="divide-y divide-slate-100 pb-1">
        {moves.map((move) => (
          <li key={move.id} data-testid="board-recent-move" className="flex items-center justify-between gap-3 py-1.5">
            <span className="min-w-0 text-sm font-semibold text-slate-800">{move.label}</span>
            <button
              type="button"
              onClick={() => onRevert(move)}
              className="h-11 shrink-0 rounded-lg border border-slate-300 bg-white px-3 text-sm font-bold text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
            >
              {t.boardRecent.revert}
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
