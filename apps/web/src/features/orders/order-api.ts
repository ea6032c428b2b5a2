import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AddItemBody, Order, Product, UpdateOrderBody } from '@comanda/contract';
import { get, post, requireOnline } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { submitOrQueue, type Submitted } from '../../lib/outbox/index.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

export const tableOrderKey = (tableId: string) => ['table-order', tableId] as const;
const AVAILABLE_PRODUCTS_KEY = ['products', 'available'] as const;

const versionOf = (data: unknown) => (data as Order | undefined)?.version;

/** The active order of a table, kept current by its live topic; a 404 means there is none. */
export function useTableOrder(tableId: string) {
  const key = tableOrderKey(tableId);
  const query = useQuery({ queryKey: key, queryFn: async () => (await get<{ order: Order }>(`/api/tables/${tableId}/order`)).order });
  const orderId = query.data?.id;
  useLiveQueries(orderId ? [`order:${orderId}`] : ['tables'], [key], orderId ? versionOf : undefined);
  return query;
}

/** The catalogue a waiter can order from: available products only. */
export function useAvailableProducts(enabled: boolean) {
  useLiveQueries(enabled ? ['products'] : [], [AVAILABLE_PRODUCTS_KEY]);
  return useQuery({
    queryKey: AVAILABLE_PRODUCTS_KEY,
    queryFn: async () => (await get<{ products: Product[] }>('/api/products?available=1')).products,
    enabled,
    staleTime: 60_000,
  });
}

/** Keeps whichever copy is newer: a slow response never overwrites a fresher live refetch. */
function storeOrder(qc: QueryClient, tableId: string, order: Order): void {
  qc.setQueryData<Order>(tableOrderKey(tableId), (current) =>
    current && current.id === order.id && current.version > order.version ? current : order,
  );
}

type Answer = Submitted<{ order: Order }>;
export type AddItemInput = AddItemBody & { productName: string };
export type AddUnitsInput = { itemId: string; quantity: number; productName: string; productPrice: number; notes: string | null };

/** What an update reads like in a "no enviado" notice. */
function describeUpdate(body: UpdateOrderBody): string {
  if (body.peopleCount !== undefined) return t.offline.guests(body.peopleCount);
  if (body.tableName !== undefined) return t.offline.tableName(body.tableName);
  return t.offline.comments;
}

/**
 * Every change an order screen makes; each answer is the whole order, stored at once. Adding
 * items or units and the guest count or table name can wait in the outbox when the server is
 * out of reach (the answer is then `queued`); deleting with a PIN cannot and fails at once.
 */
export function useOrderActions(tableId: string, orderId: string, where = '') {
  const qc = useQueryClient();
  const onSuccess = (answer: Answer | { order: Order }) => {
    if ('order' in answer) storeOrder(qc, tableId, answer.order);
    else if (!answer.queued) storeOrder(qc, tableId, answer.body.order);
  };
  const base = `/api/orders/${orderId}`;
  const common = { tableId, orderId };
  const priceOf = (productId: string) => qc.getQueryData<Product[]>(AVAILABLE_PRODUCTS_KEY)?.find((p) => p.id === productId)?.price ?? null;
  return {
    addItem: useMutation({
      mutationFn: ({ productName, ...body }: AddItemInput) =>
        submitOrQueue<{ order: Order }>({
          ...common,
          kind: 'add-item',
          method: 'POST',
          path: `${base}/items`,
          body,
          label: where + t.offline.units(body.quantity, productName),
          preview: { productName, quantity: body.quantity, productPrice: priceOf(body.productId), notes: body.notes ?? null },
        }),
      onSuccess,
    }),
    addUnits: useMutation({
      mutationFn: ({ itemId, quantity, productName, productPrice, notes }: AddUnitsInput) =>
        submitOrQueue<{ order: Order }>({
          ...common,
          kind: 'add-units',
          method: 'POST',
          path: `${base}/items/${itemId}/units`,
          body: { quantity },
          label: where + t.offline.units(quantity, productName),
          preview: { productName, quantity, productPrice, notes },
        }),
      onSuccess,
    }),
    deleteItem: useMutation({
      mutationFn: ({ itemId, pin }: { itemId: string; pin: string }) => {
        requireOnline(t.offline.deleteItem);
        return post<{ order: Order }>(`${base}/items/${itemId}/delete`, { pin });
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
          qc.setQueryData<Order>(tableOrderKey(tableId), (o) => (o ? { ...o, peopleCount: body.peopleCount ?? o.peopleCount } : o));
      },
      onSuccess,
      onError: () => void qc.invalidateQueries({ queryKey: tableOrderKey(tableId) }),
    }),
  };
}

export type OrderActions = ReturnType<typeof useOrderActions>;
