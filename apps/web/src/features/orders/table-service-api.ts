import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MoveItemsResponseSchema,
  OrderResponseSchema,
  type MoveLine,
  type Order,
  ServiceWaitersResponseSchema,
  TablesResponseSchema,
} from '@comanda/contract';
import { get, onlineOnly, post, type ResponseSchema } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/ids.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useLiveQueries } from '../../lib/use-live.ts';
import { tableOrderKey } from './order-api.ts';

const TABLES_KEY = ['tables'] as const;
const WAITERS_KEY = ['service', 'waiters'] as const;

/** The tables a move can go to, kept current by the `tables` topic (same cache as the tables pages). */
export function useServiceTables(enabled: boolean) {
  useLiveQueries(enabled ? ['tables'] : [], [TABLES_KEY]);
  return useQuery({ queryKey: TABLES_KEY, queryFn: async () => (await get(TablesResponseSchema, '/api/tables')).tables, enabled });
}

export function useServiceWaiters(enabled: boolean) {
  return useQuery({
    queryKey: WAITERS_KEY,
    queryFn: async () => (await get(ServiceWaitersResponseSchema, '/api/service/waiters')).waiters,
    enabled,
    staleTime: 60_000,
  });
}

/**
 * Every move needs the server (none waits in the outbox: it depends on the target table as the
 * server holds it now) and carries its own Idempotency-Key.
 */
function send<T>(schema: ResponseSchema<T>, path: string, body: unknown): Promise<T> {
  return onlineOnly(t.tableService.offline, () => post(schema, path, body, { 'Idempotency-Key': newIdempotencyKey('move') }));
}

/** The four table service moves of one order; each answer is stored under its table's order. */
export function useTableServiceActions(order: Order) {
  const qc = useQueryClient();
  const base = `/api/orders/${order.id}`;
  const settle = () => {
    void qc.invalidateQueries({ queryKey: TABLES_KEY });
    void qc.invalidateQueries({ queryKey: tableOrderKey(order.tableId) });
  };
  const store = (o: Order) => qc.setQueryData(tableOrderKey(o.tableId), o);
  return {
    transfer: useMutation({
      mutationFn: async (tableId: string) => (await send(OrderResponseSchema, `${base}/transfer`, { tableId })).order,
      onSuccess: store,
      onSettled: settle,
    }),
    changeWaiter: useMutation({
      mutationFn: async (input: { waiterId: string; pin?: string }) => (await send(OrderResponseSchema, `${base}/waiter`, input)).order,
      onSuccess: store,
      onSettled: settle,
    }),
    merge: useMutation({
      mutationFn: async (targetTableId: string) => (await send(OrderResponseSchema, `${base}/merge`, { targetTableId })).order,
      onSuccess: store,
      onSettled: settle,
    }),
    moveItems: useMutation({
      mutationFn: (input: { targetTableId: string; lines: MoveLine[] }) => send(MoveItemsResponseSchema, `${base}/move-items`, input),
      onSuccess: (answer) => {
        store(answer.source);
        store(answer.target);
      },
      onSettled: settle,
    }),
  };
}
