import { parseScaled } from './decimal.ts';

/** Integer centavos. The brand keeps pesos, quantities and rates from being mixed in. */
export type Cents = number & { readonly __brand: 'Cents' };

export function cents(n: number): Cents {
  if (!Number.isSafeInteger(n)) {
    throw new RangeError(`Cents must be a safe integer, got ${n}`);
  }
  return (n + 0) as Cents; // normalises -0
}

export const ZERO: Cents = cents(0);

/** `cents` for a nullable figure (a column that may hold no amount). */
export function centsOrNull(n: number | null): Cents | null {
  return n === null ? null : cents(n);
}

/** Parses '12', '12.5', '$1,234.50' or 12.5; rounds half away from zero; null when unreadable. */
export function pesosToCents(input: number | string): Cents | null {
  const value = parseScaled(input, 2);
  return value === null ? null : cents(value);
}

/** Plain '1234.50', for provider payloads and form inputs. */
export function centsToPesos(c: Cents): string {
  const abs = Math.abs(c);
  const rest = abs % 100;
  // Integer division by subtraction first: abs / 100 can round up near 2^53.
  const whole = (abs - rest) / 100;
  return `${c < 0 ? '-' : ''}${whole}.${String(rest).padStart(2, '0')}`;
}

// Built on first use: building it costs a slow phone tens of milliseconds, which a screen
// that shows no amount (the tables home with no open table) should not pay before its first paint.
let mxn: Intl.NumberFormat | undefined;

/** '$1,234.50': what staff and customers read. */
export function formatMXN(c: Cents): string {
  mxn ??= new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' });
  return mxn.format(c / 100);
}

export function addCents(...xs: Cents[]): Cents {
  let total = 0;
  for (const x of xs) total += x;
  return cents(total);
}

export function subtractCents(a: Cents, b: Cents): Cents {
  return cents(a - b);
}

export function multiplyCents(c: Cents, qty: number): Cents {
  if (!Number.isSafeInteger(qty)) {
    throw new RangeError(`Quantity must be an integer, got ${qty}`);
  }
  return cents(c * qty);
}

/**
 * c × bps / 10000, rounded half up on the magnitude (a negative amount mirrors its
 * positive). BigInt because amount × bps overflows 2^53 well before the amount does.
 */
export function applyRateBps(c: Cents, bps: number): Cents {
  if (!Number.isSafeInteger(bps)) {
    throw new RangeError(`Basis points must be an integer, got ${bps}`);
  }
  const product = BigInt(c) * BigInt(bps);
  const magnitude = product < 0n ? -product : product;
  const rounded = (magnitude + 5000n) / 10000n;
  return cents(Number(product < 0n ? -rounded : rounded));
}

export function maxCents(a: Cents, b: Cents): Cents {
  return a >= b ? a : b;
}

export function isCents(n: unknown): n is Cents {
  return typeof n === 'number' && Number.isSafeInteger(n);
}
