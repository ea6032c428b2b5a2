import type { AdjustmentSpec } from './adjustments.ts';
import { computeAdjustments } from './adjustments.ts';
import type { Cents } from './money.ts';
import { ZERO, cents, multiplyCents } from './money.ts';

/**
 * Taxes included in the price (docs/decisions/0051-tax-breakdown.md). Prices are shown with IVA
 * (and IEPS, when a product carries it) inside, so what a check charges does not change: the
 * breakdown says how much of it is tax. Rates are basis points (1600 = 16 %); money is centavos.
 */
export const TAX_TREATMENTS = ['iva16', 'iva8', 'tasa0', 'exento'] as const;
export type TaxTreatment = (typeof TAX_TREATMENTS)[number];

export const TAX_TREATMENT_LABELS: Record<TaxTreatment, string> = {
  iva16: 'IVA 16 %',
  iva8: 'IVA 8 %',
  tasa0: 'IVA tasa 0 %',
  exento: 'Exento de IVA',
};

/** The IVA rate of each treatment, in basis points. */
export const IVA_RATE_BP: Record<TaxTreatment, number> = { iva16: 1600, iva8: 800, tasa0: 0, exento: 0 };

/** IEPS rates a product may carry, in basis points (0 < rate ≤ 300 %). */
export const MAX_IEPS_RATE_BP = 30_000;

export function isTaxTreatment(value: unknown): value is TaxTreatment {
  return typeof value === 'string' && (TAX_TREATMENTS as readonly string[]).includes(value);
}

/** One rate group: amount = base + ieps + tax, the IEPS (when present) inside the IVA's base. */
export interface TaxGroup {
  treatment: TaxTreatment;
  rateBp: number;
  base: Cents;
  /** The IVA of the group. */
  tax: Cents;
  iepsRateBp?: number;
  ieps?: Cents;
  /** What the group's lines charged, after voids, comps, discounts and promotions. */
  amount: Cents;
}

/**
 * A check's taxes, frozen on the paid check. base + tax + (ieps ?? 0) = amount, which is what the
 * check charged before its tip (tips are not taxed). `derived`: computed afterwards from the rate
 * then in force (orders paid before the tax model), not at the close.
 */
export interface TaxBreakdown {
  groups: TaxGroup[];
  base: Cents;
  tax: Cents;
  /** Present only when some group carries IEPS. */
  ieps?: Cents;
  amount: Cents;
  derived: boolean;
}

/** What the breakdown needs of a line: its price (promotion and modifiers included) and its product's taxes. */
export interface TaxLine {
  id: string;
  productPrice: Cents;
  quantity: number;
  isDeleted: boolean;
  treatment: TaxTreatment;
  iepsRateBp: number | null;
}

/** round(n / d) half up, for n ≥ 0 and d > 0, in integers (BigInt: n can pass 2^53 before the result does). */
function divRound(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d);
}

/** The tax included in `amount` at `rateBp`: round(amount × rate / (1 + rate)), once. */
export function includedTax(amount: Cents, rateBp: number): Cents {
  if (amount <= 0 || rateBp <= 0) return ZERO;
  return cents(Number(divRound(BigInt(amount) * BigInt(rateBp), BigInt(10_000 + rateBp))));
}

/**
 * Divides `total` over `weights` in proportion, largest remainder first (ties to the earlier),
 * so the shares add up to `total` exactly. With 0 ≤ total ≤ Σ weights no share exceeds its weight.
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + Math.max(0, w), 0);
  if (sum === 0 || total === 0) return weights.map(() => 0);
  const bigSum = BigInt(sum);
  const shares: number[] = [];
  const rest: { i: number; r: bigint }[] = [];
  let given = 0;
  weights.forEach((w, i) => {
    const product = BigInt(total) * BigInt(Math.max(0, w));
    const share = Number(product / bigSum);
    shares.push(share);
    given += share;
    rest.push({ i, r: product % bigSum });
  });
  rest.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (let k = 0; k < total - given; k++) shares[rest[k % rest.length]!.i]! += 1;
  return shares;
}

/**
 * What each live line charges after the adjustments: comps of units and line discounts stay on
 * their line; check discounts and whole-order comps are shared out over the lines in proportion
 * to what is left of each (largest remainder, exact to the centavo). Adds up to what is owed.
 */
export function chargedLines<L extends TaxLine>(lines: readonly L[], adjustments: readonly AdjustmentSpec[]): { line: L; amount: Cents }[] {
  const live = lines.filter((l) => !l.isDeleted && l.quantity > 0);
  const figures = computeAdjustments(live, adjustments);
  const onLine = new Map<string, number>();
  let onOrder = 0;
  for (const a of adjustments) {
    const taken = figures.amounts.get(a.id) ?? 0;
    if (a.itemId === null) onOrder += taken;
    else onLine.set(a.itemId, (onLine.get(a.itemId) ?? 0) + taken);
  }
  const left = live.map((l) => multiplyCents(l.productPrice, l.quantity) - (onLine.get(l.id) ?? 0));
  const shared = apportion(onOrder, left);
  return live.map((line, i) => ({ line, amount: cents(left[i]! - shared[i]!) }));
}

function groupKey(treatment: TaxTreatment, iepsRateBp: number | null): string {
  return `${TAX_TREATMENTS.indexOf(treatment)}:${String(iepsRateBp ?? 0).padStart(6, '0')}`;
}

/** A group's taxes from its amount: the IVA included, then the IEPS inside what is left; each rounded once. */
export function taxGroup(treatment: TaxTreatment, iepsRateBp: number | null, amount: Cents): TaxGroup {
  const rateBp = IVA_RATE_BP[treatment];
  const tax = includedTax(amount, rateBp);
  const ieps = iepsRateBp ? includedTax(cents(amount - tax), iepsRateBp) : null;
  const base = cents(amount - tax - (ieps ?? 0));
  return ieps === null ? { treatment, rateBp, base, tax, amount } : { treatment, rateBp, base, tax, iepsRateBp: iepsRateBp!, ieps, amount };
}

/** Totals of the groups, in the breakdown's shape. */
export function breakdownOf(groups: TaxGroup[], derived = false): TaxBreakdown {
  let base = 0;
  let tax = 0;
  let ieps = 0;
  let amount = 0;
  let withIeps = false;
  for (const g of groups) {
    base += g.base;
    tax += g.tax;
    amount += g.amount;
    if (g.ieps !== undefined) {
      withIeps = true;
      ieps += g.ieps;
    }
  }
  return {
    groups,
    base: cents(base),
    tax: cents(tax),
    ...(withIeps ? { ieps: cents(ieps) } : {}),
    amount: cents(amount),
    derived,
  };
}

/**
 * The breakdown of a check from its lines after voids (deleted lines are out), comps, discounts
 * and promotions (the line's price already is the promoted one, modifiers included). Lines are
 * grouped by treatment and IEPS rate, each group's taxes rounded once; groups of 0 are left out.
 */
export function taxBreakdown(lines: readonly TaxLine[], adjustments: readonly AdjustmentSpec[], derived = false): TaxBreakdown {
  const byGroup = new Map<string, { treatment: TaxTreatment; ieps: number | null; amount: number }>();
  for (const { line, amount } of chargedLines(lines, adjustments)) {
    const ieps = line.iepsRateBp && line.iepsRateBp > 0 ? line.iepsRateBp : null;
    const key = groupKey(line.treatment, ieps);
    const group = byGroup.get(key) ?? { treatment: line.treatment, ieps, amount: 0 };
    group.amount += amount;
    byGroup.set(key, group);
  }
  const groups = [...byGroup.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .filter(([, g]) => g.amount > 0)
    .map(([, g]) => taxGroup(g.treatment, g.ieps, cents(g.amount)));
  return breakdownOf(groups, derived);
}

/** The breakdown of an amount charged at one treatment: orders paid before the tax model (derived). */
export function flatBreakdown(amount: Cents, treatment: TaxTreatment, derived: boolean): TaxBreakdown {
  return breakdownOf(amount > 0 ? [taxGroup(treatment, null, amount)] : [], derived);
}

/**
 * A check split into parts of what it charges (equal shares: the first part stays with the
 * check, the others are share checks): each part's breakdown. Exact: for every group, the parts'
 * amounts, bases, IVA and IEPS add up to the whole's, and each part's amounts add up to the part.
 * Parts must add up to `whole.amount`.
 */
export function splitBreakdown(whole: TaxBreakdown, parts: readonly Cents[]): TaxBreakdown[] {
  const total = parts.reduce((s, p) => s + p, 0);
  if (total !== whole.amount || parts.some((p) => p < 0)) throw new RangeError('splitBreakdown: the parts must add up to the whole');
  // Amounts: each part takes its share of what is left of every group, the last part the rest.
  const remaining = whole.groups.map((g) => g.amount as number);
  const amounts: number[][] = parts.map((part, k) => {
    const row = k === parts.length - 1 ? [...remaining] : apportion(part, remaining);
    row.forEach((a, g) => (remaining[g]! -= a));
    return row;
  });
  // Taxes: each group's IVA + IEPS over the parts by their amounts, then the IVA over those.
  const rows: TaxGroup[][] = parts.map(() => []);
  whole.groups.forEach((g, gi) => {
    const column = amounts.map((row) => row[gi]!);
    const taxes = apportion(g.tax + (g.ieps ?? 0), column);
    const iva = apportion(g.tax, taxes);
    column.forEach((amount, k) => {
      if (amount === 0) return;
      const tax = cents(iva[k]!);
      const base = cents(amount - taxes[k]!);
      const group: TaxGroup =
        g.ieps === undefined
          ? { treatment: g.treatment, rateBp: g.rateBp, base, tax, amount: cents(amount) }
          : {
              treatment: g.treatment,
              rateBp: g.rateBp,
              base,
              tax,
              iepsRateBp: g.iepsRateBp!,
              ieps: cents(taxes[k]! - iva[k]!),
              amount: cents(amount),
            };
      rows[k]!.push(group);
    });
  });
  return rows.map((groups) => breakdownOf(groups, whole.derived));
}

/** The whole less what its parts carry, group by group; null when a group would go below zero. */
export function subtractBreakdown(whole: TaxBreakdown, part: TaxBreakdown): TaxBreakdown | null {
  const keyOf = (g: TaxGroup) => groupKey(g.treatment, g.iepsRateBp ?? null);
  const taken = new Map(part.groups.map((g) => [keyOf(g), g]));
  const groups: TaxGroup[] = [];
  for (const g of whole.groups) {
    const t = taken.get(keyOf(g));
    taken.delete(keyOf(g));
    if (!t) {
      groups.push(g);
      continue;
    }
    const rest = {
      base: g.base - t.base,
      tax: g.tax - t.tax,
      ieps: (g.ieps ?? 0) - (t.ieps ?? 0),
      amount: g.amount - t.amount,
    };
    if (rest.base < 0 || rest.tax < 0 || rest.ieps < 0 || rest.amount < 0) return null;
    if (rest.amount === 0) continue;
    groups.push(
      g.ieps === undefined
        ? { treatment: g.treatment, rateBp: g.rateBp, base: cents(rest.base), tax: cents(rest.tax), amount: cents(rest.amount) }
        : {
            treatment: g.treatment,
            rateBp: g.rateBp,
            base: cents(rest.base),
            tax: cents(rest.tax),
            iepsRateBp: g.iepsRateBp!,
            ieps: cents(rest.ieps),
            amount: cents(rest.amount),
          },
    );
  }
  if (taken.size > 0) return null;
  return breakdownOf(groups, whole.derived);
}

/** Several breakdowns added group by group (the share checks of one check, a night's checks). */
export function sumBreakdowns(list: readonly TaxBreakdown[]): TaxBreakdown {
  const byKey = new Map<string, TaxGroup>();
  for (const b of list) {
    for (const g of b.groups) {
      const key = groupKey(g.treatment, g.iepsRateBp ?? null);
      const s = byKey.get(key);
      if (!s) {
        byKey.set(key, { ...g });
        continue;
      }
      s.base = cents(s.base + g.base);
      s.tax = cents(s.tax + g.tax);
      s.amount = cents(s.amount + g.amount);
      if (g.ieps !== undefined) s.ieps = cents((s.ieps ?? 0) + g.ieps);
    }
  }
  const groups = [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, g]) => g);
  return breakdownOf(
    groups,
    list.some((b) => b.derived),
  );
}
