import { cents, formatMXN, type Cents } from './money.ts';

/**
 * How big one order may grow. Checked by the server inside the transaction that adds to the
 * order, so no request (nor a burst of them) can push an order past what the API presents.
 */
export const ORDER_LIMITS = {
  /** Units per add, which is also units per line: '+ unidad' adds a new line. */
  maxLineQuantity: 99,
  /**
   * Item lines per order, deleted ones included (they stay on the ticket). QUALITY.md asks for
   * 1,000 concurrent adds to one order, so this is the floor of what a big party may need.
   */
  maxLines: 1000,
  /** Subtotal of the non-deleted items: $1,000,000.00. */
  maxOrderAmount: cents(100_000_000),
} as const;

export const LIMIT_MESSAGES = {
  quantity: `La cantidad máxima por línea es ${ORDER_LIMITS.maxLineQuantity}`,
  lines: `La orden llegó al máximo de ${ORDER_LIMITS.maxLines} líneas. Cobra esta orden y abre otra para seguir.`,
  amount: (subtotal: Cents): string =>
    `La orden no puede pasar de ${formatMXN(ORDER_LIMITS.maxOrderAmount)} MXN (con este producto quedaría en ${formatMXN(subtotal)} MXN).`,
} as const;

/** Why adding `lines` lines worth `added` centavos to an order would break a limit; null when it fits. */
export function orderLimitError(
  current: { lines: number; subtotal: number },
  adding: { lines: number; amount: number },
): { reason: 'lines' | 'amount'; message: string } | null {
  if (current.lines + adding.lines > ORDER_LIMITS.maxLines) return { reason: 'lines', message: LIMIT_MESSAGES.lines };
  const next = current.subtotal + adding.amount;
  if (next > ORDER_LIMITS.maxOrderAmount) return { reason: 'amount', message: LIMIT_MESSAGES.amount(cents(next)) };
  return null;
}

/** Limits of a browser error report: enough to find the bug, too small to be a storage channel. */
export const CLIENT_ERROR_LIMITS = { message: 500, stack: 4000, url: 1000, userAgent: 400 } as const;
