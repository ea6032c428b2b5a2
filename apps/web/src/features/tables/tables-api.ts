import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, get, post, requireOnline } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { afterFirstScreen } from '../../lib/after-first-screen.ts';
import { useLivePatchedQuery } from '../../lib/use-live.ts';
import { useSession } from '../../lib/session.ts';
import { patchTablesFromEvent, type Table } from '@comanda/contract';

import { TABLES_KEY } from '../../lib/boot.ts';

export { TABLES_KEY };

/**
 * The response schemas, loaded on the first call (and warmed 1 s after the screen is up): the tables
 * show from the HTML's data without evaluating zod first (decision 0032).
 */
export const tablesSchemas = () =>
  import('./tables-schemas.ts').catch(() => {
    throw new ApiError(0, 'network', t.app.unavailable);
  });

/**
 * Every table with its order summary, kept current by the `tables` events. Every order change also
 * publishes on `tables` (emitOrderChanged), so listening to `orders` as well only doubled the
 * refetches of every phone on every change. Another waiter's table is patched from the event's
 * public state; the waiter's own work and an admin's list are read again (table-live-patch.ts).
 */
export function useTables() {
  const me = useSession().data;
  useLivePatchedQuery<'tables', Table[]>(['tables'], TABLES_KEY, (cached, event) => patchTablesFromEvent(cached, event, me));
  // Warmed a moment after the screen is up, not while its first frame is being drawn.
  useEffect(() => afterFirstScreen(() => void tablesSchemas().catch(() => undefined)), []);
  return useQuery({
    queryKey: TABLES_KEY,
    queryFn: async () => (await get((await tablesSchemas()).TablesResponseSchema, '/api/tables')).tables,
  });
}

/** Opens a free table; the caller navigates to its order on success. */
export function useOpenTable() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (tableId: string) => {
      requireOnline(t.offline.openTable); // a table cannot be opened from the outbox
      const { OrderResponseSchema } = await tablesSchemas();
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
    mutationFn: async (tableId: string) =>
      (await post((await tablesSchemas()).TableResponseSchema, `/api/tables/${tableId}/release`)).table,
    onSettled: () => void qc.invalidateQueries({ queryKey: TABLES_KEY }),
  });
}
