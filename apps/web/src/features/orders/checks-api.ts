import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type SplitChecksBody, SplitChecksResponseSchema, TableChecksResponseSchema } from '@comanda/contract';
import { get, onlineOnly, post } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/ids.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

// Separate checks (docs/decisions/0014-checks-are-orders.md): a check is an order of the table.

export const tableChecksKey = (tableId: string) => ['table-checks', tableId] as const;

/** The table's open orders the user may see (its checks, or the bar's tabs), kept current by `tables`. */
export function useTableChecks(tableId: string) {
  const key = tableChecksKey(tableId);
  useLiveQueries(['tables'], [key]);
  return useQuery({
    queryKey: key,
    queryFn: async () => (await get(TableChecksResponseSchema, `/api/tables/${tableId}/checks`)).checks,
    enabled: tableId !== '',
  });
}

/** Splits the order by item; the answer is the order, then its new checks. */
export function useSplitChecks(tableId: string, orderId: string) {
  const qc = useQueryClient();
  return useMutation({
    // A split depends on the units as the server holds them now: never queued.
    mutationFn: async (body: SplitChecksBody) =>
      (
        await onlineOnly(t.equalShares.offline, () =>
          post(SplitChecksResponseSchema, `/api/orders/${orderId}/checks`, body, { 'Idempotency-Key': newIdempotencyKey('split') }),
        )
      ).orders,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['table-order', tableId] });
      void qc.invalidateQueries({ queryKey: tableChecksKey(tableId) });
    },
  });
}
