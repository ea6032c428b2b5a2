import { useState } from 'react';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import { Ban, CheckCheck, HandPlatter, XCircle } from 'lucide-react';
import type { Order, OrderItem } from '@comanda/contract';
import { deliverableIds } from '@comanda/domain';
import { PinDialog } from '../../components/pin-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useOrderService, type OrderService } from './service-api.ts';
import type { OrderScreen } from './use-order-screen.tsx';
import { VoidItemDialog } from './void-item-dialog.tsx';
import { ReasonFormFields } from './reason-form-fields.tsx';
import { useCancelOrder } from './use-cancel-order.ts';

/**
 * Voids, deliveries and "Cancelar orden" on an order screen: the
 * per-line buttons, the order's bar (Entregar todo lo listo, Cancelar orden) and their dialogs.
 */
export function useOrderServiceUi(screen: OrderScreen) {
  const { tableId = '' } = useParams();
  const order = screen.order;
  const service = useOrderService(tableId, order?.id ?? '');
  const [voiding, setVoiding] = useState<OrderItem | null>(null);
  const live = !screen.readOnly && order !== undefined;

  const deliver = (ids: string[]) =>
    service.deliver.mutate(ids, {
      onSuccess: () => toast.success(t.voids.delivered(ids.length), { id: 'order-deliver' }),
      onError: (error) => toast.error(errorMessage(error, t.voids.error), { id: 'order-deliver' }),
    });

  const lineActions = (item: OrderItem) =>
    live && !item.isDeleted ? (
      <>
        {item.status === 'listo' && (
          <Button
            variant="success"
            size="icon"
            aria-label={t.voids.deliverLabel(item.productName)}
            title={t.voids.deliver}
            disabled={service.deliver.isPending}
            onClick={() => deliver([item.id])}
          >
            <HandPlatter className="h-4 w-4" aria-hidden />
          </Button>
        )}
        <Button
          variant="outline"
          size="icon"
          className="text-rose-700 hover:bg-rose-50"
          aria-label={`${t.voids.voidAction}: ${item.productName}`}
          title={t.voids.voidAction}
          onClick={() => setVoiding(item)}
        >
          <Ban className="h-4 w-4" aria-hidden />
        </Button>
      </>
    ) : null;

  const bar = live && order ? <OrderServiceBar order={order} service={service} onDeliverAll={deliver} /> : null;

  const element = (
    <VoidItemDialog
      item={voiding}
      onClose={() => setVoiding(null)}
      onSubmit={async (request) => {
        if (!voiding) return;
        await service.voidItem.mutateAsync({ itemId: voiding.id, ...request });
        toast.success(t.voids.voided(request.quantity, voiding.productName));
        setVoiding(null);
      }}
    />
  );
  return { lineActions, bar, element };
}

function OrderServiceBar({ order, service, onDeliverAll }: { order: Order; service: OrderService; onDeliverAll: (ids: string[]) => void }) {
  const ready = deliverableIds(order.items);
  const [cancelling, setCancelling] = useState(false);
  return (
    <div className="flex flex-wrap gap-2" data-testid="order-service-bar">
      {ready.length > 0 && (
        <Button variant="success" className="flex-1" disabled={service.deliver.isPending} onClick={() => onDeliverAll(ready)}>
          <CheckCheck className="h-4 w-4" aria-hidden />
          {t.voids.deliverAll} ({ready.length})
        </Button>
      )}
      <Button variant="outline" className="flex-1 text-rose-700 hover:bg-rose-50" onClick={() => setCancelling(true)}>
        <XCircle className="h-4 w-4" aria-hidden />
        {t.voids.cancelOrder}
      </Button>
      <CancelOrderDialog open={cancelling} order={order} service={service} onClose={() => setCancelling(false)} />
    </div>
  );
}

/** Confirmation; an order with items also asks a reason and then an admin PIN. */
function CancelOrderDialog({ open, order, service, onClose }: { open: boolean; order: Order; service: OrderService; onClose: () => void }) {
  const c = useCancelOrder(order, service, onClose);
  const { form, busy } = c;
  return (
    <>
      <Dialog
        open={open && !c.askPin}
        onClose={c.close}
        title={t.voids.cancelOrderTitle}
        locked={busy}
        className="max-w-md"
        variant="sheet"
        footer={
          <>
            <Button variant="outline" onClick={c.close} disabled={busy}>
              {t.voids.keepOrder}
            </Button>
            <Button variant="danger" onClick={form.submit} disabled={busy} data-testid="cancel-order-confirm">
              {t.voids.confirmCancel}
            </Button>
          </>
        }
      >
        <div className="space-y-4">
          <p className="text-sm text-slate-700">{c.hasItems ? t.voids.cancelWithItems : t.voids.cancelEmpty}</p>
          {c.hasItems && <ReasonFormFields id="cancel-note" form={form} />}
          <FormError message={form.error} />
        </div>
      </Dialog>
      <PinDialog
        open={open && c.askPin}
        title={t.voids.pinTitle}
        description={t.voids.pinCancel}
        onClose={c.closePin}
        onSubmit={c.submitPin}
      />
    </>
  );
}
