import { useState } from 'react';
import { toast } from 'sonner';
import type { Order, OrderItem } from '@comanda/contract';
import { PinDialog } from '../../components/pin-dialog.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import type { OrderActions } from './order-api.ts';
import { ProductPickerDialog } from './product-picker-dialog.tsx';
import { QuantityDialog } from './quantity-dialog.tsx';

type Open = { kind: 'none' } | { kind: 'picker' } | { kind: 'units'; item: OrderItem } | { kind: 'delete'; item: OrderItem };

/** The three modals of an order screen (picker, more units, delete with admin PIN), shared by both pages. */

/** The id of the toast that reports additions to the order. */
const ADD_TOAST = 'order-add';
export function useOrderDialogs(order: Order | undefined, actions: OrderActions | null) {
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  const close = () => setOpen({ kind: 'none' });

  const element =
    order && actions ? (
      <>
        <ProductPickerDialog
          open={open.kind === 'picker'}
          busy={actions.addItem.isPending}
          onClose={close}
          onPick={async (pick) => {
            try {
              const answer = await actions.addItem.mutateAsync({
                productId: pick.productId,
                productName: pick.productName,
                quantity: pick.quantity,
                notes: pick.notes,
              });
              // One toast that updates (same id) for a burst of adds, not a stack over the screen.
              if (answer.queued) toast.info(t.offline.queuedItem(pick.productName), { id: ADD_TOAST });
              else toast.success(t.order.itemAdded(pick.productName), { id: ADD_TOAST });
              return true;
            } catch (error) {
              toast.error(errorMessage(error, t.order.productNotFound));
              return false;
            }
          }}
        />
        <QuantityDialog
          open={open.kind === 'units'}
          subtitle={open.kind === 'units' ? open.item.productName : undefined}
          busy={actions.addUnits.isPending}
          onClose={close}
          onConfirm={(quantity) => {
            if (open.kind !== 'units') return;
            const { item } = open;
            actions.addUnits.mutate(
              { itemId: item.id, quantity, productName: item.productName, productPrice: item.productPrice, notes: item.notes },
              {
                onSuccess: (answer) => {
                  if (answer.queued) toast.info(t.offline.queuedUnits, { id: ADD_TOAST });
                  else toast.success(t.order.unitsAdded, { id: ADD_TOAST });
                  close();
                },
                onError: (error) => toast.error(errorMessage(error, t.app.unexpected)),
              },
            );
          }}
        />
        <PinDialog
          open={open.kind === 'delete'}
          title={t.pin.deleteTitle}
          description={open.kind === 'delete' ? t.order.deleteDescription(open.item.productName) : undefined}
          onClose={close}
          onSubmit={async (pin) => {
            if (open.kind !== 'delete') return;
            await actions.deleteItem.mutateAsync({ itemId: open.item.id, pin });
            toast.success(t.order.itemDeleted);
            close();
          }}
        />
      </>
    ) : null;

  return {
    element,
    openPicker: () => setOpen({ kind: 'picker' }),
    addUnit: (item: OrderItem) => setOpen({ kind: 'units', item }),
    remove: (item: OrderItem) => setOpen({ kind: 'delete', item }),
  };
}
