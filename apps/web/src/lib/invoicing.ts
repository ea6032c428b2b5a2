import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GlobalNowResponseSchema,
  InvoiceResponseSchema,
  InvoicingOverviewSchema,
  TicketInvoiceInfoSchema,
  type CancelInvoiceBody,
  type InvoiceTicketBody,
} from '@comanda/contract';
import { get, post } from './api.ts';
import { newIdempotencyKey } from './ids.ts';
import { useLiveQueries } from './use-live.ts';

export const INVOICING_KEY = ['invoicing'] as const;
const ticketKey = (orderId: string | null) => [...INVOICING_KEY, 'ticket', orderId] as const;

const OVERVIEW_KEY = [...INVOICING_KEY, 'overview'] as const;

/** Facturación: receipts, invoices and globals; read again when the server tells a change live ('invoicing.changed'). */
export function useInvoicingOverview() {
  useLiveQueries(['invoicing'], [OVERVIEW_KEY]);
  return useQuery({
    queryKey: OVERVIEW_KEY,
    queryFn: () => get(InvoicingOverviewSchema, '/api/invoicing'),
  });
}

/** A ticket's receipt and invoices, read again on 'invoicing.changed' (a customer's self-invoice, the queue, a global). */
export function useTicketInvoicing(orderId: string | null) {
  useLiveQueries(orderId ? ['invoicing'] : [], [ticketKey(orderId)]);
  return useQuery({
    queryKey: ticketKey(orderId),
    queryFn: () => get(TicketInvoiceInfoSchema, `/api/invoicing/tickets/${orderId}`),
    enabled: Boolean(orderId),
  });
}

/** "Facturar": one key per attempt, kept while the same form is sent again (a double tap stamps once). */
export function useInvoiceTicket(orderId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: InvoiceTicketBody; key: string }) =>
      post(InvoiceResponseSchema, `/api/invoicing/tickets/${orderId}/invoice`, body, { 'idempotency-key': key }),
    onSettled: () => qc.invalidateQueries({ queryKey: INVOICING_KEY }),
  });
}

export function useCancelInvoice() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: CancelInvoiceBody }) =>
      post(InvoiceResponseSchema, `/api/invoicing/invoices/${id}/cancel`, body, { 'idempotency-key': newIdempotencyKey('cancel') }),
    onSettled: () => qc.invalidateQueries({ queryKey: INVOICING_KEY }),
  });
}

export function useInvoiceAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'retry' | 'refresh' }) =>
      post(InvoiceResponseSchema, `/api/invoicing/invoices/${id}/${action}`, undefined, { 'idempotency-key': newIdempotencyKey(action) }),
    onSettled: () => qc.invalidateQueries({ queryKey: INVOICING_KEY }),
  });
}

export function useSyncReceipt() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) =>
      post(TicketInvoiceInfoSchema, `/api/invoicing/tickets/${orderId}/sync`, undefined, { 'idempotency-key': newIdempotencyKey('sync') }),
    onSettled: () => qc.invalidateQueries({ queryKey: INVOICING_KEY }),
  });
}

export function useGlobalNow() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () =>
      post(GlobalNowResponseSchema, '/api/invoicing/globals/now', undefined, { 'idempotency-key': newIdempotencyKey('global') }),
    onSettled: () => qc.invalidateQueries({ queryKey: INVOICING_KEY }),
  });
}

export const invoiceFileUrl = (id: string, format: 'pdf' | 'xml') => `/api/invoicing/invoices/${id}/${format}`;
