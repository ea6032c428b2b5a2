import { queryOptions } from '@tanstack/react-query';
import { ModifierGroupsResponseSchema, ProductsResponseSchema } from '@comanda/contract';
import { get } from './api.ts';

/**
 * What the picker reads about the menu: the products a waiter can order (agotados left out) and
 * every modifier group. Under 'products', so a products event refreshes them with the rest; kept
 * on the device as well (lib/offline-ready.ts), so the picker opens without the network.
 */
export const AVAILABLE_PRODUCTS_KEY = ['products', 'available'] as const;
export const PICKER_MODIFIERS_KEY = ['products', 'modifier-groups'] as const;

export const availableProductsQuery = queryOptions({
  queryKey: AVAILABLE_PRODUCTS_KEY,
  queryFn: async () => (await get(ProductsResponseSchema, '/api/products?available=1')).products,
  staleTime: 60_000,
});

export const pickerModifierGroupsQuery = queryOptions({
  queryKey: PICKER_MODIFIERS_KEY,
  queryFn: async () => (await get(ModifierGroupsResponseSchema, '/api/modifier-groups')).groups,
  staleTime: 60_000,
});
