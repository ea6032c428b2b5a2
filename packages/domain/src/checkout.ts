import type { ItemStatus } from './item-status.ts';
import type { Cents } from './money.ts';
import { cents } from './money.ts';
import { orderSubtotal } from './order-math.ts';
import { paymentGate, type PaymentGateResult } from './payment-gate.ts';
import { clampTipBps, MAX_TIP_BPS, orderTotal, tipAmount } from './tip.ts';

type CheckoutItem = { isDeleted: boolean; status: ItemStatus; productPrice: number; quantity: number };

export type CheckoutGate = { ok: true; subtotal: Cents } | Extract<PaymentGateResult, { ok: false }>;

/**
 * What every checkout path reads first from the order's items: the payment gate (SPEC §4: every
 * non-deleted item delivered) and the subtotal of the non-deleted items. A card charge the
 * terminal already took passes `allowUndelivered`: an item moved back on a board does not refuse
 * money already taken (an empty order still does).
 */
export function checkoutGate(
  items: readonly CheckoutItem[],
  options: { allowUndelivered?: boolean; shareAmount?: number } = {},
): CheckoutGate {
  const gate = paymentGate(items, options.shareAmount ?? 0);
  if (!gate.ok && !(gate.reason === 'undelivered' && options.allowUndelivered === true)) return gate;
  return { ok: true, subtotal: orderSubtotal(items.map((i) => ({ ...i, productPrice: cents(i.productPrice) }))) };
}

/**
 * The tip of one payment: a rate in basis points (the one representation of a tip rate, 1500 =
 * 15 %); or, for a card charge already taken, the rate asked plus what the terminal charged (the
 * tip is what it holds beyond the part); or a tip typed as an amount.
 */
export type TipChoice = { bps: number; chargedTotal?: number } | { amount: number };

export interface ChargeFigures {
  /** The rate stored with the payment: clamped to 0–100 %, or the amount's rate on the part. */
  tipBps: number;
  tip: Cents;
  /** The money taken: part + tip. */
  total: Cents;
}

/**
 * What one payment takes for the part of the order it pays (the balance, or a chosen part of it).
 * The one place the tip rate is clamped and the tip and total are computed, for the checkout's
 * preview, the close, a partial payment, a card charge and its settlement alike. A charged total
 * below the part is the caller's to refuse before (the tip would be negative).
 */
export function chargeFigures(part: Cents, tip: TipChoice): ChargeFigures {
  if ('amount' in tip) {
    const amount = cents(Math.max(0, Math.floor(tip.amount)));
    const tipBps = part > 0 ? Math.min(MAX_TIP_BPS, Math.round((amount * 10_000) / part)) : 0;
    return { tipBps, tip: amount, total: orderTotal(part, amount) };
  }
  const tipBps = clampTipBps(tip.bps);
  const amount = tip.chargedTotal !== undefined ? cents(tip.chargedTotal - part) : tipAmount(part, tipBps);
  return { tipBps, tip: amount, total: orderTotal(part, amount) };
}
