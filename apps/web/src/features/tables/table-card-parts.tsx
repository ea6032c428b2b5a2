import type { ReactNode } from 'react';
import { Clock, ShoppingBag, TriangleAlert, UtensilsCrossed } from 'lucide-react';
import type { TableOrderSummary } from '@comanda/contract';
import { elapsedMinutes } from '@comanda/domain';
import { Badge } from '../../components/ui/badge.tsx';
import { t } from '../../lib/i18n/es-MX.ts';

function Stat({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <span className="flex min-w-0 items-center gap-1.5 text-sm text-slate-600">
      {icon}
      <span className="truncate">{children}</span>
    </span>
  );
}

/** Item count, minutes since the order opened and the last item, as every occupied card shows them. */
export function OrderStats({ order, now }: { order: TableOrderSummary; now: number }) {
  const minutes = elapsedMinutes(new Date(order.createdAt), new Date(now));
  return (
    <div className="flex flex-col gap-1">
      {order.cardReviews > 0 && (
        // An approved card charge that did not close this order: money already taken, to settle before charging again.
        <Badge tone="danger" adds="w-fit gap-1" data-testid="card-review-badge">
          <TriangleAlert className="h-3.5 w-3.5" aria-hidden />
          {t.cardReview.badge}
        </Badge>
      )}
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        <Stat icon={<ShoppingBag className="h-4 w-4 shrink-0" aria-hidden />}>
          <span data-testid="item-count">{t.tables.items(order.itemCount)}</span>
        </Stat>
        <Stat icon={<Clock className="h-4 w-4 shrink-0" aria-hidden />}>
          <span data-testid="minutes">{t.tables.minutes(minutes)}</span>
        </Stat>
      </div>
      <Stat icon={<UtensilsCrossed className="h-4 w-4 shrink-0" aria-hidden />}>
        <span data-testid="last-item">{order.lastItemName ? t.tables.lastItem(order.lastItemName) : t.tables.noItemsYet}</span>
      </Stat>
    </div>
  );
}
