import { useNavigate, useParams } from 'react-router';
import { ArrowLeft, CreditCard, Plus } from 'lucide-react';
import { shortOrderId, tableLabel } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { OrderDetails } from './order-details.tsx';
import { OrderItemsSection } from './order-items-section.tsx';
import { OrderStates } from './order-states.tsx';
import { PaymentGateNote } from './payment-gate-note.tsx';
import { useOrderScreen, type OrderScreen } from './use-order-screen.tsx';
import { ReprintButton } from './reprint-button.tsx';
import { TableActions } from './table-actions.tsx';
import { OrderAdjustmentsPanel } from './order-adjustments-panel.tsx';
import { OrderChecks } from './order-checks.tsx';
import { useBottomBar } from '../../lib/bottom-bar.ts';

/** Mobile layout: header sticks under the app bar, Agregar and Cobrar stay at the thumb. */
export function WaiterOrderPage() {
  const { tableId = '' } = useParams();
  const screen = useOrderScreen(tableId);
  const navigate = useNavigate();
  const order = screen.order;
  if (!order) return <OrderStates screen={screen} backTo="/waiter/home" />;

  return (
    <div className="pb-36">
      <div className="sticky top-14 z-10 flex items-center gap-3 border-b border-slate-200 bg-white px-3 py-2 shadow-sm">
        <Button variant="outline" size="icon" aria-label={t.order.backToTables} onClick={() => navigate('/waiter/home')}>
          <ArrowLeft className="h-5 w-5" aria-hidden />
        </Button>
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-lg leading-tight font-bold">{tableLabel(order.tableNumber)}</h1>
          <p className="font-mono text-xs text-slate-500" data-testid="order-id">
            {t.order.orderNumber(shortOrderId(order.id))}
          </p>
        </div>
        <div className="text-right">
          <p className="text-xs text-slate-500">{t.order.total}</p>
          {/* Offline, the lines waiting to be sent count too, and the header says so. */}
          <p className="text-xl font-bold tabular-nums" data-testid="order-total">
            {money(screen.total + screen.pendingTotal)}
          </p>
          {screen.pendingTotal > 0 && (
            <p className="ml-auto max-w-32 text-xs leading-tight font-medium text-amber-800" data-testid="order-total-pending">
              {t.offline.pendingInTotal(money(screen.pendingTotal))}
            </p>
          )}
        </div>
      </div>

      {/* The items first; the table's details, compact, below them. */}
      <div className="space-y-3 p-3">
        <OrderItemsSection screen={screen} showAddButton={false} />
        <OrderChecks order={order} tableId={tableId} area="/waiter" />
        <OrderDetails order={order} screen={screen} compact />
        <OrderAdjustmentsPanel order={order} tableId={tableId} />
        {order.items.length > 0 && <ReprintButton orderId={order.id} className="w-full" />}
        <TableActions order={order} base="/waiter" className="w-full" />
      </div>

      <ActionBar screen={screen} onCharge={() => navigate(`/waiter/checkout/${order.id}`, { state: { orderId: order.id, tableId } })} />
      {screen.dialogs.element}
    </div>
  );
}

/** Agregar and Cobrar at the thumb, with why Cobrar is still closed. */
function ActionBar({ screen, onCharge }: { screen: OrderScreen; onCharge: () => void }) {
  const ref = useBottomBar<HTMLDivElement>();
  return (
    <div
      ref={ref}
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white/95 px-4 pt-2 pb-[max(0.75rem,env(safe-area-inset-bottom))] backdrop-blur print:hidden"
    >
      <div className="mx-auto max-w-3xl space-y-2">
        <PaymentGateNote gate={screen.gate} button="charge" />
        <div className="grid grid-cols-2 gap-3">
          <Button variant="accent" size="lg" onClick={screen.dialogs.openPicker} disabled={screen.readOnly}>
            <Plus className="h-5 w-5" aria-hidden />
            {t.order.add}
          </Button>
          <Button
            variant="success"
            size="lg"
            disabled={!screen.gate.ok}
            title={screen.gate.ok ? undefined : t.order.cannotCharge}
            onClick={onCharge}
          >
            <CreditCard className="h-5 w-5" aria-hidden />
            {t.order.charge}
          </Button>
        </div>
      </div>
    </div>
  );
}
