import { useState } from 'react';
import { toast } from 'sonner';
import type { Order, OrderItem } from '@comanda/contract';
import { PinDialog } from '../../components/pin-dialog.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import type { OrderActions } from './order-api.ts';
import { ProductPickerDialog } from './product-picker-dialog.tsx';
import { usePickerModifierGroups } from './modifiers-api.ts';
import { QuantityDialog } from './quantity-dialog.tsx';
import { useOrderService } from './service-api.ts';
import { VoidItemDialog } from './void-item-dialog.tsx';

type Open = { kind: 'none' } | { kind: 'picker' } | { kind: 'units'; item: OrderItem } | { kind: 'delete'; item: OrderItem };

/** The three modals of an order screen (picker, more units, delete with admin PIN), shared by both pages. */

/** The id of the toast that reports additions to the order. */
const ADD_TOAST = 'order-add';
export function useOrderDialogs(order: Order | undefined, actions: OrderActions | null) {
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  // The modifier groups load as the picker opens, before a product is tapped.
  usePickerModifierGroups(open.kind === 'picker');
  const close = () => setOpen({ kind: 'none' });
  const [undoing, setUndoing] = useState<{ item: OrderItem; resolve: (undone: boolean) => void } | null>(null);
  const service = useOrderService(order?.tableId ?? '', order?.id ?? '');

  const element =
    order && actions ? (
      <>
        <ProductPickerDialog
          open={open.kind === 'picker'}
          busy={actions.addItem.isPending}
          onClose={close}
          onPick={async (pick) => {
            try {
              const before = new Map(order.items.map((i) => [i.id, i.quantity]));
              const answer = await actions.addItem.mutateAsync({
                productId: pick.productId,
                productName: pick.productName,
                quantity: pick.quantity,
                notes: pick.notes,
                optionIds: pick.optionIds,
                previewPrice: pick.unitPrice,
                modifierLabels: pick.modifierLabels,
              });
              // One toast that updates (same id) for a burst of adds, not a stack over the screen.
              if (answer.queued) {
                toast.info(t.offline.queuedItem(pick.productName), { id: ADD_TOAST });
                return { itemId: null, queued: true };
              }
              toast.success(t.order.itemAdded(pick.productName), { id: ADD_TOAST });
              // The line that took the units (for Deshacer): a new one, or a pending one the server raised.
              // The light answer carries only the changed rows; a whole order (older server) carries all of them.
              const rows = 'change' in answer.body ? answer.body.change.items : answer.body.order.items;
              const added = rows.filter((i) => i.productId === pick.productId && !i.isDeleted && i.quantity > (before.get(i.id) ?? 0));
              return { itemId: added.sort((a, b) => b.createdAt - a.createdAt)[0]?.id ?? null, queued: false };
            } catch (error) {
              // A product marked agotado meanwhile answers 409 with its name.
              toast.error(errorMessage(error, t.order.productNotFound), { id: ADD_TOAST });
              return null;
            }
          }}
          onUndo={(itemId) =>
            new Promise<boolean>((resolve) => {
              const item = order.items.find((i) => i.id === itemId) ?? null;
              if (!item || item.isDeleted) return resolve(false);
              setUndoing({ item, resolve });
            })
          }
        />
        {/* Deshacer in "Esta ronda": the order screen's own void. */}
        <VoidItemDialog
          item={undoing?.item ?? null}
          onClose={() => {
            undoing?.resolve(false);
            setUndoing(null);
          }}
          onSubmit={async (request) => {
            if (!undoing) return;
            await service.voidItem.mutateAsync({ itemId: undoing.item.id, ...request });
            toast.success(t.voids.voided(request.quantity, undoing.item.productName));
            undoing.resolve(true);
            setUndoing(null);
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
