import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OrderResponseSchema, type CancelOrderBody, type Order, type VoidItemBody } from '@comanda/contract';
import { post, requireOnline } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { tableOrderKey } from './order-api.ts';

/**
 * Voids, cancellation and deliveries of one order. They need the server at once
 * (a PIN, or the kitchen must hear it now): none of them waits in the outbox.
 */
export function useOrderService(tableId: string, orderId: string) {
  const qc = useQueryClient();
  const store = ({ order }: { order: Order }) => {
    qc.setQueryData<Order>(tableOrderKey(tableId), (current) =>
      current && current.id === order.id && current.version > order.version ? current : order,
    );
  };
  const base = `/api/orders/${orderId}`;
  return {
    voidItem: useMutation({
      mutationFn: ({ itemId, ...body }: VoidItemBody & { itemId: string }) => {
        requireOnline(t.voids.error);
        return post(OrderResponseSchema, `${base}/items/${itemId}/void`, body);
      },
      onSuccess: store,
    }),
    cancel: useMutation({
      mutationFn: (body: CancelOrderBody) => {
        requireOnline(t.voids.error);
        return post(OrderResponseSchema, `${base}/cancel`, body);
      },
      // The table has no active order any more: the screen's query answers 404 from now on.
      onSuccess: () => void qc.invalidateQueries({ queryKey: tableOrderKey(tableId) }),
    }),
    deliver: useMutation({
      mutationFn: (itemIds: string[]) => {
        requireOnline(t.voids.error);
        return post(OrderResponseSchema, `${base}/deliver`, { itemIds });
      },
      onSuccess: store,
    }),
  };
}

export type OrderService = ReturnType<typeof useOrderService>;
