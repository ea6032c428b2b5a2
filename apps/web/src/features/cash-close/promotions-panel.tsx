import { PromotionDiscountsResponseSchema } from '@comanda/contract';
import { useQuery } from '@tanstack/react-query';
import { Card } from '../../components/ui/card.tsx';
import { errorMessage, get } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useLiveQueries } from '../../lib/use-live.ts';
import { CASH_CLOSE_KEY } from './cash-close-api.ts';

const L = t.promotions;

/** "Descuentos por promoción" of the shift (decision 0028): what each promotion took off the paid orders. */
export function PromotionsPanel({ date }: { date: string }) {
  useLiveQueries(['tickets'], [CASH_CLOSE_KEY]);
  const query = useQuery({
    queryKey: [...CASH_CLOSE_KEY, 'promotions', date],
    queryFn: () => get(PromotionDiscountsResponseSchema, `/api/cash-close/promotions?date=${encodeURIComponent(date)}`),
  });
  const data = query.data;
  return (
    <Card className="p-4" data-testid="cash-close-promotions">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">{L.closeTitle}</h2>
        {data && (
          <p className="text-sm text-slate-600">
            {L.closeTotal}: <span className="font-semibold tabular-nums">{money(data.total)}</span>
          </p>
        )}
      </div>
      {query.isError && <p className="mt-2 text-sm text-rose-700">{errorMessage(query.error, L.closeLoadError)}</p>}
      {data && data.byPromotion.length === 0 && <p className="mt-2 text-sm text-slate-500">{L.closeEmpty}</p>}
      {data && data.byPromotion.length > 0 && (
        <table className="mt-3 w-full text-sm">
          <thead>
            <tr className="text-left text-xs text-slate-500">
              <th className="py-1 font-medium">{L.closeColumns.name}</th>
              <th className="py-1 text-right font-medium">{L.closeColumns.units}</th>
              <th className="py-1 text-right font-medium">{L.closeColumns.amount}</th>
            </tr>
          </thead>
          <tbody>
            {data.byPromotion.map((r) => (
              <tr key={r.name} className="border-t border-slate-100">
                <td className="py-1">{r.name}</td>
                <td className="py-1 text-right tabular-nums">{r.units}</td>
                <td className="py-1 text-right tabular-nums">{money(r.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
