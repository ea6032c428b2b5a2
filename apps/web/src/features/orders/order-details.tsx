import type { Order } from '@comanda/contract';
import { t } from '../../lib/i18n/es-MX.ts';
import { BlurSaveField } from './blur-save-field.tsx';
import { GuestStepper, OrderFacts, StatusCounters } from './order-facts.tsx';
import type { OrderScreen } from './use-order-screen.tsx';

/** The editable table name, waiter/minutes/counts, guest stepper and status counters: the same on both order screens. */
export function OrderDetails({ order, screen }: { order: Order; screen: OrderScreen }) {
  return (
    <>
      <BlurSaveField
        label={t.order.tableName}
        placeholder={t.order.tableNamePlaceholder}
        value={order.tableName}
        maxLength={80}
        disabled={screen.readOnly}
        onSave={screen.setTableName}
      />
      <OrderFacts order={order} now={screen.now} />
      <GuestStepper value={order.peopleCount} disabled={screen.readOnly} onChange={screen.setGuests} />
      <StatusCounters order={order} />
    </>
  );
}
