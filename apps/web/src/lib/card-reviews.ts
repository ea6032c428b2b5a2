import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CardPayment,
  CardPaymentResponseSchema,
  CardReviewListResponseSchema,
  RecordCardPaymentResponseSchema,
} from '@comanda/contract';
import { get, post } from './api.ts';
import { newIdempotencyKey } from './ids.ts';
import { orderKey } from './orders.ts';
import { useLiveQueries } from './use-live.ts';

export const CARD_REVIEWS_KEY = ['card-payment', 'reviews'] as const;

/** The admin's list of approved card charges that did not close their order. */
export function useCardReviews() {
  useLiveQueries(['terminals', 'tables'], [CARD_REVIEWS_KEY]);
  return useQuery({
    queryKey: CARD_REVIEWS_KEY,
    queryFn: async () => (await get(CardReviewListResponseSchema, '/api/card-payments/review')).reviews,
  });
}

/** One key per click: a resend of the same click (network blip) cannot settle twice. */
const settleKey = () => newIdempotencyKey('review');

/** 'Registrar como pago' and 'Marcar como reembolsado en la terminal'; both refresh what shows the charge. */
export function useSettleCardReview() {
  const qc = useQueryClient();
  const refresh = (orderId: string) => {
    void qc.invalidateQueries({ queryKey: CARD_REVIEWS_KEY });
    void qc.invalidateQueries({ queryKey: ['card-payment', 'active', orderId] });
    void qc.invalidateQueries({ queryKey: orderKey(orderId) });
    void qc.invalidateQueries({ queryKey: ['tables'] });
  };
  const record = useMutation({
    mutationFn: async (p: Pick<CardPayment, 'id' | 'orderId'>) =>
      post(RecordCardPaymentResponseSchema, `/api/card-payments/${p.id}/record`, undefined, { 'idempotency-key': settleKey() }),
    onSettled: (_d, _e, p) => refresh(p.orderId),
  });
  const refunded = useMutation({
    mutationFn: async ({ note, ...p }: Pick<CardPayment, 'id' | 'orderId'> & { note: string }) =>
      post(CardPaymentResponseSchema, `/api/card-payments/${p.id}/refunded`, note.trim() ? { note: note.trim() } : {}, {
        'idempotency-key': settleKey(),
      }),
    onSettled: (_d, _e, p) => refresh(p.orderId),
  });
  return { record, refunded };
}
