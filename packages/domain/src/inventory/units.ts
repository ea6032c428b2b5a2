/**
 * Inventory quantities (docs/decisions/0055-inventory-ledger.md): every amount is an exact
 * integer in its insumo's consumption unit — ml, g, or milli-pieces (1 pieza = 1000) — so a
 * recipe of "½ limón" is 500 and no sum ever rounds.
 */

export const CONSUMPTION_UNITS = ['ml', 'g', 'pieza'] as const;
export type ConsumptionUnit = (typeof CONSUMPTION_UNITS)[number];

/** Stored integers per displayed unit: a pieza is kept in thousandths. */
export const UNIT_SCALE: Record<ConsumptionUnit, number> = { ml: 1, g: 1, pieza: 1000 };

export const UNIT_LABELS: Record<ConsumptionUnit, string> = { ml: 'ml', g: 'g', pieza: 'pieza' };

/** Integer division rounded half away from zero (exact on integers, no float error). */
export function divRound(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator === 0) {
    throw new RangeError('divRound needs safe integers and a non-zero denominator');
  }
  const sign = Math.sign(numerator) * Math.sign(denominator);
  const n = Math.abs(numerator);
  const d = Math.abs(denominator);
  const q = Math.floor(n / d);
  const r = n - q * d;
  return sign * (2 * r >= d ? q + 1 : q);
}

/** A typed amount ("1.5", "60", "0,5") in its unit to the stored integer; null when not exact. */
export function parseQuantity(input: string, unit: ConsumptionUnit): number | null {
  const text = input.trim().replace(',', '.');
  const match = /^(-?)(\d{1,9})(?:\.(\d{1,3}))?$/.exec(text);
  if (!match) return null;
  const scale = UNIT_SCALE[unit];
  const decimals = match[3] ?? '';
  const places = scale === 1000 ? 3 : 0;
  if (decimals.replace(/0+$/, '').length > places) return null;
  const whole = Number(match[2]) * scale;
  const frac = places ? Number(decimals.padEnd(3, '0')) : 0;
  const value = whole + frac;
  return match[1] ? -value : value;
}

/** The stored integer shown in its unit: 1500 milli-pieces → "1.5 pieza", 60 → "60 ml". */
export function formatQuantity(qty: number, unit: ConsumptionUnit): string {
  const scale = UNIT_SCALE[unit];
  if (scale === 1) return `${qty} ${UNIT_LABELS[unit]}`;
  const sign = qty < 0 ? '-' : '';
  const abs = Math.abs(qty);
  const whole = Math.floor(abs / scale);
  const frac = String(abs % scale)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return `${sign}${whole}${frac ? `.${frac}` : ''} ${UNIT_LABELS[unit]}`;
}

export interface WeighablePresentation {
  /** Liquid content of a full bottle, in the insumo's unit (ml). */
  content: number;
  /** The empty bottle's weight in grams. */
  tareG: number;
  /** The liquid's density in mg per ml (tequila ≈ 950, water 1000). */
  densityMgPerMl: number;
}

/**
 * An open bottle on the scale: ml = (gross g − tare g) ÷ density, with the density in mg/ml so
 * the division is exact on integers and rounded once to the ml. Never below 0 nor above the
 * bottle's content (a wet bottle or a heavier cap).
 */
export function weighedMl(grossG: number, p: WeighablePresentation): number {
  if (p.densityMgPerMl <= 0) throw new RangeError('density must be positive');
  const net = grossG - p.tareG;
  if (net <= 0) return 0;
  return Math.min(p.content, divRound(net * 1000, p.densityMgPerMl));
}

/** An open bottle estimated by eye in tenths (0–10) of its content. */
export function tenthsContent(tenths: number, content: number): number {
  const t = Math.max(0, Math.min(10, Math.trunc(tenths)));
  return divRound(content * t, 10);
}
