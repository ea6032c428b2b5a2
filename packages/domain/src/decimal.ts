/**
 * Exact decimal scaling for user input. Money and rates are parsed digit by digit
 * because `Math.round(1.005 * 100)` is 100, not 101: binary floats cannot hold
 * most decimal fractions, and a point of sale must not lose centavos to that.
 */

// Thousands groups are optional but, when present, must be well-formed ("1,234.5"),
// so a decimal comma such as "12,5" is rejected instead of silently read as 125.
const DECIMAL_PATTERN = /^([+-])?\$?\s*((?:\d{1,3}(?:,\d{3})+)|\d*)(?:\.(\d*))?$/;

export interface ParsedDecimal {
  readonly negative: boolean;
  readonly whole: string;
  readonly fraction: string;
}

export function parseDecimal(input: number | string): ParsedDecimal | null {
  const text = typeof input === 'number' ? numberToPlainString(input) : input.trim();
  if (text === null) return null;
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) return null;
  const whole = (match[2] ?? '').replaceAll(',', '');
  const fraction = match[3] ?? '';
  if (whole === '' && fraction === '') return null;
  return { negative: match[1] === '-', whole: whole || '0', fraction };
}

/**
 * The decimal times 10^places, rounded half away from zero, or null when the
 * result is not a safe integer.
 */
export function scaleDecimal(d: ParsedDecimal, places: number): number | null {
  const kept = d.fraction.slice(0, places).padEnd(places, '0');
  const roundUp = (d.fraction[places] ?? '0') >= '5';
  const magnitude = BigInt(d.whole + kept) + (roundUp ? 1n : 0n);
  if (magnitude > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const value = Number(magnitude);
  // Adding 0 turns -0 into 0 so callers never see a negative zero.
  return d.negative ? -value + 0 : value;
}

export function parseScaled(input: number | string, places: number): number | null {
  const parsed = parseDecimal(input);
  return parsed === null ? null : scaleDecimal(parsed, places);
}

// String(n) is the shortest decimal that round-trips, i.e. what the user typed
// for 12.345; only exponent notation needs special handling.
function numberToPlainString(n: number): string | null {
  if (!Number.isFinite(n)) return null;
  const text = String(n);
  if (!text.includes('e')) return text;
  // Below 1e-6 nothing survives rounding to the places we use; above 1e21
  // nothing is a safe integer anyway.
  return Math.abs(n) < 1 ? '0' : null;
}
