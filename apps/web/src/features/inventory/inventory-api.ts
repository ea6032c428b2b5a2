import { useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  InsumosResponseSchema,
  LowStockResponseSchema,
  ModifierGroupsResponseSchema,
  ProductsResponseSchema,
  RecipesResponseSchema,
  VarianceResponseSchema,
} from '@comanda/contract';
import { api, get, type ResponseSchema } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/ids.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

/** What the stock moves (sales posted, purchases, counts) refreshes; recipes change only by their own form. */
const LIVE_KEYS = [
  ['inventory', 'insumos'],
  ['inventory', 'variance'],
] as const;

export const useInsumos = () => {
  useLiveQueries(['inventory'], LIVE_KEYS);
  return useQuery({ queryKey: ['inventory', 'insumos'], queryFn: () => get(InsumosResponseSchema, '/api/inventory/insumos') });
};
export const useLowStock = () =>
  useQuery({
    queryKey: ['inventory', 'low-stock'],
    queryFn: () => get(LowStockResponseSchema, '/api/inventory/low-stock'),
    refetchInterval: 60_000,
  });
export const useVariance = (date: string) =>
  useQuery({
    queryKey: ['inventory', 'variance', date],
    queryFn: () => get(VarianceResponseSchema, `/api/inventory/variance?date=${date}`),
  });
export const useRecipes = () =>
  useQuery({ queryKey: ['inventory', 'recipes'], queryFn: () => get(RecipesResponseSchema, '/api/inventory/recipes') });

/** The catalogue the recipes are for, under 'products' so the menu's live events keep it current. */
export const useRecipeCatalogue = () => {
  useLiveQueries(
    ['products'],
    [
      ['products', 'all'],
      ['products', 'modifier-groups'],
    ],
  );
  const products = useQuery({
    queryKey: ['products', 'all'],
    queryFn: async () => (await get(ProductsResponseSchema, '/api/products')).products,
  });
  const groups = useQuery({
    queryKey: ['products', 'modifier-groups'],
    queryFn: async () => (await get(ModifierGroupsResponseSchema, '/api/modifier-groups')).groups,
  });
  return { products: products.data ?? [], groups: groups.data ?? [] };
};

/**
 * An inventory write with its Idempotency-Key: the same key while the same body is retried (a
 * lost answer never writes twice), a new one once it succeeded or the form changed.
 */
export function useKeyedWrite(prefix: string) {
  const attempt = useRef<{ body: string; key: string } | null>(null);
  return async <T>(schema: ResponseSchema<T>, method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> => {
    const text = `${method} ${path} ${JSON.stringify(body ?? null)}`;
    if (attempt.current?.body !== text) attempt.current = { body: text, key: newIdempotencyKey(prefix) };
    const result = await api(schema, method, path, body, { 'idempotency-key': attempt.current.key });
    attempt.current = null;
    return result;
  };
}
