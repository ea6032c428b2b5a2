import type { Order } from '@comanda/contract';
import { perPersonAmount, splitDiffers, type Cents } from '@comanda/domain';

/** Amounts the ticket shows; for an unpaid order the checkout passes its preview figures. */
export interface TicketFigures {
  subtotal: Cents;
  /** Discounts and comps (cortesías) taken off the subtotal; absent or 0: not shown. */
  discount?: number;
  comp?: number;
  /** Equal shares: what other checks pay of these items (shown negative), or this check's share. */
  sharedOut?: number;
  shareAmount?: number;
  tip: Cents;
  tipBps: number;
  total: Cents;
  perPerson: Cents;
  /** The table's guests (Personas). */
  peopleCount: number;
  /** The split calculator, when it divides by other than the guests: "Dividido entre N", each part. */
  split?: { count: number; each: Cents } | null;
}

/** The calculator's division for the ticket, or null when it is one part per guest. */
export function splitFigure(total: Cents, guests: number, splitCount: number | null | undefined): TicketFigures['split'] {
  const count = splitDiffers(guests, splitCount);
  return count === null ? null : { count, each: perPersonAmount(total, count) };
}

/** The figures of a closed order exactly as the server stored them (reprints, paid checkout). */
export function storedTicketFigures(order: Order): TicketFigures {
  const payment = order.payments[0];
  const peopleCount = Math.max(1, order.peopleCount);
  return {
    subtotal: order.subtotal,
    discount: order.discount ?? 0,
    comp: order.comp ?? 0,
    sharedOut: order.sharedOut ?? 0,
    shareAmount: order.shareAmount ?? 0,
    tip: order.tip,
    tipBps: payment ? payment.tipBps : 0,
    total: order.total,
    perPerson: perPersonAmount(order.total, peopleCount),
    peopleCount,
    split: splitFigure(order.total, peopleCount, order.splitCount),
  };
}

/** '15 %' style label of a basis-point rate, with decimals only when needed ('12.5%'). */
export function percentLabel(bps: number): string {
  const value = bps / 100;
  return `${Number.isInteger(value) ? value : value.toFixed(2).replace(/0+$/, '')}%`;
}
