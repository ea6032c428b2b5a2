import type { CancellationGroup, CancellationsReport } from '@comanda/contract';
import { addCents, cents, multiplyCents, ZERO, type Cents } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';
import type { Interval } from '../../model/shift-windows.ts';

export const NO_REASON = 'Sin motivo';

interface Entry {
  reason: string | null;
  userId: string | null;
  userName: string | null;
  amount: Cents;
}

function groupBy(entries: readonly Entry[], key: (e: Entry) => { key: string; label: string }): CancellationGroup[] {
  const groups = new Map<string, CancellationGroup>();
  for (const e of entries) {
    const k = key(e);
    const g = groups.get(k.key) ?? { key: k.key, label: k.label, count: 0, amount: ZERO };
    g.count += 1;
    g.amount = addCents(g.amount, e.amount);
    groups.set(k.key, g);
  }
  return [...groups.values()].sort((a, b) => b.amount - a.amount || b.count - a.count || a.label.localeCompare(b.label, 'es-MX'));
}

const byReason = (e: Entry) => ({ key: e.reason ?? '', label: e.reason ?? NO_REASON });
const byUser = (e: Entry) => ({ key: e.userId ?? '', label: e.userName ?? '—' });

/**
 * Cash close "Cancelaciones": the voids made during the shift window (voided rows with a reason,
 * outside an order cancellation) and the orders cancelled in it, each by reason and by the user
 * who did it. Read from the rows themselves; nothing here is ever counted as a sale.
 * An order's cancellation voids its remaining items at the cancellation instant, which is how
 * those rows are told apart from earlier voids of the same order.
 */
export async function cancellationsReport(db: Trx, window: Interval, date: string): Promise<CancellationsReport> {
  const voidedRows = await db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select([
      'i.void_reason',
      'i.deleted_by',
      'i.deleted_by_name',
      'i.product_price',
      'i.quantity',
      'i.deleted_at',
      'o.status',
      'o.completed_at',
    ])
    .where('i.is_deleted', '=', 1)
    .where('i.void_reason', 'is not', null)
    .where('i.deleted_at', '>=', window.start)
    .where('i.deleted_at', '<', window.end)
    .execute();
  const voids: Entry[] = [];
  let units = 0;
  for (const r of voidedRows) {
    if (r.status === 'cancelado' && Number(r.deleted_at) === Number(r.completed_at)) continue;
    units += r.quantity;
    voids.push({
      reason: r.void_reason,
      userId: r.deleted_by,
      userName: r.deleted_by_name,
      amount: multiplyCents(cents(Number(r.product_price)), r.quantity),
    });
  }

  const cancelledRows = await db
    .selectFrom('orders as o')
    .leftJoin('order_items as i', (join) =>
      join.onRef('i.order_id', '=', 'o.id').on('i.is_deleted', '=', 1).onRef('i.deleted_at', '=', 'o.completed_at'),
    )
    .select(['o.id', 'o.cancel_reason', 'o.cancelled_by', 'o.cancelled_by_name', 'i.product_price', 'i.quantity'])
    .where('o.status', '=', 'cancelado')
    .where('o.completed_at', '>=', window.start)
    .where('o.completed_at', '<', window.end)
    .execute();
  const orders = new Map<string, Entry>();
  for (const r of cancelledRows) {
    const e = orders.get(r.id) ?? { reason: r.cancel_reason, userId: r.cancelled_by, userName: r.cancelled_by_name, amount: ZERO };
    if (r.product_price !== null && r.quantity !== null)
      e.amount = addCents(e.amount, multiplyCents(cents(Number(r.product_price)), Number(r.quantity)));
    orders.set(r.id, e);
  }
  const cancelled = [...orders.values()];
  const sum = (list: Entry[]) => addCents(...list.map((e) => e.amount));
  return {
    date,
    voids: { count: voids.length, units, amount: sum(voids), byReason: groupBy(voids, byReason), byUser: groupBy(voids, byUser) },
    cancelledOrders: {
      count: cancelled.length,
      amount: sum(cancelled),
      byReason: groupBy(cancelled, byReason),
      byUser: groupBy(cancelled, byUser),
    },
  };
}
