import { Minus, Plus, Users } from 'lucide-react';
import type { Order } from '@comanda/contract';
import { distinctProducts, elapsedMinutes, itemQuantity, quantityByStatus } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { t } from '../../lib/i18n/es-MX.ts';

/** Waiter and minutes open, then item quantity and the number of distinct products. */
export function OrderFacts({ order, now, compact = false }: { order: Order; now: number; compact?: boolean }) {
  const minutes = elapsedMinutes(new Date(order.createdAt), new Date(now));
  if (compact)
    return (
      <dl className="flex flex-wrap items-baseline gap-x-1.5 text-sm text-slate-700">
        <dt className="sr-only">{t.order.waiter}</dt>
        <dd className="font-semibold break-words text-slate-900" data-testid="order-waiter">
          {order.waiterName ?? t.tables.unassigned}
        </dd>
        <dd aria-hidden>·</dd>
        <dd data-testid="order-minutes">{t.order.minutesOpen(minutes)}</dd>
        <dd aria-hidden>·</dd>
        <dt className="sr-only">
          {t.order.itemsTotal} / {t.order.itemTypes}
        </dt>
        <dd data-testid="order-counts">
          <span className="whitespace-nowrap">{t.tables.items(itemQuantity(order.items))}</span> ·{' '}
          <span className="whitespace-nowrap">{t.order.types(distinctProducts(order.items))}</span>
        </dd>
      </dl>
    );
  return (
    <dl className="grid grid-cols-2 gap-3 text-sm">
      <div className="rounded-lg border border-slate-200 bg-white p-3">
        <dt className="text-slate-500">{t.order.waiter}</dt>
        <dd className="font-semibold break-words" data-testid="order-waiter">
          {order.waiterName ?? t.tables.unassigned}
        </dd>
        <dd className="text-slate-500" data-testid="order-minutes">
          {t.order.minutesOpen(minutes)}
        </dd>
      </div>
      <div className="rounded-lg border border-slate-200 bg-white p-3">
        <dt className="text-slate-500">
          {t.order.itemsTotal} / {t.order.itemTypes}
        </dt>
        <dd className="font-semibold" data-testid="order-counts">
          <span className="whitespace-nowrap">{t.tables.items(itemQuantity(order.items))}</span> ·{' '}
          <span className="whitespace-nowrap">{t.order.types(distinctProducts(order.items))}</span>
        </dd>
      </div>
    </dl>
  );
}

/** − n + : minimum 1, each click saved at once. */
export function GuestStepper({
  value,
  disabled,
  onChange,
  compact = false,
}: {
  value: number;
  disabled?: boolean;
  onChange: (n: number) => void;
  compact?: boolean;
}) {
  return (
    <div
      className={cn('flex items-center justify-between', compact ? 'shrink-0 gap-2' : 'rounded-lg border border-slate-200 bg-white p-3')}
    >
      <span className={cn('flex items-center gap-2 text-sm font-medium text-slate-700', compact && 'sr-only')}>
        <Users className="h-4 w-4" aria-hidden />
        {t.order.guests}
      </span>
      {compact && <Users className="h-4 w-4 text-slate-600" aria-hidden />}
      <div className={cn('flex items-center', compact ? 'gap-2' : 'gap-3')}>
        <Button
          variant="outline"
          size="icon"
          aria-label={t.order.guestsMinus}
          disabled={disabled || value <= 1}
          onClick={() => onChange(value - 1)}
        >
          <Minus className="h-4 w-4" aria-hidden />
        </Button>
        <span
          className={cn('text-center text-lg font-bold tabular-nums', compact ? 'w-6' : 'w-8')}
          data-testid="guest-count"
          aria-live="polite"
        >
          {value}
        </span>
        <Button
          variant="outline"
          size="icon"
          aria-label={t.order.guestsPlus}
          disabled={disabled || value >= 999}
          onClick={() => onChange(value + 1)}
        >
          <Plus className="h-4 w-4" aria-hidden />
        </Button>
      </div>
    </div>
  );
}

const COUNTERS = [
  { status: 'pendiente', className: 'bg-amber-50 text-amber-800' },
  { status: 'en_preparacion', className: 'bg-sky-50 text-sky-800' },
  { status: 'listo', className: 'bg-emerald-50 text-emerald-800' },
  { status: 'entregado', className: 'bg-slate-100 text-slate-700' },
] as const;

/** Quantities by status, deleted items left out. */
export function StatusCounters({ order, compact = false }: { order: Order; compact?: boolean }) {
  const counts = quantityByStatus(order.items);
  return (
    <div role="group" className={compact ? 'flex flex-wrap gap-1.5' : 'grid grid-cols-4 gap-2'} aria-label={t.order.countsTitle}>
      {COUNTERS.map(({ status, className }) =>
        compact ? (
          <div key={status} className={cn('flex items-baseline gap-1 rounded-md px-2 py-1', className)} data-testid={`count-${status}`}>
            <span className="text-base font-bold tabular-nums">{counts[status]}</span>
            <span className="text-xs font-medium">{t.order.statusShort[status]}</span>
          </div>
        ) : (
          <div key={status} className={cn('rounded-lg p-2 text-center', className)} data-testid={`count-${status}`}>
            <div className="text-xl font-bold tabular-nums">{counts[status]}</div>
            <div className="text-xs font-medium">{t.order.statusShort[status]}</div>
          </div>
        ),
      )}
    </div>
  );
}
