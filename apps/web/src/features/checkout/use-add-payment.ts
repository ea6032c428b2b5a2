import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type AddPaymentBody, AddPaymentResponseSchema } from '@comanda/contract';
import { post, requireOnline } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { newIdempotencyKey } from '../../lib/ids.ts';
import { orderKey } from '../../lib/orders.ts';

/**
 * One part of a mixed payment (cash or transfer), with an Idempotency-Key per attempt: a retry of
 * the same figures reuses the key and gets the first answer; after a success the next part,
 * even of the same amount (equal shares), is a new attempt.
 */
export function useAddPayment(orderId: string) {
  const qc = useQueryClient();
  const attempt = useRef<{ key: string; figures: string } | null>(null);
  return useMutation({
    mutationFn: async (body: AddPaymentBody) => {
      requireOnline(t.offline.pay);
      const figures = JSON.stringify({ ...body, pin: null });
      if (attempt.current?.figures !== figures) attempt.current = { key: newIdempotencyKey('part'), figures };
      return post(AddPaymentResponseSchema, `/api/orders/${orderId}/payments`, body, { 'Idempotency-Key': attempt.current.key });
    },
    onSuccess: (res) => {
      attempt.current = null;
      qc.setQueryData(orderKey(orderId), res.order);
    },
  });
}
