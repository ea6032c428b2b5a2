import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Order } from '@comanda/contract';
import { orderTopic, OrderResponseSchema } from '@comanda/contract';
import { get } from './api.ts';
import { useLiveQueries } from './use-live.ts';

export const orderKey = (orderId: string) => ['order', orderId] as const;

/** With `cuenta`, one of several open orders of the table (separate checks, bar tabs: 0014). */
export const tableOrderKey = (tableId: string, cuenta?: string | null) =>
  cuenta ? (['table-order', tableId, cuenta] as const) : (['table-order', tableId] as const);

/** The active order of a table (or one of its checks): what the order screens show. */
export const tableOrderQuery = (tableId: string, cuenta?: string | null) =>
  queryOptions({
    queryKey: tableOrderKey(tableId, cuenta) as readonly string[],
    queryFn: async () => (await get(OrderResponseSchema, cuenta ? `/api/orders/${cuenta}` : `/api/tables/${tableId}/order`)).order,
  });

/** A copy of the order already read by a table's order screen (or kept for offline), with when it was read. */
function cachedTableOrder(qc: QueryClient, orderId: string): { data: Order; at: number } | undefined {
  for (const query of qc.getQueryCache().findAll({ queryKey: ['table-order'] })) {
    const data = query.state.data as Order | undefined;
    if (data?.id === orderId) return { data, at: query.state.dataUpdatedAt };
  }
  return undefined;
}

/**
 * One order by id, kept current by its live topic (refetched only when the event is newer). It
 * starts from the copy the table's order screen holds, so the checkout opens offline too.
 */
export function useOrder(orderId: string | undefined) {
  const qc = useQueryClient();
  useLiveQueries(orderId ? [orderTopic(orderId)] : [], orderId ? [orderKey(orderId)] : [], (data) => (data as Order | undefined)?.version);
  return useQuery({
    queryKey: orderKey(orderId ?? ''),
    queryFn: async () => (await get(OrderResponseSchema, `/api/orders/${orderId}`)).order,
    enabled: Boolean(orderId),
    initialData: () => (orderId ? cachedTableOrder(qc, orderId)?.data : undefined),
    initialDataUpdatedAt: () => (orderId ? cachedTableOrder(qc, orderId)?.at : undefined),
  });
}
