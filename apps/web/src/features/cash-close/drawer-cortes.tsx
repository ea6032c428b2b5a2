import { useQuery } from '@tanstack/react-query';
import { DrawerSessionsResponseSchema } from '@comanda/contract';
import { overShortLabel } from '@comanda/domain';
import { Card } from '../../components/ui/card.tsx';
import { get } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useLiveQueries } from '../../lib/use-live.ts';
import { useBusinessDates } from '../../lib/dates.ts';

const L = t.drawer;
const KEY = ['cash-close', 'drawer-sessions'] as const;

/**
 * The drawer sessions (turnos de caja) that closed on this date, with their corte Z.
 * Added below the SPEC report, which keeps its own figures and 17:00–03:00 window untouched.
 */
export function DrawerCortes({ date }: { date: string }) {
  const dates = useBusinessDates();
  useLiveQueries(['drawer'], [[...KEY, date]]);
  const cortes = useQuery({
    queryKey: [...KEY, date],
    queryFn: () => get(DrawerSessionsResponseSchema, `/api/drawer/sessions?date=${encodeURIComponent(date)}`),
  });
  const list = cortes.data?.cortes ?? [];
  return (
    <Card className="p-5" data-testid="drawer-cortes">
      <h2 className="text-lg font-semibold text-slate-900">{L.dayTitle}</h2>
      <p className="mb-3 text-sm text-slate-500">{L.dayHint}</p>
      {cortes.isSuccess && list.length === 0 && <p className="text-sm text-slate-500">{L.dayEmpty}</p>}
      {list.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead className="text-left text-xs text-slate-500 uppercase">
              <tr>
                <th className="py-1 pr-3">{L.openedAt}</th>
                <th className="py-1 pr-3">{L.closedAt}</th>
                <th className="py-1 pr-3 text-right">{L.figures.float}</th>
                <th className="py-1 pr-3 text-right">{L.figures.expected}</th>
                <th className="py-1 pr-3 text-right">{L.figures.counted}</th>
                <th className="py-1 pr-3 text-right">{L.figures.difference}</th>
                <th className="py-1 pr-3">{L.cashier}</th>
                <th className="py-1">{L.commentHeader}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 tabular-nums">
              {list.map((c) => (
                <tr key={c.session.id}>
                  <td className="py-2 pr-3">{dates.dateTime(c.session.openedAt)}</td>
                  <td className="py-2 pr-3">{c.closedAt ? dates.dateTime(c.closedAt) : ''}</td>
                  <td className="py-2 pr-3 text-right">{money(c.figures.float)}</td>
                  <td className="py-2 pr-3 text-right">{money(c.figures.expected)}</td>
                  <td className="py-2 pr-3 text-right">{money(c.counted ?? 0)}</td>
                  <td className="py-2 pr-3 text-right">
                    {L.overShort[overShortLabel(c.difference ?? 0)]} {money(Math.abs(c.difference ?? 0))}
                  </td>
                  <td className="py-2 pr-3">{c.cashierName}</td>
                  <td className="py-2">{c.comment}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
