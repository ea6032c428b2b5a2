import type { ItemStatus } from './item-status.ts';
import { activeItems } from './order-math.ts';

export const PAYMENT_GATE_MESSAGES = {
  undelivered: 'No puedes proceder al pago: la orden tiene ítems pendientes, en preparación o listos (no entregados).',
  cannotCharge: 'No puedes cobrar: hay items sin entregar',
  empty: 'Agrega al menos un producto para proceder',
} as const;

export type PaymentGateResult = { ok: true } | { ok: false; reason: 'empty' | 'undelivered'; message: string };

/**
 * Payment is allowed only once every non-deleted item has reached the table
 * (SPEC §4), so nobody pays for something the kitchen has not sent out yet.
 */
export function paymentGate(items: readonly { isDeleted: boolean; status: ItemStatus }[], shareAmount = 0): PaymentGateResult {
  const active = activeItems(items);
  // An equal-share check owes its share of another check's items with none of its own.
  if (active.length === 0 && shareAmount > 0) return { ok: true };
  if (active.length === 0) {
    return { ok: false, reason: 'empty', message: PAYMENT_GATE_MESSAGES.empty };
  }
  if (active.some((item) => item.status !== 'entregado')) {
    return { ok: false, reason: 'undelivered', message: PAYMENT_GATE_MESSAGES.undelivered };
  }
  return { ok: true };
}

/** For the Cobrar buttons, which are simply disabled while the gate is closed. */
export function canCharge(items: readonly { isDeleted: boolean; status: ItemStatus }[], shareAmount = 0): boolean {
  return paymentGate(items, shareAmount).ok;
}
