import { Plus } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { EmptyOrder } from './empty-order.tsx';
import { OrderItemsList } from './order-items-list.tsx';
import { useOrderServiceUi } from './order-service.tsx';
import { PendingLines } from './pending-lines.tsx';
import type { OrderScreen } from './use-order-screen.tsx';

/** The item list, or 'Orden Vacía' when nothing counts (deleted items stay listed below it). */
export function OrderItemsSection({ screen, showAddButton }: { screen: OrderScreen; showAddButton: boolean }) {
  const order = screen.order;
  const service = useOrderServiceUi(screen);
  if (!order) return null;
  const list = (
    <OrderItemsList
      items={screen.isEmpty ? order.items.filter((i) => i.isDeleted) : order.items}
      readOnly={screen.readOnly}
      onAddUnit={screen.dialogs.addUnit}
      onDelete={screen.dialogs.remove}
      lineActions={service.lineActions}
    />
  );
  return (
    <div className="space-y-3">
      {screen.isEmpty && screen.queued.length === 0 && <EmptyOrder onAdd={screen.dialogs.openPicker} disabled={screen.readOnly} />}
      {(order.items.length > 0 || screen.queued.length > 0) && (
        <Card className="px-4 py-2">
          <div className="flex items-center justify-between gap-2 border-b border-slate-100 py-2">
            <h2 className="font-semibold">{t.order.itemsTitle}</h2>
            {showAddButton && !screen.isEmpty && (
              <Button variant="accent" size="sm" onClick={screen.dialogs.openPicker} disabled={screen.readOnly}>
                <Plus className="h-4 w-4" aria-hidden />
                {t.order.addItems}
              </Button>
            )}
          </div>
          {list}
          <PendingLines entries={screen.queued} />
        </Card>
      )}
      {service.bar}
      {service.element}
    </div>
  );
}
