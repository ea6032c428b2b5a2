import type { Cents } from './money.ts';
import { ZERO, cents } from './money.ts';

export const CASH_HINT = 'Verifica el cambio antes de finalizar';

/** Change to hand back; a short payment gives no change rather than a negative one. */
export function changeDue(received: Cents, total: Cents): Cents {
  return received > total ? cents(received - total) : ZERO;
}

/** How much is still missing when the customer hands over less than the total. */
export function cashShortfall(received: Cents, total: Cents): Cents {
  return total > received ? cents(total - received) : ZERO;
}

export function isCashSufficient(received: Cents, total: Cents): boolean {
  return received >= total;
}
