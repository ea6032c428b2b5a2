import { Link, useNavigate, useParams } from 'react-router';
import { ArrowLeft, CreditCard, Plus, XCircle } from 'lucide-react';
import { shortOrderId, tableLabel } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { BlurSaveField } from './blur-save-field.tsx';
import { OrderDetails } from './order-details.tsx';
import { OrderItemsSection } from './order-items-section.tsx';
import { OrderStates } from './order-states.tsx';
import { PaymentGateNote } from './payment-gate-note.tsx';
import { ReprintButton } from './reprint-button.tsx';
import { TableActions } from './table-actions.tsx';
import { OrderAdjustmentsPanel } from './order-adjustments-panel.tsx';
import { OrderChecks } from './order-checks.tsx';
import { useOrderScreen } from './use-order-screen.tsx';

export function AdminOrderPage() {
  const { tableId = '' } = useParams();
  const screen = useOrderScreen(tableId);
  const navigate = useNavigate();
  const order = screen.order;
  if (!order) return <OrderStates screen={screen} backTo="/admin/home" />;

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-3">
          <Link
            to="/admin/home"
            aria-label={t.order.backToTables}
            className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-700 hover:bg-slate-100"
          >
            <ArrowLeft className="h-5 w-5" aria-hidden />
          </Link>
          <div>
            <h1 className="text-2xl font-bold">{tableLabel(order.tableNumber)}</h1>
            <p className="font-mono text-sm text-slate-500" data-testid="order-id">
              {t.order.orderNumber(shortOrderId(order.id))}
            </p>
          </div>
        </div>
        {/* On a phone the side panel comes after the items; the total stays in sight up here. */}
        <div className="text-right lg:hidden" aria-hidden>
          <p className="text-xs text-slate-500">{t.order.total}</p>
          <p className="text-2xl font-bold tabular-nums">{money(screen.total)}</p>
        </div>
      </div>

      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <OrderItemsSection screen={screen} showAddButton />
        <aside className="space-y-4">
          <Card className="space-y-4 p-4">
            {/* Total at the top of the side panel: the top-right corner belongs to the toasts. */}
            <div className="flex items-baseline justify-between border-b border-slate-100 pb-3">
              <span className="text-sm font-medium text-slate-500">{t.order.total}</span>
              <span className="text-3xl font-bold tabular-nums" data-testid="order-total">
                {money(screen.total)}
              </span>
            </div>
            <OrderDetails order={order} screen={screen} />
          </Card>
          <OrderAdjustmentsPanel order={order} tableId={tableId} />
          <OrderChecks order={order} tableId={tableId} area="/admin" />
          <Card className="p-4">
            <BlurSaveField
              label={t.order.adminComments}
              hint={t.order.adminCommentsHint}
              value={order.adminComments}
              multiline
              maxLength={2000}
              disabled={screen.readOnly}
              onSave={screen.setAdminComments}
            />
          </Card>
          <div className="space-y-2">
            <Button variant="outline" size="lg" className="w-full" onClick={screen.dialogs.openPicker} disabled={screen.readOnly}>
              <Plus className="h-4 w-4" aria-hidden />
              {t.order.addItems}
            </Button>
            <Button
              variant="success"
              size="lg"
              className="w-full"
              disabled={!screen.gate.ok}
              onClick={() => navigate(`/admin/checkout/${order.id}`, { state: { orderId: order.id, tableId } })}
            >
              <CreditCard className="h-4 w-4" aria-hidden />
              {t.order.proceedToPay}
            </Button>
            <PaymentGateNote gate={screen.gate} button="proceed" />
            <ReprintButton orderId={order.id} className="w-full" disabled={order.items.length === 0} />
            <TableActions order={order} base="/admin" className="w-full" />
            {/* Exists in the product but is not offered (SPEC §2). */}
            <Button variant="danger" className="w-full" hidden>
              <XCircle className="h-4 w-4" aria-hidden />
              {t.order.cancelOrder}
            </Button>
          </div>
        </aside>
      </div>
      {screen.dialogs.element}
    </div>
  );
}
