import { useMutation, useQuery } from '@tanstack/react-query';
import type { CardPayment, CreateCardPaymentBody } from '@comanda/contract';
import {
  cardPaymentTopic,
  orderTopic,
  ActiveCardPaymentResponseSchema,
  CardPaymentResponseSchema,
  TerminalListResponseSchema,
} from '@comanda/contract';
import { isCardPaymentWaiting } from '@comanda/domain';
import { get, post, requireOnline } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { newIdempotencyKey } from '../../lib/ids.ts';
import { useLiveQueries, useLiveTopics } from '../../lib/use-live.ts';

/** The dialog still waits on this attempt (the domain's card transition table says which states). */
export const isGoing = (p: CardPayment | undefined): boolean => Boolean(p && isCardPaymentWaiting(p.state));

/** A new attempt gets a new key; a resend of the same attempt (network blip) keeps it. */
export const newAttemptKey = (): string => newIdempotencyKey('card');

export function useEnabledTerminals(enabled: boolean) {
  return useQuery({
    queryKey: ['terminals', 'enabled'],
    queryFn: async () => (await get(TerminalListResponseSchema, '/api/terminals/enabled')).terminals,
    enabled,
    staleTime: 30_000,
  });
}

type OrderCardPayments = { payment: CardPayment | null; needsReview: CardPayment[] };
const orderCardPayments = (orderId: string) => ({
  queryKey: ['card-payment', 'active', orderId],
  queryFn: async () => get(ActiveCardPaymentResponseSchema, `/api/card-payments?orderId=${encodeURIComponent(orderId)}`),
});

/** The attempt a reloaded checkout resumes: the order's live one, if any. */
export function useActiveCardPayment(orderId: string) {
  return useQuery({ ...orderCardPayments(orderId), select: (d: OrderCardPayments) => d.payment });
}

/** Approved charges of the order that did not close it: shown on the checkout until settled. */
export function useOrderCardReviews(orderId: string) {
  useLiveQueries([orderTopic(orderId)], [orderCardPayments(orderId).queryKey]);
  return useQuery({ ...orderCardPayments(orderId), select: (d: OrderCardPayments) => d.needsReview });
}

/** One attempt, pushed live over card-payment:{id} and polled as a fallback while it is going. */
export function useCardPayment(id: string | null) {
  const query = useQuery({
    queryKey: ['card-payment', id],
    queryFn: async () => (await get(CardPaymentResponseSchema, `/api/card-payments/${id}`)).payment,
    enabled: Boolean(id),
    // Being sent to the terminal lasts a provider's round trip: its event may
    // come before this screen's subscription does, so it is read again soon rather than in 3 s.
    refetchInterval: (q) => (q.state.data?.state === 'creating' ? 500 : isGoing(q.state.data) ? 3000 : false),
  });
  useLiveTopics(id ? [cardPaymentTopic(id)] : [], () => void query.refetch());
  return query;
}

export function useStartCardPayment() {
  return useMutation({
    mutationFn: async ({ key, ...body }: CreateCardPaymentBody & { key: string }) => {
      requireOnline(t.offline.cardPayment);
      return (await post(CardPaymentResponseSchema, '/api/card-payments', body, { 'idempotency-key': key })).payment;
    },
  });
}

export function useCancelCardPayment() {
  return useMutation({
    mutationFn: async (id: string) => (await post(CardPaymentResponseSchema, `/api/card-payments/${id}/cancel`)).payment,
  });
}
