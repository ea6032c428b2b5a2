import { useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { Ban, CheckCheck, HandPlatter, XCircle } from 'lucide-react';
import { CancelOrderBodySchema, type Order, type OrderItem } from '@comanda/contract';
import { activeItems, deliverableIds } from '@comanda/domain';
import { PinDialog } from '../../components/pin-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useOrderService, type OrderService } from './service-api.ts';
import type { OrderScreen } from './use-order-screen.tsx';
import { VoidItemDialog } from './void-item-dialog.tsx';
import { VoidReasonFields } from './void-reason-picker.tsx';
import { useZodForm } from '../../lib/use-zod-form.ts';

/**
 * Voids, deliveries and "Cancelar orden" on an order screen (issue #14 items 6 and 9): the
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
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const hasItems = activeItems(order.items).length > 0;
  const [askPin, setAskPin] = useState(false);
  // An order with items needs a reason (the contract's "reasonRequired" when blank), then an admin PIN.
  const form = useZodForm({
    initial: { reason: null as string | null, note: '' },
    schema: CancelOrderBodySchema,
    toInput: ({ reason, note }) => (hasItems ? { reason: reason ?? '', note: note.trim() || null } : {}),
    onValid: () => void confirm(),
  });
  const { reason, note } = form.values;
  const close = () => {
    form.reset();
    setAskPin(false);
    onClose();
  };
  const done = () => {
    toast.success(t.voids.orderCancelled);
    close();
    navigate(pathname.startsWith('/admin') ? '/admin/home' : '/waiter/home');
  };
  const confirm = async () => {
    if (hasItems) return setAskPin(true);
    try {
      await service.cancel.mutateAsync({});
      done();
    } catch (err) {
      form.setError(errorMessage(err, t.voids.error));
    }
  };
  return (
    <>
      <Dialog
        open={open && !askPin}
        onClose={close}
        title={t.voids.cancelOrderTitle}
        locked={service.cancel.isPending}
        className="max-w-md"
        variant="sheet"
        footer={
          <>
            <Button variant="outline" onClick={close} disabled={service.cancel.isPending}>
              {t.voids.keepOrder}
            </Button>
            <Button variant="danger" onClick={form.submit} disabled={service.cancel.isPending} data-testid="cancel-order-confirm">
              {t.voids.confirmCancel}
            </Button>
          </>
        }
      >
        <div className="space-y-4">
          <p className="text-sm text-slate-700">{hasItems ? t.voids.cancelWithItems : t.voids.cancelEmpty}</p>
          {hasItems && (
            <VoidReasonFields
              id="cancel-note"
              reason={reason}
              onReason={(chosen) => {
                form.set('reason', chosen);
                form.setError(null);
              }}
              note={note}
              onNote={(text) => form.set('note', text)}
            />
          )}
          <FormError message={form.error} />
        </div>
      </Dialog>
      <PinDialog
        open={open && askPin}
        title={t.voids.pinTitle}
        description={t.voids.pinCancel}
        onClose={() => setAskPin(false)}
        onSubmit={async (pin) => {
          await service.cancel.mutateAsync({ reason: reason ?? undefined, note: note.trim() || null, pin });
          done();
        }}
      />
    </>
  );
}
