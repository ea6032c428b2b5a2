import type { TipRow, TipsResponse } from '@comanda/contract';
import {
  DEFAULT_TIP_POOL,
  isValidPool,
  poolShares,
  tipsByWaiter,
  type PoolMember,
  type TipPayment,
  type TipPoolRules,
  addCents,
  maxCents,
  subtractCents,
  ZERO,
} from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';
import { readConfig } from '../config-store.ts';

export const TIP_POOL_CONFIG_KEY = 'tipPool';
/** Orders with no waiter (a Barra tab): their tips are listed, never paid out nor pooled. */
export const NO_WAITER_ID = '';
const NO_WAITER_NAME = 'Sin mesero';

export async function readTipPool(db: Trx): Promise<TipPoolRules> {
  const stored = await readConfig<TipPoolRules>(db, TIP_POOL_CONFIG_KEY);
  return stored && isValidPool(stored.percents) ? stored : DEFAULT_TIP_POOL;
}

export interface TipWindow {
  /** [from, to) in epoch ms. */
  from: number;
  to: number;
  /** Payouts of this session only (a session's tips are paid from it); null: payouts in the window. */
  sessionId: string | null;
}

/**
 * Tips per person in a window: payments made in it (several per order, each with its tip; the
 * waiter is the order's), payouts made in it (or in the session), and with pooling on, each
 * person's share of the card and transfer tips. `owed` = share − paid, never negative.
 */
export async function tipRows(db: Trx, w: TipWindow): Promise<{ rows: TipRow[]; pool: TipPoolRules }> {
  const payments = await db
    .selectFrom('payments')
    .innerJoin('orders', 'orders.id', 'payments.order_id')
    .select(['payments.method', 'payments.tip_amount', 'orders.waiter_id', 'orders.waiter_name'])
    .where('payments.created_at', '>=', w.from)
    .where('payments.created_at', '<', w.to)
    .where('payments.tip_amount', '>', 0)
    .execute();
  let payouts = db.selectFrom('drawer_movements').select(['recipient_id', 'recipient_name', 'amount']).where('kind', '=', 'propinas');
  payouts = w.sessionId
    ? payouts.where('session_id', '=', w.sessionId)
    : payouts.where('created_at', '>=', w.from).where('created_at', '<', w.to);
  const paid = await payouts.execute();
  const tipPayments: TipPayment[] = payments.map((p) => ({
    waiterId: p.waiter_id ?? NO_WAITER_ID,
    waiterName: p.waiter_name ?? NO_WAITER_NAME,
    method: p.method,
    tip: Number(p.tip_amount),
  }));
  const waiters = tipsByWaiter(
    tipPayments,
    paid.map((p) => ({ userId: p.recipient_id ?? NO_WAITER_ID, userName: p.recipient_name ?? '', amount: Number(p.amount) })),
  );
  const pool = await readTipPool(db);
  const users = await db.selectFrom('users').select(['id', 'display_name', 'role', 'active']).execute();
  const roleOf = (id: string) => users.find((u) => u.id === id)?.role ?? 'waiter';
  const rows: TipRow[] = waiters.map((r) => ({
    userId: r.userId,
    name: r.name,
    role: r.userId === NO_WAITER_ID ? '' : roleOf(r.userId),
    cash: r.cash,
    card: r.card,
    transfer: r.transfer,
    share: r.earned,
    paid: r.paid,
    owed: r.userId === NO_WAITER_ID ? ZERO : r.owed,
  }));
  if (!pool.enabled) return { rows, pool };

  const staff: PoolMember[] = users
    .filter((u) => u.active !== 0 && (u.role === 'kitchen' || u.role === 'barra'))
    .map((u) => ({ userId: u.id, name: u.display_name, role: u.role as 'kitchen' | 'barra' }));
  const shares = poolShares(
    waiters.filter((r) => r.userId !== NO_WAITER_ID).map((r) => ({ userId: r.userId, name: r.name, earned: r.earned })),
    staff,
    pool.percents,
  );
  for (const row of rows) row.share = ZERO;
  for (const s of shares) {
    let row = rows.find((r) => r.userId === s.userId);
    if (!row) {
      row = { userId: s.userId, name: s.name, role: s.role, cash: ZERO, card: ZERO, transfer: ZERO, share: ZERO, paid: ZERO, owed: ZERO };
      rows.push(row);
    }
    row.share = s.amount;
  }
  for (const row of rows) row.owed = row.userId === NO_WAITER_ID ? ZERO : maxCents(ZERO, subtractCents(row.share, row.paid));
  rows.sort((a, b) => a.name.localeCompare(b.name, 'es') || a.userId.localeCompare(b.userId));
  return { rows, pool };
}

export function tipTotals(rows: readonly TipRow[]): TipsResponse['totals'] {
  const sum = (k: 'cash' | 'card' | 'transfer' | 'paid' | 'owed') => addCents(...rows.map((r) => r[k]));
  return { cash: sum('cash'), card: sum('card'), transfer: sum('transfer'), paid: sum('paid'), owed: sum('owed') };
}
