import { TriangleAlert } from 'lucide-react';
import { CardReviewEntry } from '../../components/card-review-entry.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { useSession } from '../../lib/session.ts';
import { useOrderCardReviews } from './card-payment-api.ts';

/**
 * The order's approved card charges that did not close it, shown even after a reload: the
 * money is already taken, so no one charges again until an admin settles it.
 */
export function CardReviewBanner({ orderId }: { orderId: string }) {
  const reviews = useOrderCardReviews(orderId);
  const session = useSession();
  if (!reviews.data?.length) return null;
  return (
    <section
      role="alert"
      className="space-y-3 rounded-lg border border-rose-300 bg-rose-50 p-3 text-sm text-rose-950"
      data-testid="card-review-banner"
    >
      <div className="flex items-start gap-2">
        <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <div>
          <p className="font-semibold">{t.cardReview.orderTitle}</p>
          <p>{t.cardReview.orderHint}</p>
        </div>
      </div>
      {reviews.data.map((payment) => (
        <div key={payment.id} className="rounded-md border border-rose-200 bg-white p-3">
          <CardReviewEntry payment={payment} canSettle={session.data?.role === 'admin'} />
        </div>
      ))}
    </section>
  );
}
