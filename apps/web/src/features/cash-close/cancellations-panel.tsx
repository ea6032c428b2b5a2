import { useQuery } from '@tanstack/react-query';
import { type CancellationGroup, CancellationsReportSchema } from '@comanda/contract';
import { Card } from '../../components/ui/card.tsx';
import { get } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

const L = t.voids;
const KEY = ['cash-close', 'cancellations'] as const;

/**
 * "Cancelaciones" of the shift — voided units and cancelled orders, by reason and by
 * user. Below the SPEC report, whose figures never count them.
 */
export function CancellationsPanel({ date }: { date: string }) {
  useLiveQueries(['orders', 'tickets'], [[...KEY, date]]);
  const report = useQuery({
    queryKey: [...KEY, date],
    queryFn: () => get(CancellationsReportSchema, `/api/cash-close/cancellations?date=${encodeURIComponent(date)}`),
  });
  const data = report.data;
  const empty = data && data.voids.count === 0 && data.cancelledOrders.count === 0;
  return (
    <Card className="p-5" data-testid="cancellations-panel">
      <h2 className="text-lg font-semibold text-slate-900">{L.closeTitle}</h2>
      <p className="mb-3 text-sm text-slate-500">{L.closeHint}</p>
      {empty && <p className="text-sm text-slate-500">{L.closeEmpty}</p>}
      {data && !empty && (
        <div className="grid gap-6 lg:grid-cols-2">
          <section aria-label={L.closeVoids}>
            <h3 className="flex items-baseline justify-between font-semibold text-slate-800">
              <span>{L.closeVoids}</span>
              <span className="tabular-nums">
                {L.closeUnits(data.voids.units)} · {money(data.voids.amount)}
              </span>
            </h3>
            <Groups title={L.closeByReason} groups={data.voids.byReason} />
            <Groups title={L.closeByUser} groups={data.voids.byUser} />
          </section>
          <section aria-label={L.closeOrders}>
            <h3 className="flex items-baseline justify-between font-semibold text-slate-800">
              <span>{L.closeOrders}</span>
              <span className="tabular-nums">
                {L.closeCount(data.cancelledOrders.count)} · {money(data.cancelledOrders.amount)}
              </span>
            </h3>
            <Groups title={L.closeByReason} groups={data.cancelledOrders.byReason} />
            <Groups title={L.closeByUser} groups={data.cancelledOrders.byUser} />
          </section>
        </div>
      )}
    </Card>
  );
}

function Groups({ title, groups }: { title: string; groups: CancellationGroup[] }) {
  if (groups.length === 0) return null;
  return (
    <div className="mt-2">
      <p className="text-xs font-semibold text-slate-500 uppercase">{title}</p>
      <ul className="divide-y divide-slate-100 text-sm">
        {groups.map((g) => (
          <li key={g.key} className="flex items-baseline justify-between gap-3 py-1">
            <span className="min-w-0 break-words text-slate-800">{g.label}</span>
            <span className="shrink-0 text-slate-600 tabular-nums">
              {L.closeCount(g.count)} · <span className="font-semibold text-slate-900">{money(g.amount)}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
