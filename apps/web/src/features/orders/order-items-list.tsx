import type { ReactNode } from 'react';
import { Plus, Trash2 } from 'lucide-react';
import type { OrderItem } from '@comanda/contract';
import { lineTotal } from '@comanda/domain';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { ModifierLines } from '../../components/modifier-lines.tsx';
import { useBusinessDates } from '../../lib/dates.ts';
import { PromoTag } from '../../components/promo-badge.tsx';

// The kitchen board and the panel colour the flow the same way: waiting amber, ready green, done grey.
const STATUS_TONE: Record<OrderItem['status'], BadgeTone> = {
  pendiente: 'warning',
  en_preparacion: 'info',
  listo: 'success',
  entregado: 'neutral',
};

/** Every item row, deleted ones included (struck through, not counted) for the record. */
export function OrderItemsList({
  items,
  readOnly,
  onAddUnit,
  onDelete,
  lineActions,
}: {
  items: OrderItem[];
  readOnly: boolean;
  onAddUnit: (item: OrderItem) => void;
  onDelete: (item: OrderItem) => void;
  /** More buttons of a live line (deliver, void), before the usual two. */
  lineActions?: (item: OrderItem) => ReactNode;
}) {
  return (
    <ul className="divide-y divide-slate-100" aria-label={t.order.itemsTitle}>
      {items.map((item) => (
        <ItemRow key={item.id} item={item} readOnly={readOnly} onAddUnit={onAddUnit} onDelete={onDelete} lineActions={lineActions} />
      ))}
    </ul>
  );
}

function ItemRow({
  item,
  readOnly,
  onAddUnit,
  onDelete,
  lineActions,
}: {
  item: OrderItem;
  readOnly: boolean;
  onAddUnit: (item: OrderItem) => void;
  onDelete: (item: OrderItem) => void;
  lineActions?: ((item: OrderItem) => ReactNode) | undefined;
}) {
  const dates = useBusinessDates();
  const deleted = item.isDeleted;
  return (
    // Compact, so a phone shows five lines or more above the bottom bar: the name and line total
    // across the full width, then status, unit price and category beside the line's buttons. A
    // voided line stands apart by its strike-through and badge, never by fading (that fell below 4.5:1).
    <li className="py-2" data-testid="order-item" data-deleted={deleted ? 'true' : undefined}>
      <div className="flex items-baseline justify-between gap-3">
        <p className={cn('min-w-0 font-semibold break-words', deleted && 'text-slate-600 line-through')}>
          {item.quantity} × {item.productName}
        </p>
        {deleted ? (
          <span className="shrink-0 text-xs font-medium text-slate-600">{t.order.notCounted}</span>
        ) : (
          <span className="shrink-0 font-semibold tabular-nums">{money(lineTotal(item))}</span>
        )}
      </div>
      <div className="mt-1 flex items-center gap-3">
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1">
          {deleted ? (
            <Badge tone="danger">{item.voidReason ? t.voids.cancelled : t.order.deleted}</Badge>
          ) : (
            <Badge tone={STATUS_TONE[item.status]}>{t.order.statuses[item.status]}</Badge>
          )}
          <span className={cn('text-sm text-slate-600', deleted && 'line-through')}>{t.order.unitPrice(money(item.productPrice))}</span>
          {/* SPEC §2 Order detail: each line names its category. */}
          <span className="text-sm text-slate-600" data-testid="item-category">
            {item.category}
          </span>
          <PromoTag item={item} />
        </div>
        {!deleted && !readOnly && (
          <div className="flex shrink-0 gap-2">
            {lineActions?.(item)}
            <Button
              variant="outline"
              size="icon"
              aria-label={`${t.order.addUnit}: ${item.productName}`}
              title={t.order.addUnit}
              onClick={() => onAddUnit(item)}
            >
              <Plus className="h-4 w-4" aria-hidden />
            </Button>
            <Button
              variant="outline"
              size="icon"
              className="text-rose-700 hover:bg-rose-50"
              aria-label={`${t.order.deleteItem}: ${item.productName}`}
              title={t.order.deleteItem}
              onClick={() => onDelete(item)}
            >
              <Trash2 className="h-4 w-4" aria-hidden />
            </Button>
          </div>
        )}
      </div>
      <ModifierLines modifiers={item.modifiers} struck={deleted} />
      {item.notes && (
        <p className={cn('mt-1.5 rounded bg-amber-50 px-2 py-1 text-sm break-words text-amber-900', deleted && 'line-through')}>
          {item.notes}
        </p>
      )}
      {deleted && item.deletedAt !== null && (
        <p className="mt-1 text-xs text-rose-700">{t.order.deletedBy(item.deletedByName ?? '—', dates.dateTime(item.deletedAt))}</p>
      )}
      {deleted && item.voidReason && (
        <p className="text-xs text-rose-700">{t.voids.voidedReason(item.voidReason, item.voidNote ?? null)}</p>
      )}
    </li>
  );
}
