import { useQuery } from '@tanstack/react-query';
import type { Order } from '@comanda/contract';
import { orderTopic, OrderResponseSchema } from '@comanda/contract';
import { get } from './api.ts';
import { useLiveQueries } from './use-live.ts';

export const orderKey = (orderId: string) => ['order', orderId] as const;

/** One order by id, kept current by its live topic (refetched only when the event is newer). */
export function useOrder(orderId: string | undefined) {
  useLiveQueries(orderId ? [orderTopic(orderId)] : [], orderId ? [orderKey(orderId)] : [], (data) => (data as Order | undefined)?.version);
  return useQuery({
    queryKey: orderKey(orderId ?? ''),
    queryFn: async () => (await get(OrderResponseSchema, `/api/orders/${orderId}`)).order,
    enabled: Boolean(orderId),
  });
}
