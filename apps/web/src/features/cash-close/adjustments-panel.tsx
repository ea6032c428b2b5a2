import { useQuery } from '@tanstack/react-query';
import { type AdjustmentTotalsRow, AdjustmentsSummarySchema } from '@comanda/contract';
import { Card } from '../../components/ui/card.tsx';
import { errorMessage, get } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useLiveQueries } from '../../lib/use-live.ts';
import { CASH_CLOSE_KEY } from './cash-close-api.ts';

const L = t.adjustments;

/** "Descuentos y cortesías" of the shift: totals, then by reason and by the user who applied them. */
export function AdjustmentsPanel({ date }: { date: string }) {
  useLiveQueries(['tickets'], [CASH_CLOSE_KEY]);
  const query = useQuery({
    queryKey: [...CASH_CLOSE_KEY, 'adjustments', date],
    queryFn: () => get(AdjustmentsSummarySchema, `/api/cash-close/adjustments?date=${encodeURIComponent(date)}`),
  });
  const data = query.data;
  return (
    <Card className="p-4" data-testid="cash-close-adjustments">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">{L.title}</h2>
        {data && (
          <p className="text-sm text-slate-600">
            {L.discounts}: <span className="font-semibold tabular-nums">{money(data.totalDiscounts)}</span> · {L.comps}:{' '}
            <span className="font-semibold tabular-nums">{money(data.totalComps)}</span>
          </p>
        )}
      </div>
      {query.isError && <p className="mt-2 text-sm text-rose-700">{errorMessage(query.error, L.loadError)}</p>}
      {data && data.byReason.length === 0 && <p className="mt-2 text-sm text-slate-500">{L.closeEmpty}</p>}
      {data && data.byReason.length > 0 && (
        <div className="mt-3 grid gap-4 md:grid-cols-2">
          <Totals title={L.byReason} rows={data.byReason} />
          <Totals title={L.byUser} rows={data.byUser} />
        </div>
      )}
    </Card>
  );
}

function Totals({ title, rows }: { title: string; rows: AdjustmentTotalsRow[] }) {
  return (
    <table className="w-full text-sm">
      <caption className="mb-1 text-left font-medium text-slate-700">{title}</caption>
      <thead>
        <tr className="text-left text-xs text-slate-500">
          <th className="py-1 font-medium">{L.column.key}</th>
          <th className="py-1 text-right font-medium">{L.column.discounts}</th>
          <th className="py-1 text-right font-medium">{L.column.comps}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className="border-t border-slate-100">
            <td className="py-1">{r.key}</td>
            <td className="py-1 text-right tabular-nums">
              {money(r.discountAmount)} <span className="text-xs text-slate-500">({r.discountCount})</span>
            </td>
            <td className="py-1 text-right tabular-nums">
              {money(r.compAmount)} <span className="text-xs text-slate-500">({r.compCount})</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
