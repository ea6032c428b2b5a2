import { Ban } from 'lucide-react';
import { t } from '../../lib/i18n/es-MX.ts';

/** A voided line on a board: CANCELADO in large type (not struck through) and why, so the cook stops making it. */
export function CancelledMark({ reason }: { reason: string | null }) {
  return (
    <p className="flex flex-wrap items-center gap-x-1.5 text-sm font-black tracking-wide text-rose-700">
      <Ban className="h-4 w-4 shrink-0" aria-hidden />
      {t.voids.boardCancelled}
      {reason && <span className="font-semibold tracking-normal text-rose-700">· {reason}</span>}
    </p>
  );
}
