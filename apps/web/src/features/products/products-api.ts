import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type Product,
  type ProductBody,
  MenuImportResultSchema,
  OkSchema,
  ProductResponseSchema,
  ProductsResponseSchema,
} from '@comanda/contract';
import { del, get, patch, post, put } from '../../lib/api.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

/** Every products query starts with 'products', so one live event refreshes them all. */
export const PRODUCTS_KEY = ['products'] as const;
const ALL_KEY = ['products', 'all'] as const;

export function useAllProducts() {
  useLiveQueries(['products'], [PRODUCTS_KEY]);
  return useQuery({ queryKey: ALL_KEY, queryFn: async () => (await get(ProductsResponseSchema, '/api/products')).products });
}

export function useProductMutations() {
  const qc = useQueryClient();
  const onSettled = () => qc.invalidateQueries({ queryKey: PRODUCTS_KEY });
  return {
    create: useMutation({ mutationFn: (body: ProductBody) => post(ProductResponseSchema, '/api/products', body), onSettled }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: string; body: ProductBody }) => put(ProductResponseSchema, `/api/products/${id}`, body),
      onSettled,
    }),
    remove: useMutation({ mutationFn: (id: string) => del(OkSchema, `/api/products/${id}`), onSettled }),
    // Optimistic: the switch moves at once and moves back if the server refuses.
    availability: useMutation({
      mutationFn: ({ id, available }: { id: string; available: boolean }) =>
        patch(ProductResponseSchema, `/api/products/${id}/availability`, { available }),
      onMutate: async ({ id, available }) => {
        await qc.cancelQueries({ queryKey: ALL_KEY });
        const previous = qc.getQueryData<Product[]>(ALL_KEY);
        qc.setQueryData<Product[]>(ALL_KEY, (list) => list?.map((p) => (p.id === id ? { ...p, available } : p)));
        return { previous };
      },
      onError: (_err, _vars, context) => {
        if (context?.previous) qc.setQueryData(ALL_KEY, context.previous);
      },
      onSettled,
    }),
  };
}

/** The menu as a spreadsheet: a plain link downloads it with the session cookie. */
export const MENU_EXPORT_URL = '/api/menu/export.csv';

/** Preview (dryRun) first, then the import itself under one key, so a retry never imports twice. */
export function useMenuImport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ csv, dryRun, key }: { csv: string; dryRun: boolean; key: string }) =>
      post(MenuImportResultSchema, '/api/menu/import', { csv, dryRun }, { 'Idempotency-Key': key }),
    onSettled: (_data, _error, vars) => (vars.dryRun ? undefined : qc.invalidateQueries({ queryKey: PRODUCTS_KEY })),
  });
}
