import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AddItemBody, Order, Product, UpdateOrderBody } from '@comanda/contract';
import { get, patch, post } from '../../lib/api.ts';
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

/** Every change an order screen makes; each answer is the whole order, stored at once. */
export function useOrderActions(tableId: string, orderId: string) {
  const qc = useQueryClient();
  const onSuccess = ({ order }: { order: Order }) => storeOrder(qc, tableId, order);
  const base = `/api/orders/${orderId}`;
  return {
    addItem: useMutation({ mutationFn: (body: AddItemBody) => post<{ order: Order }>(`${base}/items`, body), onSuccess }),
    addUnits: useMutation({
      mutationFn: ({ itemId, quantity }: { itemId: string; quantity: number }) =>
        post<{ order: Order }>(`${base}/items/${itemId}/units`, { quantity }),
      onSuccess,
    }),
    deleteItem: useMutation({
      mutationFn: ({ itemId, pin }: { itemId: string; pin: string }) => post<{ order: Order }>(`${base}/items/${itemId}/delete`, { pin }),
      onSuccess,
    }),
    update: useMutation({
      mutationFn: (body: UpdateOrderBody) => patch<{ order: Order }>(base, body),
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
