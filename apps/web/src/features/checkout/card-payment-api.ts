import { useMutation, useQuery } from '@tanstack/react-query';
import type { CardPayment, CardTerminal, CreateCardPaymentBody } from '@comanda/contract';
import { get, post, requireOnline } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { newIdempotencyKey } from '../../lib/ids.ts';
import { useLiveQueries, useLiveTopics } from '../../lib/use-live.ts';

const LIVE = new Set<CardPayment['state']>(['creating', 'pending', 'processing']);
export const isGoing = (p: CardPayment | undefined): boolean => Boolean(p && LIVE.has(p.state));

/** A new attempt gets a new key; a resend of the same attempt (network blip) keeps it. */
export const newAttemptKey = (): string => newIdempotencyKey('card');

export function useEnabledTerminals(enabled: boolean) {
  return useQuery({
    queryKey: ['terminals', 'enabled'],
    queryFn: async () => (await get<{ terminals: CardTerminal[] }>('/api/terminals/enabled')).terminals,
    enabled,
    staleTime: 30_000,
  });
}

type OrderCardPayments = { payment: CardPayment | null; needsReview: CardPayment[] };
const orderCardPayments = (orderId: string) => ({
  queryKey: ['card-payment', 'active', orderId],
  queryFn: async () => get<OrderCardPayments>(`/api/card-payments?orderId=${encodeURIComponent(orderId)}`),
});

/** The attempt a reloaded checkout resumes: the order's live one, if any. */
export function useActiveCardPayment(orderId: string) {
  return useQuery({ ...orderCardPayments(orderId), select: (d: OrderCardPayments) => d.payment });
}

/** Approved charges of the order that did not close it: shown on the checkout until settled. */
export function useOrderCardReviews(orderId: string) {
  useLiveQueries([`order:${orderId}`], [orderCardPayments(orderId).queryKey]);
  return useQuery({ ...orderCardPayments(orderId), select: (d: OrderCardPayments) => d.needsReview });
}

/** One attempt, pushed live over card-payment:{id} and polled as a fallback while it is going. */
export function useCardPayment(id: string | null) {
  const query = useQuery({
    queryKey: ['card-payment', id],
    queryFn: async () => (await get<{ payment: CardPayment }>(`/api/card-payments/${id}`)).payment,
    enabled: Boolean(id),
    refetchInterval: (q) => (isGoing(q.state.data) ? 3000 : false),
  });
  useLiveTopics(id ? [`card-payment:${id}`] : [], () => void query.refetch());
  return query;
}

export function useStartCardPayment() {
  return useMutation({
    mutationFn: async ({ key, ...body }: CreateCardPaymentBody & { key: string }) => {
      requireOnline(t.offline.cardPayment);
      return (await post<{ payment: CardPayment }>('/api/card-payments', body, { 'idempotency-key': key })).payment;
    },
  });
}

export function useCancelCardPayment() {
  return useMutation({
    mutationFn: async (id: string) => (await post<{ payment: CardPayment }>(`/api/card-payments/${id}/cancel`)).payment,
  });
}

/**
 * What the open dialog was showing, per order. The checkout screen remounts when the order's
 * status changes (the approval itself), and the dialog must still show '¡Pago aprobado!'.
 */
export interface DialogMemory {
  sessionId: string | null;
  terminalId: string | null;
  shown: boolean;
}
const memories = new Map<string, DialogMemory>();
export const recallDialog = (orderId: string): DialogMemory | undefined => memories.get(orderId);
export const rememberDialog = (orderId: string, memory: DialogMemory): void => void memories.set(orderId, memory);
