import { cents } from './money.ts';
import { apportion, taxGroup, type TaxBreakdown, type TaxLine, type TaxTreatment } from './tax.ts';
import { conceptDescription, groupConcepts, type CfdiConcept } from './cfdi.ts';
import { DEFAULT_SAT_PRODUCT_KEY, DEFAULT_SAT_UNIT_KEY } from './fiscal.ts';

/**
 * A CFDI's concepts under each product's own SAT keys (c_ClaveProdServ, c_ClaveUnidad). What a
 * check charged per key is taken from its lines after voids, comps, discounts and promotions
 * (frozen when its receipt is queued, right after the close); each rate group of the breakdown
 * frozen at the close is then shared out over its keys in proportion (largest remainder), and
 * each share becomes its concepts. So the concepts still charge the breakdown's amounts exactly,
 * to the centavo; a group whose lines are unknown (a share check) keeps the default keys.
 */

/** What the lines of one product key, unit key and rate charged, before the tip (centavos). */
export interface KeyedAmount {
  treatment: TaxTreatment;
  iepsRateBp: number | null;
  productKey: string;
  unitKey: string;
  amount: number;
}

/** A line with its product's SAT keys (absent: the defaults). */
export type KeyedLine = TaxLine & { productKey?: string | null; unitKey?: string | null };

const sameRate = (a: { treatment: TaxTreatment; iepsRateBp?: number | null }, b: { treatment: TaxTreatment; iepsRateBp?: number | null }) =>
  a.treatment === b.treatment && (a.iepsRateBp || 0) === (b.iepsRateBp || 0);

/** The charged lines summed by rate and keys, in the order the keys first appear. */
export function keyedAmounts(charged: readonly { line: KeyedLine; amount: number }[]): KeyedAmount[] {
  const byKey = new Map<string, KeyedAmount>();
  for (const { line, amount } of charged) {
    if (amount <= 0) continue;
    const productKey = line.productKey || DEFAULT_SAT_PRODUCT_KEY;
    const unitKey = line.unitKey || DEFAULT_SAT_UNIT_KEY;
    const iepsRateBp = line.iepsRateBp && line.iepsRateBp > 0 ? line.iepsRateBp : null;
    const key = `${line.treatment}|${iepsRateBp ?? 0}|${productKey}|${unitKey}`;
    const entry = byKey.get(key) ?? { treatment: line.treatment, iepsRateBp, productKey, unitKey, amount: 0 };
    entry.amount += amount;
    byKey.set(key, entry);
  }
  return [...byKey.values()];
}

/** The check's concepts: each frozen group over its keys (see above); null or no match: the default keys. */
export function keyedConcepts(breakdown: TaxBreakdown, keyed: readonly KeyedAmount[] | null): CfdiConcept[] {
  const several = breakdown.groups.filter((g) => g.amount > 0).length > 1;
  const concepts: CfdiConcept[] = [];
  for (const g of breakdown.groups) {
    if (g.amount <= 0) continue;
    const description = conceptDescription(g, several);
    const mine = (keyed ?? []).filter((k) => k.amount > 0 && sameRate(k, g));
    if (mine.length === 0) {
      concepts.push(...groupConcepts(g, { productKey: DEFAULT_SAT_PRODUCT_KEY, unitKey: DEFAULT_SAT_UNIT_KEY, description }));
      continue;
    }
    if (mine.length === 1) {
      // One key takes the whole group: its frozen base and taxes as they are.
      concepts.push(...groupConcepts(g, { productKey: mine[0]!.productKey, unitKey: mine[0]!.unitKey, description }));
      continue;
    }
    const shares = apportion(
      g.amount,
      mine.map((k) => k.amount),
    );
    mine.forEach((k, i) => {
      if (shares[i]! <= 0) return;
      const part = taxGroup(g.treatment, g.iepsRateBp ?? null, cents(shares[i]!));
      concepts.push(...groupConcepts(part, { productKey: k.productKey, unitKey: k.unitKey, description }));
    });
  }
  return concepts;
}
