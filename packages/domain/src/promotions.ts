import type { Cents } from './money.ts';
import { ZERO, applyRateBps, cents, multiplyCents, subtractCents } from './money.ts';
import { localWeekMinute } from './shift.ts';

/**
 * Promotions (happy hour), decision 0028. A rule names the days of the week and a time window in
 * the business time zone; a window that ends at or before it starts crosses midnight and belongs
 * to the day it started (Friday 22:00–02:00 covers Saturday 01:30). start === end is the whole
 * day from that minute. Kinds: percent off, a fixed unit price, or NxM (take N, pay M).
 */

export const PROMOTION_KINDS = ['percent', 'fixed', 'nxm'] as const;
export type PromotionKind = (typeof PROMOTION_KINDS)[number];

export const DAY_MINUTES = 24 * 60;
const WEEK_MINUTES = 7 * DAY_MINUTES;

export interface PromotionWindow {
  /** 0 = domingo … 6 = sábado, the day the window starts. */
  days: readonly number[];
  startMinute: number;
  endMinute: number;
}

export interface PromotionTargets {
  productIds: readonly string[];
  categories: readonly string[];
}

export interface PromotionRule extends PromotionWindow, PromotionTargets {
  id: string;
  name: string;
  kind: PromotionKind;
  percentBps: number | null;
  fixedPrice: number | null;
  buy: number | null;
  pay: number | null;
  active: boolean;
  createdAt: number;
}

/** Whether the window covers this local weekday and minute. */
export function windowCovers(window: PromotionWindow, weekday: number, minute: number): boolean {
  const { startMinute: start, endMinute: end } = window;
  const crosses = end <= start;
  if (window.days.includes(weekday)) {
    if (crosses ? minute >= start : minute >= start && minute < end) return true;
  }
  // The part after midnight belongs to the day before.
  return crosses && window.days.includes((weekday + 6) % 7) && minute < end;
}

/** Whether an active rule applies at this instant, read in the business time zone. */
export function isPromotionActiveAt(rule: PromotionWindow & { active: boolean }, instant: Date, tz: string): boolean {
  if (!rule.active) return false;
  const { weekday, minute } = localWeekMinute(instant, tz);
  return windowCovers(rule, weekday, minute);
}

/** 2 = the rule names the product, 1 = its category, 0 = neither. */
export function promotionReach(rule: PromotionTargets, product: { id: string; category: string }): 0 | 1 | 2 {
  if (rule.productIds.includes(product.id)) return 2;
  return rule.categories.includes(product.category) ? 1 : 0;
}

/**
 * The one rule that prices a product now. The server refuses rules that meet on a product
 * (promotionsConflict), so only old or imported data finds two; then a rule that names the
 * product beats one on its category, and between equals the earliest created, then the smallest id.
 */
export function promotionFor<R extends PromotionRule>(
  rules: readonly R[],
  product: { id: string; category: string },
  instant: Date,
  tz: string,
): R | null {
  let best: R | null = null;
  let bestReach = 0;
  for (const rule of rules) {
    const reach = promotionReach(rule, product);
    if (reach === 0 || !isPromotionActiveAt(rule, instant, tz)) continue;
    if (
      best === null ||
      reach > bestReach ||
      (reach === bestReach && (rule.createdAt < best.createdAt || (rule.createdAt === best.createdAt && rule.id < best.id)))
    ) {
      best = rule;
      bestReach = reach;
    }
  }
  return best;
}

/** The unit price under a percent or fixed-price rule (never above the list price); NxM keeps it. */
export function promotionUnitPrice(rule: Pick<PromotionRule, 'kind' | 'percentBps' | 'fixedPrice'>, listPrice: Cents): Cents {
  if (rule.kind === 'percent') {
    const off = applyRateBps(listPrice, rule.percentBps ?? 0);
    return off >= listPrice ? ZERO : subtractCents(listPrice, off);
  }
  if (rule.kind === 'fixed') return cents(Math.min(listPrice, Math.max(0, rule.fixedPrice ?? listPrice)));
  return listPrice;
}

/** Units given free by NxM for `quantity` units: every complete group of N gives N − M. 2x1 of 3 → 1. */
export function freeUnits(buy: number, pay: number, quantity: number): number {
  if (buy <= pay || pay < 0 || quantity <= 0) return 0;
  return Math.floor(quantity / buy) * (buy - pay);
}

export interface PricedPart {
  unitPrice: Cents;
  quantity: number;
}

/**
 * The rows an add of `quantity` units becomes. Percent and fixed: one row at the promotion price.
 * NxM counts the units of this product already on the order under the same rule (`paid` at list
 * price, `free` at 0): the free units the whole group is owed that it does not have yet are added
 * as a row at 0, the rest at list price. Every row stays unit price × quantity, so every total,
 * move, split and void stays exact without knowing about promotions.
 */
export function promotionParts(
  rule: Pick<PromotionRule, 'kind' | 'percentBps' | 'fixedPrice' | 'buy' | 'pay'>,
  listPrice: Cents,
  quantity: number,
  onOrder: { paid: number; free: number } = { paid: 0, free: 0 },
): PricedPart[] {
  if (rule.kind !== 'nxm') return [{ unitPrice: promotionUnitPrice(rule, listPrice), quantity }];
  const due = freeUnits(rule.buy ?? 0, rule.pay ?? 0, onOrder.paid + onOrder.free + quantity);
  const free = Math.min(quantity, Math.max(0, due - onOrder.free));
  const parts: PricedPart[] = [];
  if (quantity - free > 0) parts.push({ unitPrice: listPrice, quantity: quantity - free });
  if (free > 0) parts.push({ unitPrice: ZERO, quantity: free });
  return parts;
}

/** What a promotion took off a row: (list price − charged price) × quantity. */
export function promotionDiscount(row: { listPrice: Cents | null; productPrice: Cents; quantity: number }): Cents {
  if (row.listPrice === null || row.listPrice <= row.productPrice) return ZERO;
  return multiplyCents(subtractCents(row.listPrice, row.productPrice), row.quantity);
}

/** The window as half-open minute intervals of the week (a window past Saturday wraps to Sunday). */
function weekIntervals(window: PromotionWindow): Array<[number, number]> {
  const length =
    window.endMinute > window.startMinute ? window.endMinute - window.startMinute : window.endMinute + DAY_MINUTES - window.startMinute;
  const out: Array<[number, number]> = [];
  for (const day of new Set(window.days)) {
    const start = day * DAY_MINUTES + window.startMinute;
    const end = start + length;
    if (end <= WEEK_MINUTES) out.push([start, end]);
    else out.push([start, WEEK_MINUTES], [0, end - WEEK_MINUTES]);
  }
  return out;
}

export function windowsOverlap(a: PromotionWindow, b: PromotionWindow): boolean {
  const bs = weekIntervals(b);
  return weekIntervals(a).some(([s1, e1]) => bs.some(([s2, e2]) => s1 < e2 && s2 < e1));
}

/**
 * Two rules conflict when their windows meet and they reach a product in common: the same
 * product, the same category, or a product of one in the other's category (`categoryOf` gives a
 * product's category), so at most one rule can price a product at any minute.
 */
export function promotionsConflict(
  a: PromotionWindow & PromotionTargets,
  b: PromotionWindow & PromotionTargets,
  categoryOf: (productId: string) => string | undefined,
): boolean {
  const inCategories = (productIds: readonly string[], categories: readonly string[]) =>
    productIds.some((p) => {
      const category = categoryOf(p);
      return category !== undefined && categories.includes(category);
    });
  const shared =
    a.productIds.some((p) => b.productIds.includes(p)) ||
    a.categories.some((c) => b.categories.includes(c)) ||
    inCategories(a.productIds, b.categories) ||
    inCategories(b.productIds, a.categories);
  return shared && windowsOverlap(a, b);
}

/** '22:00–02:00' style label for a window. */
export function formatMinute(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** 'PROMO 2x1', 'PROMO −20 %', 'PROMO $45.00' style short label of a kind. */
export function promotionKindLabel(rule: Pick<PromotionRule, 'kind' | 'percentBps' | 'fixedPrice' | 'buy' | 'pay'>): string {
  if (rule.kind === 'nxm') return `${rule.buy ?? 0}x${rule.pay ?? 0}`;
  if (rule.kind === 'percent') return `−${(rule.percentBps ?? 0) / 100} %`;
  return 'precio fijo';
}
