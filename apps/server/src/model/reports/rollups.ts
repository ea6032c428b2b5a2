import { slotAt, type TaxBreakdown } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import type { Trx } from '../../http/transaction.ts';
import type { Rider } from '../../db/compiled.ts';
import type { OrderAdjustmentRow, OrderItemRow, OrderRow, PaymentRow } from '../../db/schema.ts';
import { getGeneralConfig } from '../config-store.ts';
import { addRollup, emptyRollups, upsertRollups, withDayRows, type RollupSet } from './rollup-set.ts';

/**
 * The write side of the owner reports (docs/decisions/0020-report-rollups.md): called inside the
 * transaction that closes, voids or cancels, so a report never sees half of a change and a
 * rolled-back close adds nothing. Keys are the business-local hour of the event.
 */
export async function businessTimezone(ctx: AppContext, trx: Trx): Promise<string> {
  return (await getGeneralConfig(trx, ctx.config.BUSINESS_TIMEZONE)).timezone;
}

const n = (v: number | string | null | undefined): number => (v == null ? 0 : Number(v));

/** A paid order as finishPaidOrder holds it: its row as written, every line, its payments and live adjustments. */
export interface PaidOrderRows {
  row: Pick<OrderRow, 'waiter_id' | 'waiter_name' | 'subtotal' | 'discount' | 'comp' | 'tip' | 'total' | 'completed_at' | 'tax_breakdown'>;
  items: readonly Pick<OrderItemRow, 'product_id' | 'product_name' | 'category' | 'quantity' | 'product_price' | 'is_deleted'>[];
  payments: readonly Pick<PaymentRow, 'method' | 'amount' | 'tip_amount'>[];
  adjustments: readonly Pick<OrderAdjustmentRow, 'kind' | 'reason' | 'created_by' | 'created_by_name' | 'units' | 'amount'>[];
}

/** A paid order (after finishPaidOrder wrote it): its sales, products, waiter, payments and discounts. */
export async function rollUpPaidOrder(
  trx: Trx,
  paid: PaidOrderRows,
  timezone: string,
  /** INSERTs that go along with the rollups' statement (a close's audit entry and ticket jobs). */
  riders: readonly Rider[] = [],
): Promise<void> {
  await upsertRollups(trx, paidOrderRollups(paid, timezone), { oneCall: true, riders });
}

/** What a paid order adds to the reports (rollUpPaidOrder's rows), not yet written. */
export function paidOrderRollups(paid: PaidOrderRows, timezone: string): RollupSet {
  const order = paid.row;
  const slot = slotAt(n(order.completed_at), timezone);
  const items = paid.items.filter((i) => Number(i.is_deleted) === 0);
  const { payments, adjustments } = paid;

  const set = emptyRollups();
  const units = items.reduce((acc, i) => acc + n(i.quantity), 0);
  addRollup(set, 'report_sales', {
    slot,
    orders: 1,
    items: units,
    subtotal: n(order.subtotal),
    discount: n(order.discount),
    comp: n(order.comp),
    tips: n(order.tip),
    total: n(order.total),
  });
  for (const i of items) {
    addRollup(set, 'report_products', {
      slot,
      product_id: i.product_id,
      product_name: i.product_name,
      category: i.category,
      units: n(i.quantity),
      amount: n(i.quantity) * n(i.product_price),
    });
  }
  addRollup(set, 'report_waiters', {
    slot,
    waiter_key: order.waiter_id ?? '',
    waiter_name: order.waiter_name ?? '',
    orders: 1,
    total: n(order.total),
    tips: n(order.tip),
  });
  for (const p of payments)
    addRollup(set, 'report_methods', { slot, method: p.method, payments: 1, amount: n(p.amount), tips: n(p.tip_amount) });
  if (order.tax_breakdown) addTaxRollups(set, slot, JSON.parse(order.tax_breakdown) as TaxBreakdown);
  for (const a of adjustments) {
    addRollup(set, 'report_losses', {
      slot,
      kind: a.kind,
      reason: a.reason,
      user_key: a.created_by,
      user_name: a.created_by_name,
      count: 1,
      units: n(a.units),
      amount: n(a.amount),
    });
  }
  return withDayRows(set);
}

/** A paid check's frozen breakdown into the tax rollup, a row per group (never recomputed here). */
export function addTaxRollups(set: RollupSet, slot: number, breakdown: TaxBreakdown): void {
  for (const g of breakdown.groups)
    addRollup(set, 'report_taxes', {
      slot,
      treatment: g.treatment,
      ieps_rate_bp: String(g.iepsRateBp ?? 0),
      base: g.base,
      tax: g.tax,
      ieps: g.ieps ?? 0,
      amount: g.amount,
    });
}

export interface LossEvent {
  kind: 'void' | 'cancel';
  at: number;
  reason: string | null;
  user: { id: string; displayName: string };
  units: number;
  amount: number;
}

/** A void of units (at the void's instant) or an order's cancellation (at the cancel's instant). */
export async function rollUpLoss(trx: Trx, event: LossEvent, timezone: string): Promise<void> {
  const set = emptyRollups();
  addRollup(set, 'report_losses', {
    slot: slotAt(event.at, timezone),
    kind: event.kind,
    reason: event.reason ?? '',
    user_key: event.user.id,
    user_name: event.user.displayName,
    count: 1,
    units: event.units,
    amount: event.amount,
  });
  await upsertRollups(trx, withDayRows(set), { oneCall: true });
}
