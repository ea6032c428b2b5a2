import { ActivePromotionsResponseSchema, type ActivePromotion } from '@comanda/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from './api.ts';
import { useLiveQueries } from './use-live.ts';

/** Under 'products': a product or promotion event (same live topic) refreshes the picker's badges too. */
export const ACTIVE_PROMOTIONS_KEY = ['products', 'promotions', 'active'] as const;

/**
 * What each product costs now under a promotion, from the server: its clock and
 * the business time zone decide. Refetched each minute so a happy hour's badges come and go on time.
 */
export const activePromotionsQuery = queryOptions({
  queryKey: ACTIVE_PROMOTIONS_KEY,
  queryFn: async () => promotionsByProduct((await get(ActivePromotionsResponseSchema, '/api/promotions/active')).promotions),
  staleTime: 30_000,
});

export const promotionsByProduct = (list: readonly ActivePromotion[]) => new Map(list.map((p) => [p.productId, p]));

export function useActivePromotions() {
  useLiveQueries(['products'], [ACTIVE_PROMOTIONS_KEY]);
  return useQuery({ ...activePromotionsQuery, refetchInterval: 60_000 });
}
