import { useSearchParams } from 'react-router';
import { activeItems, checkOwed, orderSubtotal, owedAmount, paymentGate, tableLabel } from '@comanda/domain';
import type { Order, UpdateOrderBody } from '@comanda/contract';
import { ApiError } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useNow } from '../../lib/use-now.ts';
import { useOrderActions, useTableOrder } from './order-api.ts';
import { useOrderDialogs } from './order-dialogs.tsx';
import { useOutboxEntries, type OutboxEntry } from '../../lib/outbox/index.ts';

/** Guest count and table name waiting in the outbox show as already set. */
function withQueuedUpdates(order: Order, entries: OutboxEntry[]): Order {
  let shown = order;
  for (const e of entries) {
    if (e.kind !== 'update-order' || e.state !== 'pending' || e.orderId !== order.id) continue;
    const body = e.body as UpdateOrderBody;
    shown = {
      ...shown,
      peopleCount: body.peopleCount ?? shown.peopleCount,
      tableName: body.tableName !== undefined ? body.tableName : shown.tableName,
    };
  }
  return shown;
}

/** Everything both order screens need for the active order of one table. */
export function useOrderScreen(tableId: string) {
  // ?cuenta=<orderId>: one of several open orders of the table (separate checks, bar tabs: 0014).
  const cuenta = useSearchParams()[0].get('cuenta');
  const query = useTableOrder(tableId, cuenta);
  // 403 on a screen that had the order: the table was handed to another waiter, so for this user
  // it is gone like a paid one. Opened directly, another waiter's table stays an error (SPEC).
  const notFound =
    query.error instanceof ApiError && (query.error.status === 404 || (query.error.status === 403 && query.data !== undefined));
  // Once paid or cancelled the table has no active order: a refetch answers 404 and the stale copy goes.
  const entries = useOutboxEntries();
  const order = notFound || !query.data ? undefined : withQueuedUpdates(query.data, entries);
  const queued = order ? entries.filter((e) => e.orderId === order.id && e.state === 'pending' && e.preview !== null) : [];
  // A refused change may outlive its order's screen: its notice says which table it was for.
  const actions = useOrderActions(tableId, order?.id ?? '', order ? `${tableLabel(order.tableNumber)} · ` : '', cuenta);
  const dialogs = useOrderDialogs(order, order ? actions : null);
  const now = useNow(30_000);

  // The spec keeps these saves silent for the user; the console keeps the trace.
  const save = (body: UpdateOrderBody, failure: string) =>
    actions.update.mutate(body, { onError: (error) => console.error(failure, error) });

  return {
    query,
    order,
    /** Items and units waiting in the outbox, shown as "pendiente de envío". */
    queued,
    notFound,
    now,
    dialogs,
    readOnly: order ? order.status !== 'activo' : true,
    // What is owed: the items less the discounts and comps the server keeps on the order, and
    // equal shares applied.
    total: order
      ? checkOwed({
          owed: owedAmount({
            subtotal: orderSubtotal(order.items),
            discounts: order.discount ?? 0,
            comps: order.comp ?? 0,
          }),
          sharedOut: order.sharedOut ?? 0,
          shareAmount: order.shareAmount ?? 0,
        })
      : 0,
    /** What the lines waiting in the outbox will add, at the prices shown with them (unknown prices left out). */
    pendingTotal: queued.reduce((sum, e) => sum + (e.preview?.productPrice ?? 0) * (e.preview?.quantity ?? 0), 0),
    isEmpty: order ? activeItems(order.items).length === 0 : true,
    gate: paymentGate(order?.items ?? [], order?.shareAmount ?? 0),
    setGuests: (peopleCount: number) => save({ peopleCount }, t.order.peopleError),
    setTableName: (tableName: string | null) => save({ tableName }, t.order.tableNameError),
    setAdminComments: (adminComments: string | null) => save({ adminComments }, t.order.commentsError),
  };
}

export type OrderScreen = ReturnType<typeof useOrderScreen>;
