import { TriangleAlert } from 'lucide-react';
import { tableLabel } from '@comanda/domain';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { CardReviewEntry } from '../../components/card-review-entry.tsx';
import { useCardReviews } from '../../lib/card-reviews.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';

/** Configurar Terminal > Cobros por revisar: every approved charge that did not close its order. */
export function CardReviewsCard() {
  const reviews = useCardReviews();
  return (
    <Card className="overflow-hidden" data-testid="card-reviews">
      <div className="flex items-center gap-2 border-b border-slate-200 px-4 py-3">
        <TriangleAlert className="h-4 w-4 text-rose-600" aria-hidden />
        <h2 className="font-semibold">{t.cardReview.title}</h2>
      </div>
      {reviews.isPending ? (
        <Spinner />
      ) : reviews.isError ? (
        <div className="p-4">
          <ErrorState message={t.cardReview.loadError} onRetry={() => void reviews.refetch()} />
        </div>
      ) : reviews.data.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-500">{t.cardReview.empty}</p>
      ) : (
        <>
          <p className="px-4 pt-3 text-sm text-slate-600">{t.cardReview.hint}</p>
          <ul className="divide-y divide-slate-100">
            {reviews.data.map((r) => (
              <li key={r.id} className="space-y-1 px-4 py-3">
                <p className="text-sm font-medium">
                  {tableLabel(r.tableNumber)}
                  {r.tableName && ` · ${r.tableName}`}
                  {r.waiterName && ` · ${r.waiterName}`}
                  {` · ${t.cardReview.orderStatus[r.orderStatus]}`}
                </p>
                <CardReviewEntry payment={r} canSettle extra={t.cardReview.orderSum(money(r.orderSubtotal))} />
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
