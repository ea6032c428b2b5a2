import type { ShiftSummary } from '@comanda/contract';
import { t } from '../../lib/i18n/es-MX.ts';

/** Under the method totals: the shift's folio range and how many orders were paid in parts. */
export function ShiftFolios({ summary }: { summary: ShiftSummary }) {
  if (!summary.folios && summary.mixedOrders === 0) return null;
  return (
    <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 border-t border-slate-100 pt-3 text-sm text-slate-600" data-testid="shift-folios">
      {summary.folios && <span>{t.payments.folioRange(summary.folios.first, summary.folios.last)}</span>}
      {summary.mixedOrders > 0 && <span>{t.payments.mixedOrders(summary.mixedOrders)}</span>}
    </p>
  );
}
