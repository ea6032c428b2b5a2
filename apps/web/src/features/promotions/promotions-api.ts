import { PromotionsResponseSchema, PromotionResponseSchema, OkSchema } from '@comanda/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PromotionBody } from '@comanda/contract';
import { del, get, post, put } from '../../lib/api.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

/** Under 'products': a product or promotion event (same topic) refreshes the picker's badges too. */
export const PROMOTIONS_KEY = ['products', 'promotions'] as const;

export function usePromotions() {
  useLiveQueries(['products'], [PROMOTIONS_KEY]);
  return useQuery({
    queryKey: [...PROMOTIONS_KEY, 'all'],
    queryFn: async () => (await get(PromotionsResponseSchema, '/api/promotions')).promotions,
  });
}

export function usePromotionMutations() {
  const qc = useQueryClient();
  const onSettled = () => qc.invalidateQueries({ queryKey: PROMOTIONS_KEY });
  return {
    create: useMutation({ mutationFn: (body: PromotionBody) => post(PromotionResponseSchema, '/api/promotions', body), onSettled }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: string; body: PromotionBody }) => put(PromotionResponseSchema, `/api/promotions/${id}`, body),
      onSettled,
    }),
    remove: useMutation({ mutationFn: (id: string) => del(OkSchema, `/api/promotions/${id}`), onSettled }),
  };
}
