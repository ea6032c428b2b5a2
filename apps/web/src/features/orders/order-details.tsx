import type { Order } from '@comanda/contract';
import { t } from '../../lib/i18n/es-MX.ts';
import { BlurSaveField } from './blur-save-field.tsx';
import { GuestStepper, OrderFacts, StatusCounters } from './order-facts.tsx';
import type { OrderScreen } from './use-order-screen.tsx';

/** The editable table name, waiter/minutes/counts, guest stepper and status counters: the same on both order screens. */
export function OrderDetails({ order, screen, compact = false }: { order: Order; screen: OrderScreen; compact?: boolean }) {
  if (compact)
    // The phone: name and guests on one line, waiter · minutes · counts and the status counters
    // on a second, so the items above keep the screen.
    return (
      <section className="space-y-2 rounded-xl border border-slate-200 bg-white p-3" aria-label={t.order.detailsTitle}>
        <div className="flex items-end gap-3">
          <div className="min-w-0 flex-1">
            <TableNameField order={order} screen={screen} />
          </div>
          <GuestStepper value={order.peopleCount} disabled={screen.readOnly} onChange={screen.setGuests} compact />
        </div>
        <OrderFacts order={order} now={screen.now} compact />
        <StatusCounters order={order} compact />
      </section>
    );
  return (
    <>
      <TableNameField order={order} screen={screen} />
      <OrderFacts order={order} now={screen.now} />
      <GuestStepper value={order.peopleCount} disabled={screen.readOnly} onChange={screen.setGuests} />
      <StatusCounters order={order} />
    </>
  );
}

/** The table's name, saved when the field loses focus (read-only once the order is no longer editable). */
function TableNameField({ order, screen }: { order: Order; screen: OrderScreen }) {
  return (
    <BlurSaveField
      label={t.order.tableName}
      placeholder={t.order.tableNamePlaceholder}
      value={order.tableName}
      maxLength={80}
      disabled={screen.readOnly}
      onSave={screen.setTableName}
    />
  );
}
