import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type CloseOrderBody, OrderResponseSchema } from '@comanda/contract';
import { post, requireOnline } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { newIdempotencyKey } from '../../lib/ids.ts';
import { orderKey } from '../../lib/orders.ts';

type CashInput = Omit<CloseOrderBody, 'method'>;

/**
 * The checkout's cash payment, which closes the order (not the end-of-shift cash close), with an
 * Idempotency-Key per checkout attempt: the same figures retried (a lost response, a second
 * click) reuse the key and get the first answer; new figures make a new attempt.
 */
export function useCashPayment(orderId: string) {
  const qc = useQueryClient();
  const attempt = useRef<{ key: string; figures: string } | null>(null);
  return useMutation({
    mutationFn: async (input: CashInput) => {
      requireOnline(t.offline.pay);
      const figures = JSON.stringify([input.tipBps, input.peopleCount, input.receivedAmount]);
      if (attempt.current?.figures !== figures) attempt.current = { key: newIdempotencyKey('cash'), figures };
      const body: CloseOrderBody = { method: 'efectivo', ...input };
      return (await post(OrderResponseSchema, `/api/orders/${orderId}/close`, body, { 'Idempotency-Key': attempt.current.key })).order;
    },
    onSuccess: (order) => {
      qc.setQueryData(orderKey(orderId), order);
    },
  });
}
