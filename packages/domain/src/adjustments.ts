import type { Cents } from './money.ts';
import { ZERO, applyRateBps, cents, multiplyCents } from './money.ts';
import { tipAmount } from './tip.ts';

/**
 * Discounts and comps (cortesías). A comp gives units away (n × unit price) or the whole order;
 * a discount takes a percent (basis points) or an amount off a line or off the check. Every
 * figure is integer centavos and is recomputed from the items each time they change, in a fixed
 * order, so nothing can take off more than what is left:
 *   1. comps of units, line by line (never more units than the line has);
 *   2. line discounts, on what is left of the line after its comps;
 *   3. check discounts, on what is left of the order after 1 and 2;
 *   4. comps of the whole order, which take whatever is still left.
 * Within each step, adjustments apply in the order they were made.
 */
export const ADJUSTMENT_KINDS = ['discount', 'comp'] as const;
export type AdjustmentKind = (typeof ADJUSTMENT_KINDS)[number];

export const ADJUSTMENT_REASONS = ['Cliente frecuente', 'Compensación por demora', 'Promoción', 'Cortesía de la casa', 'Otro'] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];

export const MAX_DISCOUNT_BPS = 10_000;

export const ADJUSTMENT_MESSAGES = {
  notFound: 'Ajuste no encontrado',
  alreadyRemoved: 'El ajuste ya fue quitado',
  itemNotFound: 'Item no encontrado',
  itemDeleted: 'El item fue eliminado',
  unitsRequired: 'Indica cuántas unidades son cortesía',
  tooManyUnits: 'No hay tantas unidades sin cortesía en esta línea',
  percentOrAmount: 'Indica un porcentaje o un monto de descuento, no ambos',
  percentRange: 'El porcentaje debe estar entre 0.01 % y 100 %',
  amountPositive: 'El monto del descuento debe ser mayor a cero',
  nothingLeft: 'No queda nada por descontar en esta orden',
  overBill: 'El descuento es mayor a lo que queda por pagar en esta orden.',
  reasonRequired: 'Elige un motivo',
  noteRequired: 'Escribe el motivo en la nota',
  orderComp: 'La cortesía de toda la orden no lleva unidades',
  itemRequired: 'Elige la línea',
} as const;

export interface AdjustmentLine {
  id: string;
  productPrice: Cents;
  quantity: number;
  isDeleted: boolean;
}

export interface AdjustmentSpec {
  id: string;
  kind: AdjustmentKind;
  /** null: the whole check. */
  itemId: string | null;
  /** Comps of units only. */
  units: number | null;
  /** Percent discounts only, 1–10000 (100 % = 10000). */
  percentBps: number | null;
  /** Amount discounts only: what was asked; the applied amount may be clamped. */
  requestedAmount: Cents | null;
}

export interface AdjustedFigures {
  subtotal: Cents;
  discounts: Cents;
  comps: Cents;
  /** subtotal − discounts − comps, never negative. */
  owed: Cents;
  /** What each live adjustment takes off now, by id. */
  amounts: Map<string, Cents>;
}

export function clampDiscountBps(bps: number): number {
  if (!Number.isFinite(bps) || bps <= 0) return 0;
  return Math.min(MAX_DISCOUNT_BPS, Math.round(bps));
}

/** A percent (basis points) or an amount off `base`, never more than `base`, never negative. */
export function discountOn(base: Cents, spec: Pick<AdjustmentSpec, 'percentBps' | 'requestedAmount'>): Cents {
  if (base <= 0) return ZERO;
  if (spec.percentBps !== null) return cents(Math.min(base, applyRateBps(base, clampDiscountBps(spec.percentBps))));
  if (spec.requestedAmount !== null && spec.requestedAmount > 0) return cents(Math.min(base, spec.requestedAmount));
  return ZERO;
}

/**
 * The value every adjustment takes off the order as it is now. Adjustments on a deleted or
 * unknown line take off nothing (they stay listed, at 0, for the record).
 */
export function computeAdjustments(lines: readonly AdjustmentLine[], adjustments: readonly AdjustmentSpec[]): AdjustedFigures {
  const amounts = new Map<string, Cents>();
  const live = lines.filter((l) => !l.isDeleted);
  const subtotal = cents(live.reduce((sum, l) => sum + multiplyCents(l.productPrice, l.quantity), 0));
  const lineLeft = new Map<string, Cents>(live.map((l) => [l.id, multiplyCents(l.productPrice, l.quantity)]));
  const unitsLeft = new Map<string, number>(live.map((l) => [l.id, l.quantity]));
  const price = new Map<string, Cents>(live.map((l) => [l.id, l.productPrice]));
  let discounts = 0;
  let comps = 0;

  for (const a of adjustments) amounts.set(a.id, ZERO);

  // 1. Comps of units.
  for (const a of adjustments) {
    if (a.kind !== 'comp' || a.itemId === null) continue;
    const left = unitsLeft.get(a.itemId);
    if (left === undefined) continue;
    const units = Math.max(0, Math.min(left, Math.trunc(a.units ?? 0)));
    const value = multiplyCents(price.get(a.itemId)!, units);
    unitsLeft.set(a.itemId, left - units);
    lineLeft.set(a.itemId, cents(lineLeft.get(a.itemId)! - value));
    amounts.set(a.id, value);
    comps += value;
  }
  // 2. Line discounts.
  for (const a of adjustments) {
    if (a.kind !== 'discount' || a.itemId === null) continue;
    const left = lineLeft.get(a.itemId);
    if (left === undefined) continue;
    const value = discountOn(left, a);
    lineLeft.set(a.itemId, cents(left - value));
    amounts.set(a.id, value);
    discounts += value;
  }
  let orderLeft = cents(subtotal - comps - discounts);
  // 3. Check discounts.
  for (const a of adjustments) {
    if (a.kind !== 'discount' || a.itemId !== null) continue;
    const value = discountOn(orderLeft, a);
    orderLeft = cents(orderLeft - value);
    amounts.set(a.id, value);
    discounts += value;
  }
  // 4. Comps of the whole order.
  for (const a of adjustments) {
    if (a.kind !== 'comp' || a.itemId !== null) continue;
    amounts.set(a.id, orderLeft);
    comps += orderLeft;
    orderLeft = ZERO;
  }
  return { subtotal, discounts: cents(discounts), comps: cents(comps), owed: orderLeft, amounts };
}

/**
 * An amount off the whole check larger than what is left of it is refused (ADJUSTMENT_MESSAGES.overBill),
 * never silently clamped; `applied` is what computeAdjustments gives it. A line discount still clamps to its line.
 */
export function checkDiscountOverBill(spec: Pick<AdjustmentSpec, 'kind' | 'itemId' | 'requestedAmount'>, applied: number): boolean {
  return spec.kind === 'discount' && spec.itemId === null && spec.requestedAmount !== null && spec.requestedAmount > applied;
}

/** Units of a line not yet given away by the comps already on it. */
export function uncompedUnits(line: AdjustmentLine, adjustments: readonly AdjustmentSpec[]): number {
  if (line.isDeleted) return 0;
  const given = adjustments
    .filter((a) => a.kind === 'comp' && a.itemId === line.id)
    .reduce((sum, a) => sum + Math.max(0, Math.trunc(a.units ?? 0)), 0);
  return Math.max(0, line.quantity - given);
}

export interface OrderFigures {
  subtotal: Cents;
  discounts: Cents;
  comps: Cents;
  owed: Cents;
  tip: Cents;
  total: Cents;
}

/** The figures a ticket shows: the tip is computed on what is owed, after discounts and comps. */
export function orderFigures(input: { subtotal: Cents; discounts: Cents; comps: Cents; tipBps: number }): OrderFigures {
  const owed = owedAmount(input);
  const tip = tipAmount(owed, input.tipBps);
  return { subtotal: input.subtotal, discounts: input.discounts, comps: input.comps, owed, tip, total: cents(owed + tip) };
}

/** subtotal − discounts − comps, never below zero. */
export function owedAmount(input: { subtotal: number; discounts: number; comps: number }): Cents {
  return cents(Math.max(0, input.subtotal - input.discounts - input.comps));
}
