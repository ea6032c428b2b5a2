import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AddItemBody, Order, OrderWriteResponse, Product, UpdateOrderBody } from '@comanda/contract';
import { OrderWriteResponseSchema, orderTopic } from '@comanda/contract';
import { post, requireOnline } from '../../lib/api.ts';
import { AVAILABLE_PRODUCTS_KEY, availableProductsQuery } from '../../lib/catalogue.ts';
import { tableOrderKey, tableOrderQuery } from '../../lib/orders.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { submitOrQueue, type Submitted } from '../../lib/outbox/index.ts';
import { useLiveQueries } from '../../lib/use-live.ts';
import { MINIMAL_ANSWER, storeOrderAnswer } from '../../lib/order-cache.ts';

export { tableOrderKey };

const versionOf = (data: unknown) => (data as Order | undefined)?.version;
const ANSWER_SETTLE_MS = 150;

/** The active order of a table, kept current by its live topic; a 404 means there is none. */
export function useTableOrder(tableId: string, cuenta?: string | null) {
  const key = tableOrderKey(tableId, cuenta);
  const query = useQuery(tableOrderQuery(tableId, cuenta));
  const orderId = query.data?.id;
  // The waiter's own write is usually announced just before its answer arrives: a short settle lets
  // the answer patch the cache first, so the event finds it current and reads nothing.
  useLiveQueries(orderId ? [orderTopic(orderId)] : ['tables'], [key], orderId ? versionOf : undefined, orderId ? ANSWER_SETTLE_MS : 0);
  return query;
}

/** The catalogue a waiter can order from: available products only. */
export function useAvailableProducts(enabled: boolean) {
  useLiveQueries(enabled ? ['products'] : [], [AVAILABLE_PRODUCTS_KEY]);
  return useQuery({ ...availableProductsQuery, enabled });
}

/** Keeps whichever copy is newer: a slow response never overwrites a fresher live refetch. */
function storeOrder(qc: QueryClient, tableId: string, order: Order, cuenta?: string | null): void {
  qc.setQueryData<Order>(tableOrderKey(tableId, cuenta), (current) =>
    current && current.id === order.id && current.version > order.version ? current : order,
  );
}

type Answer = Submitted<OrderWriteResponse>;
/** With modifiers, the unit price and options a queued add shows until the server has it. */
export type AddItemInput = AddItemBody & { productName: string; previewPrice?: number; modifierLabels?: string[] };
export type AddUnitsInput = { itemId: string; quantity: number; productName: string; productPrice: number; notes: string | null };

/** What an update reads like in a "no enviado" notice. */
function describeUpdate(body: UpdateOrderBody): string {
  if (body.peopleCount !== undefined) return t.offline.guests(body.peopleCount);
  if (body.tableName !== undefined) return t.offline.tableName(body.tableName);
  return t.offline.comments;
}

/**
 * Every change an order screen makes. Item writes ask for the light answer (what changed) and
 * patch the cached order with it; the update's answer is the whole order, stored at once. Adding
 * items or units and the guest count or table name can wait in the outbox when the server is
 * out of reach (the answer is then `queued`); deleting with a PIN cannot and fails at once.
 */
export function useOrderActions(tableId: string, orderId: string, where = '', cuenta?: string | null) {
  const qc = useQueryClient();
  const onSuccess = (answer: Answer | OrderWriteResponse) => {
    if ('queued' in answer) {
      if (!answer.queued) storeOrderAnswer(qc, tableOrderKey(tableId, cuenta), answer.body);
    } else storeOrderAnswer(qc, tableOrderKey(tableId, cuenta), answer);
  };
  const onUpdated = (answer: Submitted<{ order: Order }>) => {
    if (!answer.queued) storeOrder(qc, tableId, answer.body.order, cuenta);
  };
  const base = `/api/orders/${orderId}`;
  const common = { tableId, orderId };
  const priceOf = (productId: string) => qc.getQueryData<Product[]>(AVAILABLE_PRODUCTS_KEY)?.find((p) => p.id === productId)?.price ?? null;
  return {
    addItem: useMutation({
      mutationFn: ({ productName, previewPrice, modifierLabels, ...body }: AddItemInput) =>
        submitOrQueue<OrderWriteResponse>({
          ...common,
          kind: 'add-item',
          method: 'POST',
          path: `${base}/items`,
          headers: MINIMAL_ANSWER,
          body,
          label: where + t.offline.units(body.quantity, productName),
          preview: {
            productName,
            quantity: body.quantity,
            productPrice: previewPrice ?? priceOf(body.productId),
            notes: body.notes ?? null,
            ...(modifierLabels?.length ? { modifiers: modifierLabels } : {}),
          },
        }),
      onSuccess,
    }),
    addUnits: useMutation({
      mutationFn: ({ itemId, quantity, productName, productPrice, notes }: AddUnitsInput) =>
        submitOrQueue<OrderWriteResponse>({
          ...common,
          kind: 'add-units',
          method: 'POST',
          path: `${base}/items/${itemId}/units`,
          headers: MINIMAL_ANSWER,
          body: { quantity },
          label: where + t.offline.units(quantity, productName),
          preview: { productName, quantity, productPrice, notes },
        }),
      onSuccess,
    }),
    deleteItem: useMutation({
      mutationFn: ({ itemId, pin }: { itemId: string; pin: string }) => {
        requireOnline(t.offline.deleteItem);
        return post(OrderWriteResponseSchema, `${base}/items/${itemId}/delete`, { pin }, MINIMAL_ANSWER);
      },
      onSuccess,
    }),
    update: useMutation({
      mutationFn: (body: UpdateOrderBody) =>
        submitOrQueue<{ order: Order }>({
          ...common,
          kind: 'update-order',
          method: 'PATCH',
          path: base,
          body,
          label: where + describeUpdate(body),
          preview: null,
        }),
      // The guest counter moves at once; the server's answer (or a refetch on failure) settles it.
      onMutate: (body) => {
        if (body.peopleCount !== undefined)
          qc.setQueryData<Order>(tableOrderKey(tableId, cuenta), (o) => (o ? { ...o, peopleCount: body.peopleCount ?? o.peopleCount } : o));
      },
      onSuccess: onUpdated,
      onError: () => void qc.invalidateQueries({ queryKey: tableOrderKey(tableId) }),
    }),
  };
}

export type OrderActions = ReturnType<typeof useOrderActions>;
