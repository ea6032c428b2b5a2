import { parseDecimal, scaleDecimal } from './decimal.ts';
import type { Cents } from './money.ts';
import { ZERO, addCents, applyRateBps } from './money.ts';

/** 10 %, 15 %, 20 %. Rates are basis points so they stay integers (1500 = 15 %). */
export const TIP_PRESETS_BPS = [1000, 1500, 2000] as const;
export const MAX_TIP_BPS = 10_000;

/**
 * Reads the custom tip field. Staff type either '15' or '0.15' and both mean 15 %,
 * so a value of 1 or more is a percent and anything below 1 a fraction. That makes
 * '1' one percent, not one hundred. Unreadable or negative input means no tip.
 */
export function parseCustomTipBps(input: string | number | null | undefined): number {
  if (input === null || input === undefined) return 0;
  // Huge numbers print in exponent notation, which the digit parser refuses.
  if (typeof input === 'number' && Number.isFinite(input) && input > 100) return MAX_TIP_BPS;
  const text = typeof input === 'string' ? input.trim().replace(/%$/, '').trim() : input;
  const parsed = parseDecimal(text);
  if (parsed === null || parsed.negative) return 0;
  const isPercent = parsed.whole.replace(/^0+/, '') !== '';
  const bps = scaleDecimal(parsed, isPercent ? 2 : 4);
  if (bps === null) return MAX_TIP_BPS; // too many digits to be a safe integer: clamp
  return clampTipBps(bps);
}

export function clampTipBps(bps: number): number {
  if (!Number.isFinite(bps) || bps <= 0) return 0;
  return Math.min(MAX_TIP_BPS, Math.round(bps));
}

/**
 * A tip rate is basis points everywhere (inputs, rows, the API's tipBps, the screens); only the
 * spec's payment entry field tipPercent shows it as a fraction such as 0.15, made here.
 */
export function bpsToFraction(bps: number): number {
  return bps / 10_000;
}

/** Tip on the non-deleted subtotal; never negative whatever rate is passed in. */
export function tipAmount(subtotal: Cents, bps: number): Cents {
  if (subtotal <= 0) return ZERO;
  return applyRateBps(subtotal, clampTipBps(bps));
}

export function orderTotal(subtotal: Cents, tip: Cents): Cents {
  return addCents(subtotal, tip);
}

/** Which preset button shows as selected, or null when the rate is custom. */
export function matchingPreset(bps: number): (typeof TIP_PRESETS_BPS)[number] | null {
  return TIP_PRESETS_BPS.find((preset) => preset === bps) ?? null;
}
