import type { Cents } from './money.ts';
import { cents } from './money.ts';

export const SPLIT_PRESETS = [1, 2, 3, 4] as const;
export const MAX_SPLIT_COUNT = 100;

const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

/** Split-bill field: non-numeric → 1, otherwise a whole number from 1 to 100. */
export function parseSplitCount(input: string | number): number {
  const value = typeof input === 'number' ? input : NUMERIC.test(input.trim()) ? Number(input) : Number.NaN;
  if (!Number.isFinite(value)) return 1;
  return Math.min(MAX_SPLIT_COUNT, Math.max(1, Math.floor(value)));
}

/** Guest count: a whole number, never below 1 (SPEC §5); NaN or ±Infinity means the default, 1. */
export function clampGuests(n: number): number {
  if (!Number.isFinite(n)) return 1;
  return Math.max(1, Math.floor(n));
}

/**
 * Divides a total into `parts` shares that add back to the total exactly. The
 * leftover centavos go one each to the first shares, so nobody pays more than
 * one centavo above anyone else.
 */
export function splitCents(total: Cents, parts: number): Cents[] {
  if (!Number.isSafeInteger(parts) || parts < 1) {
    throw new RangeError(`Split parts must be an integer >= 1, got ${parts}`);
  }
  const { base, remainder } = divide(total, parts);
  return Array.from({ length: parts }, (_, i) => cents(i < remainder ? base + 1 : base));
}

/** What each guest pays: the largest share, so collecting it never falls short. */
export function perPersonAmount(total: Cents, people: number): Cents {
  const { base, remainder } = divide(total, clampGuests(people));
  return cents(remainder > 0 ? base + 1 : base);
}

// Floor division done with a non-negative remainder first, because total / parts
// in floating point can round up to the next integer for large totals.
function divide(total: number, parts: number): { base: number; remainder: number } {
  const remainder = ((total % parts) + parts) % parts;
  return { base: (total - remainder) / parts, remainder };
}

/**
 * A table's guests shared out over its checks (the order first, then its new checks): as even as
 * whole people allow, the extra ones to the first checks, and never fewer than 1 on a check.
 */
export function shareGuests(guests: number, checks: number): number[] {
  const parts = Math.max(1, Math.floor(checks));
  const { base, remainder } = divide(clampGuests(guests), parts);
  return Array.from({ length: parts }, (_, i) => Math.max(1, i < remainder ? base + 1 : base));
}

/**
 * What the ticket says of the split calculator: 'Dividido entre N' only when the count the check
 * was divided by differs from its guests (null: not divided, or one part per guest).
 */
export function splitDiffers(guests: number, splitCount: number | null | undefined): number | null {
  if (splitCount == null) return null;
  const n = parseSplitCount(splitCount);
  return n === clampGuests(guests) ? null : n;
}

export const SPLIT_LABEL = (n: number) => `Dividido entre ${n}`;
