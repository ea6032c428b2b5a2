import { MenuConfigSchema, TopSellersResponseSchema, ProductsResponseSchema, ProductResponseSchema } from '@comanda/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CATEGORIES } from '@comanda/domain';
import { get, patch, put } from './api.ts';
import { useLiveQueries } from './use-live.ts';

/**
 * What the picker, the boards and Configuración share about the menu: the admin's
 * order of categories, the "Más vendidos" ids and the one-tap agotado. Every products query key
 * starts with 'products', so one products event refreshes them all.
 */
const MENU_CONFIG_KEY = ['config', 'menu'] as const;
const TOP_SELLERS_KEY = ['products', 'top-sellers'] as const;
const ALL_PRODUCTS_KEY = ['products', 'all'] as const;

export const menuConfigQuery = queryOptions({
  queryKey: MENU_CONFIG_KEY,
  queryFn: () => get(MenuConfigSchema, '/api/config/menu'),
  staleTime: 5 * 60_000,
});

export const topSellersQuery = queryOptions({
  queryKey: TOP_SELLERS_KEY,
  queryFn: async () => (await get(TopSellersResponseSchema, '/api/products/top-sellers')).productIds,
  staleTime: 5 * 60_000,
});

export function useMenuConfig(enabled = true) {
  useLiveQueries(enabled ? ['config'] : [], [MENU_CONFIG_KEY]);
  return useQuery({ ...menuConfigQuery, enabled, placeholderData: { categoryOrder: [...CATEGORIES] } });
}

export function useSaveMenuConfig() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (categoryOrder: string[]) => put(MenuConfigSchema, '/api/config/menu', { categoryOrder }),
    onSuccess: (saved) => qc.setQueryData(MENU_CONFIG_KEY, saved),
  });
}

/** The ids of the most sold products of the last days (only roles that take orders may read them). */
export function useTopSellers(enabled: boolean) {
  return useQuery({ ...topSellersQuery, enabled });
}

/** The whole catalogue, available or not (the boards' agotado list). */
export function useCatalogue(enabled: boolean) {
  useLiveQueries(enabled ? ['products'] : [], [['products']]);
  return useQuery({
    queryKey: ALL_PRODUCTS_KEY,
    queryFn: async () => (await get(ProductsResponseSchema, '/api/products')).products,
    enabled,
  });
}

/** One tap: agotado or available again; every open picker hears the products event and refetches. */
export function useSetAvailability() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, available }: { id: string; available: boolean }) =>
      patch(ProductResponseSchema, `/api/products/${id}/availability`, { available }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['products'] }),
  });
}
