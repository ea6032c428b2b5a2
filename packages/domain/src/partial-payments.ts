import type { Cents } from './money.ts';
import { ZERO, cents, formatMXN } from './money.ts';
import { splitCents } from './split.ts';

/**
 * Mixed and partial payments of one order (docs/decisions/0015). A payment row holds the
 * money taken (`amount`, its tip included) and its tip; what it pays of the order is
 * amount − tip. The balance is what is still owed; the order closes when it reaches zero,
 * so the paid parts sum exactly to the amount owed and the payments to the order's total.
 */
export interface PaymentPart {
  amount: number;
  tipAmount: number;
}

export const PARTIAL_PAYMENT_MESSAGES = {
  notPositive: 'El monto del pago debe ser mayor a cero',
  settled: 'La orden ya no tiene saldo pendiente',
  overBalance: (balance: Cents) => `El monto excede el saldo pendiente (${formatMXN(balance)})`,
} as const;

/** What one payment pays of the order (its amount without its tip). */
export function paidPart(payment: PaymentPart): Cents {
  return cents(payment.amount - payment.tipAmount);
}

/** The sum of the parts already paid. */
export function paidTowardOwed(payments: readonly PaymentPart[]): Cents {
  return payments.reduce<Cents>((sum, p) => cents(sum + paidPart(p)), ZERO);
}

/** What is still owed; negative only if items were removed below what was paid. */
export function paymentBalance(owed: Cents, payments: readonly PaymentPart[]): Cents {
  return cents(owed - paidTowardOwed(payments));
}

/** Sum of the tips of the payments: the order's tip. */
export function paymentsTip(payments: readonly PaymentPart[]): Cents {
  return payments.reduce<Cents>((sum, p) => cents(sum + p.tipAmount), ZERO);
}

/** Why a part cannot be paid against this balance (Spanish, for the cashier); null when it can. */
export function partialPaymentError(balance: Cents, part: Cents): string | null {
  if (balance <= 0) return PARTIAL_PAYMENT_MESSAGES.settled;
  if (!Number.isSafeInteger(part) || part <= 0) return PARTIAL_PAYMENT_MESSAGES.notPositive;
  if (part > balance) return PARTIAL_PAYMENT_MESSAGES.overBalance(balance);
  return null;
}

/**
 * N equal shares of a balance, through splitCents, with the leftover centavos on the LAST
 * shares: the shares sum exactly to the balance and differ by at most one centavo.
 */
export function equalShares(balance: Cents, parts: number): Cents[] {
  return splitCents(balance, parts).reverse();
}

/**
 * The share proposed next when `sharesLeft` shares remain: the first of the equal shares of
 * what is still owed, so the last share is always exactly the balance left.
 */
export function nextShare(balance: Cents, sharesLeft: number): Cents {
  if (balance <= 0) return ZERO;
  return equalShares(balance, Math.max(1, Math.floor(sharesLeft)))[0] ?? balance;
}

/** The method of a paid order as one word: the one that took the most money (first on a tie). */
export function dominantMethod<M extends string>(payments: readonly { method: M; amount: number }[]): M | null {
  const totals = new Map<M, number>();
  for (const p of payments) totals.set(p.method, (totals.get(p.method) ?? 0) + p.amount);
  let best: M | null = null;
  for (const [method, total] of totals) if (best === null || total > (totals.get(best) ?? 0)) best = method;
  return best;
}
