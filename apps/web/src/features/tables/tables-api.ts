import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OrderResponseSchema, TableResponseSchema, TablesResponseSchema } from '@comanda/contract';
import { get, post, requireOnline } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

import { TABLES_KEY } from '../../lib/boot.ts';

export { TABLES_KEY };

/**
 * Every table with its order summary, refetched on any table event. Every order change also
 * publishes on `tables` (emitOrderChanged), so listening to `orders` as well only doubled the
 * refetches of every phone on every change.
 */
export function useTables() {
  useLiveQueries(['tables'], [TABLES_KEY]);
  return useQuery({ queryKey: TABLES_KEY, queryFn: async () => (await get(TablesResponseSchema, '/api/tables')).tables });
}

/** Opens a free table; the caller navigates to its order on success. */
export function useOpenTable() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (tableId: string) => {
      requireOnline(t.offline.openTable); // a table cannot be opened from the outbox
      return (await post(OrderResponseSchema, `/api/tables/${tableId}/open`)).order;
    },
    onSuccess: (order) => qc.setQueryData(['table-order', order.tableId], order),
    onSettled: () => qc.invalidateQueries({ queryKey: TABLES_KEY }),
  });
}

/** Frees an occupied table left without an active order (admin only; the server re-checks). */
export function useReleaseTable() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (tableId: string) => (await post(TableResponseSchema, `/api/tables/${tableId}/release`)).table,
    onSettled: () => qc.invalidateQueries({ queryKey: TABLES_KEY }),
  });
}
