import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { TicketPrintResponseSchema, TicketResponseSchema, TicketsPageSchema } from '@comanda/contract';
import { get, post } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/ids.ts';
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

/** A paid ticket with its CFDI state and self-invoice QR; read on every opening (the receipt is issued after the close). */
export function useTicket(orderId: string | null) {
  return useQuery({
    queryKey: [...TICKETS_KEY, 'one', orderId],
    queryFn: () => get(TicketResponseSchema, `/api/tickets/${orderId}`),
    enabled: Boolean(orderId),
  });
}

/** The ticket again on the caja printer: how many jobs were queued (0: no caja printer is set). */
export const printTicketOnCaja = async (orderId: string) =>
  (await post(TicketPrintResponseSchema, `/api/tickets/${orderId}/print`, {}, { 'idempotency-key': newIdempotencyKey('ticket-print') }))
    .jobs;
