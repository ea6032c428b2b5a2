import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { OrderResponseSchema, TicketsPageSchema } from '@comanda/contract';
import { get } from '../../lib/api.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

export const TICKETS_KEY = ['tickets'] as const;

/** Paid tickets, newest first, one server page at a time; refetched when a ticket is paid. */
export function useTickets(search: string) {
  useLiveQueries(['tickets'], [TICKETS_KEY]);
  return useInfiniteQuery({
    queryKey: [...TICKETS_KEY, 'list', search],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams();
      if (search) params.set('search', search);
      if (pageParam) params.set('cursor', pageParam);
      const query = params.toString();
      return get(TicketsPageSchema, `/api/tickets${query ? `?${query}` : ''}`);
    },
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useTicket(orderId: string | null) {
  return useQuery({
    queryKey: [...TICKETS_KEY, 'one', orderId],
    queryFn: async () => (await get(OrderResponseSchema, `/api/tickets/${orderId}`)).order,
    enabled: Boolean(orderId),
    // A paid order never changes.
    staleTime: Infinity,
  });
}
