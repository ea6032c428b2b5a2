import { CARD_LIVE_STATES } from './card-payment-states.ts';
import { ORDER_LIMITS } from './limits.ts';
import { takesOrders, mayWorkOrder } from './order-access.ts';

/**
 * The plain case: what PostgreSQL's one-statement writes (the server's db/functions) may do by
 * themselves. Anything else hands over to the TypeScript write, which answers and refuses. The
 * server's gates and the functions' SQL text both read this list; the agreement test predicts
 * with `isPlainAdd` / `isPlainDelete` which writes the functions must take.
 */
export const PLAIN_CASE = {
  /** The order's status: only an open order. */
  orderStatus: 'activo',
  /** The order's figures beyond its lines, all zero: no equal shares, no discount, no comp. */
  zeroFigures: ['share_amount', 'shared_out', 'discount', 'comp'],
  /** No card attempt of the order in these states (the money may still be taken). */
  cardStates: CARD_LIVE_STATES,
  /** Categories the SQL places at a station with certainty: ASCII and Spanish accents (their lower case is the same everywhere). */
  category: /^[ -~ÁÉÍÓÚÜÑáéíóúüñ]*$/,
  /** Comandas or slips one write may print: one per enabled printer of the line's station. */
  maxJobs: 4,
  /**
   * What String.prototype.trim takes off (ECMAScript's WhiteSpace and LineTerminator): the SQL
   * trims a line's notes with these before comparing them, as normalizeOptionalText would.
   */
  trimmed: '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff',
} as const;

/** What the plain case asks of the order, read under its lock. */
export interface PlainOrderFacts {
  status: string;
  waiterId: string | null;
  shareAmount: number;
  sharedOut: number;
  discount: number;
  comp: number;
  /** The order's card attempts in PLAIN_CASE.cardStates. */
  liveCardAttempts: number;
  payments: number;
  /** Discounts and comps not removed. */
  liveAdjustments: number;
}

type Caller = { id: string; role: string };

/** The order is one the fast path may write: open, the caller's to work, nothing on it but its lines. */
export function isPlainOrder(user: Caller, order: PlainOrderFacts | null): boolean {
  if (!order || order.status !== PLAIN_CASE.orderStatus || !mayWorkOrder(user, order.waiterId)) return false;
  const figures = [order.shareAmount, order.sharedOut, order.discount, order.comp];
  return figures.every((f) => f === 0) && order.liveCardAttempts === 0 && order.payments === 0 && order.liveAdjustments === 0;
}

/** An add, as the plain case sees it. */
export interface PlainAddFacts {
  role: string;
  optionIds: number;
  /** The product, or null when there is none. */
  product: { available: boolean; category: string; price: number; requiredOptions: boolean; stationPrinters: number } | null;
  quantity: number;
  promotionsActive: boolean;
  /** The order's lines (deleted ones too) and its subtotal before the add. */
  lines: number;
  subtotal: number;
  /**
   * The add raises a pending line (pendingLineFor found one): its quantity goes up and the order
   * gains no line. The fast path raises it as the TypeScript write does.
   */
  raises: boolean;
}

/** Whether the add may try the fast path at all, before any read: a role that takes orders, no options chosen. */
export function mayTryPlainAdd(role: string, optionIds: number): boolean {
  return takesOrders(role) && optionIds === 0;
}

/** Whether the fast path takes this add (otherwise it hands over). */
export function isPlainAdd(user: Caller, order: PlainOrderFacts | null, add: PlainAddFacts): boolean {
  const p = add.product;
  return (
    mayTryPlainAdd(add.role, add.optionIds) &&
    isPlainOrder(user, order) &&
    p !== null &&
    p.available &&
    PLAIN_CASE.category.test(p.category) &&
    !p.requiredOptions &&
    p.stationPrinters <= PLAIN_CASE.maxJobs &&
    !add.promotionsActive &&
    add.lines + (add.raises ? 0 : 1) <= ORDER_LIMITS.maxLines &&
    add.subtotal + p.price * add.quantity <= ORDER_LIMITS.maxOrderAmount
  );
}

/** A delete, as the plain case sees it: the line (null when the order has none by that id). */
export interface PlainDeleteFacts {
  role: string;
  line: { deleted: boolean; printed: boolean; hasModifiers: boolean; stationPrinters: number } | null;
}

/** Whether the delete may try the fast path at all: a role that takes orders. */
export function mayTryPlainDelete(role: string): boolean {
  return takesOrders(role);
}

/** Whether the fast path takes this delete once its PIN is accepted (otherwise it hands over). */
export function isPlainDelete(user: Caller, order: PlainOrderFacts | null, del: PlainDeleteFacts): boolean {
  const l = del.line;
  return (
    mayTryPlainDelete(del.role) &&
    isPlainOrder(user, order) &&
    l !== null &&
    !l.deleted &&
    !(l.printed && (l.hasModifiers || l.stationPrinters > PLAIN_CASE.maxJobs))
  );
}
