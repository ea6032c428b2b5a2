import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cents, type Cents } from './money.ts';
import { computeAdjustments, type AdjustmentSpec } from './adjustments.ts';
import { planChecks, planEqualShares } from './checks.ts';
import {
  apportion,
  flatBreakdown,
  includedTax,
  splitBreakdown,
  subtractBreakdown,
  sumBreakdowns,
  taxBreakdown,
  TAX_TREATMENTS,
  type TaxBreakdown,
  type TaxLine,
} from './tax.ts';

const line = (id: string, price: number, quantity: number, over: Partial<TaxLine> = {}): TaxLine => ({
  id,
  productPrice: cents(price),
  quantity,
  isDeleted: false,
  treatment: 'iva16',
  iepsRateBp: null,
  ...over,
});

/** Σ base + Σ taxes = Σ amount, group by group and overall; nothing negative. */
function expectExact(b: TaxBreakdown): void {
  for (const g of b.groups) {
    expect(g.base + g.tax + (g.ieps ?? 0)).toBe(g.amount);
    for (const v of [g.base, g.tax, g.ieps ?? 0, g.amount]) expect(v).toBeGreaterThanOrEqual(0);
  }
  expect(b.base + b.tax + (b.ieps ?? 0)).toBe(b.amount);
  expect(b.groups.reduce((s, g) => s + g.amount, 0)).toBe(b.amount);
}

describe('includedTax', () => {
  it('takes the IVA inside a price, rounded once half up', () => {
    expect(includedTax(cents(11_600), 1600)).toBe(1600);
    expect(includedTax(cents(10_800), 800)).toBe(800);
    // 100 × 0.16 / 1.16 = 13.79 → 14; 5 × 16/116 = 0.69 → 1.
    expect(includedTax(cents(100), 1600)).toBe(14);
    expect(includedTax(cents(5), 1600)).toBe(1);
    expect(includedTax(cents(1_000), 0)).toBe(0);
  });
});

describe('taxBreakdown', () => {
  it('groups a check by rate, the tax rounded once per group, base + tax = amount', () => {
    const b = taxBreakdown(
      [
        line('a', 8_500, 2), // food 16 %
        line('b', 3_333, 1), // food 16 %
        line('c', 4_500, 3, { treatment: 'iva8' }),
        line('d', 2_000, 1, { treatment: 'exento' }),
        line('e', 9_900, 1, { isDeleted: true }),
      ],
      [],
    );
    expect(b.groups.map((g) => [g.treatment, g.amount, g.tax, g.base])).toEqual([
      ['iva16', 20_333, 2_805, 17_528],
      ['iva8', 13_500, 1_000, 12_500],
      ['exento', 2_000, 0, 2_000],
    ]);
    expect(b).toMatchObject({ amount: 35_833, tax: 3_805, base: 32_028, derived: false });
    expectExact(b);
  });

  it('shares a check discount over the lines before grouping, exact to the centavo', () => {
    const lines = [line('a', 10_000, 1), line('b', 10_000, 1, { treatment: 'tasa0' })];
    const adjustments: AdjustmentSpec[] = [
      { id: 'x', kind: 'discount', itemId: null, units: null, percentBps: null, requestedAmount: cents(1_001) },
    ];
    const b = taxBreakdown(lines, adjustments);
    expect(b.amount).toBe(18_999);
    expect(b.groups.map((g) => g.amount)).toEqual([9_499, 9_500]);
    expectExact(b);
  });

  it('puts the IEPS inside the IVA base: amount = base × (1 + ieps) × (1 + iva)', () => {
    // base 100.00, IEPS 26.5 % → 126.50, IVA 16 % → 146.74
    const b = taxBreakdown([line('a', 14_674, 1, { iepsRateBp: 2_650 })], []);
    expect(b.groups[0]).toMatchObject({ base: 10_000, ieps: 2_650, tax: 2_024, amount: 14_674, iepsRateBp: 2_650 });
    expect(b.ieps).toBe(2_650);
    expectExact(b);
  });

  it('a check owing nothing has no groups', () => {
    const lines = [line('a', 5_000, 1)];
    const b = taxBreakdown(lines, [{ id: 'c', kind: 'comp', itemId: null, units: null, percentBps: null, requestedAmount: null }]);
    expect(b).toEqual({ groups: [], base: 0, tax: 0, amount: 0, derived: false });
  });

  it('derives an old order at one rate, marked', () => {
    expect(flatBreakdown(cents(11_600), 'iva16', true)).toEqual({
      groups: [{ treatment: 'iva16', rateBp: 1600, base: 10_000, tax: 1_600, amount: 11_600 }],
      base: 10_000,
      tax: 1_600,
      amount: 11_600,
      derived: true,
    });
  });
});

describe('apportion', () => {
  it('adds up exactly, largest remainder first, never above a weight', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 8 }), fc.nat(), (weights, seed) => {
        const sum = weights.reduce((s, w) => s + w, 0);
        const total = sum === 0 ? 0 : seed % (sum + 1);
        const shares = apportion(total, weights);
        expect(shares.reduce((s, x) => s + x, 0)).toBe(total);
        shares.forEach((s, i) => {
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(weights[i]!);
        });
      }),
    );
  });
});

// Arbitrary carts: prices as promotions and modifiers leave them (any centavo, $0 rows of NxM),
// any treatment, some with IEPS, voided lines, and adjustments of every kind.
const lineArb = fc.record({
  productPrice: fc.integer({ min: 0, max: 500_000 }),
  quantity: fc.integer({ min: 1, max: 12 }),
  isDeleted: fc.boolean(),
  treatment: fc.constantFrom(...TAX_TREATMENTS),
  iepsRateBp: fc.option(fc.constantFrom(800, 2_650, 3_000, 5_300), { freq: 4 }),
});
const adjustmentArb = (ids: string[]) =>
  fc.oneof(
    fc.record({ kind: fc.constant('comp' as const), itemId: fc.constantFrom(...ids), units: fc.integer({ min: 1, max: 5 }) }),
    fc.record({
      kind: fc.constant('discount' as const),
      itemId: fc.option(fc.constantFrom(...ids), { freq: 2 }),
      percentBps: fc.integer({ min: 1, max: 10_000 }),
    }),
    fc.record({
      kind: fc.constant('discount' as const),
      itemId: fc.option(fc.constantFrom(...ids), { freq: 2 }),
      requestedAmount: fc.integer({ min: 1, max: 200_000 }),
    }),
    fc.record({ kind: fc.constant('comp' as const), itemId: fc.constant(null) }),
  );
const cartArb = fc.array(lineArb, { minLength: 1, maxLength: 10 }).chain((raw) => {
  const lines: TaxLine[] = raw.map((l, i) => ({ ...l, id: `l${i}`, productPrice: cents(l.productPrice) }));
  return fc.array(adjustmentArb(lines.map((l) => l.id)), { maxLength: 4 }).map((adj) => ({
    lines,
    adjustments: adj.map((a, i): AdjustmentSpec => ({
      id: `a${i}`,
      kind: a.kind,
      itemId: a.itemId ?? null,
      units: 'units' in a ? a.units : null,
      percentBps: 'percentBps' in a ? a.percentBps : null,
      requestedAmount: 'requestedAmount' in a ? cents(a.requestedAmount) : null,
    })),
  }));
});

describe('taxBreakdown: properties', () => {
  it('any cart: Σ bases + Σ taxes = what the check charges, exactly; nothing negative', () => {
    fc.assert(
      fc.property(cartArb, ({ lines, adjustments }) => {
        const b = taxBreakdown(lines, adjustments);
        expect(b.amount).toBe(computeAdjustments(lines, adjustments).owed);
        expectExact(b);
      }),
      { numRuns: 400 },
    );
  });

  it('equal shares: the parts carry exactly the whole, group by group, each part exact to what it charges', () => {
    fc.assert(
      fc.property(cartArb, fc.integer({ min: 2, max: 20 }), ({ lines, adjustments }, count) => {
        const whole = taxBreakdown(lines, adjustments);
        const plan = planEqualShares(whole.amount, count);
        fc.pre(plan.ok);
        if (!plan.ok) return;
        const parts = splitBreakdown(whole, [plan.keep, ...plan.shares]);
        parts.forEach((p, k) => {
          expectExact(p);
          expect(p.amount).toBe(k === 0 ? plan.keep : plan.shares[k - 1]);
        });
        const summed = sumBreakdowns(parts);
        expect(summed.groups).toEqual(whole.groups);
        expect([summed.base, summed.tax, summed.ieps, summed.amount]).toEqual([whole.base, whole.tax, whole.ieps, whole.amount]);
        // The check keeps the whole less its shares: the same part as the split's first.
        expect(subtractBreakdown(whole, sumBreakdowns(parts.slice(1)))).toEqual(parts[0]);
      }),
      { numRuns: 300 },
    );
  });

  it('split by item: each check exact; per group, the checks IVA is within ⌊(N+1)/2⌋ centavos of the unsplit check', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 2, maxLength: 10 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat(), { minLength: 10, maxLength: 10 }),
        (raw, newChecks, picks) => {
          const lines: TaxLine[] = raw.map((l, i) => ({ ...l, isDeleted: false, id: `l${i}`, productPrice: cents(l.productPrice) }));
          // Each new check takes some units of some lines; the plan says what stays.
          const takes = Array.from({ length: newChecks }, (_, k) => {
            const take: Record<string, number> = {};
            lines.forEach((l, i) => {
              if ((picks[i]! + k) % (newChecks + 1) === 0) take[l.id] = Math.max(1, Math.floor(l.quantity / (newChecks + 1)));
            });
            return take;
          });
          const plan = planChecks(lines, takes);
          fc.pre(plan.ok);
          if (!plan.ok) return;
          const checks = [
            lines.map((l) => ({ ...l, quantity: plan.remaining[l.id]! })),
            ...takes.map((t) => lines.map((l) => ({ ...l, quantity: t[l.id] ?? 0 }))),
          ];
          const whole = taxBreakdown(lines, []);
          const each = checks.map((c) => taxBreakdown(c, []));
          each.forEach(expectExact);
          const summed = sumBreakdowns(each);
          expect(summed.amount).toBe(whole.amount);
          const n = checks.length;
          for (const g of whole.groups) {
            const s = summed.groups.find((x) => x.treatment === g.treatment && x.iepsRateBp === g.iepsRateBp)!;
            expect(s.amount).toBe(g.amount);
            expect(Math.abs(s.tax - g.tax)).toBeLessThanOrEqual(Math.floor((n + 1) / 2));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('splitBreakdown', () => {
  it('refuses parts that do not add up to the whole', () => {
    const whole = flatBreakdown(cents(1_000), 'iva16', false);
    expect(() => splitBreakdown(whole, [cents(500), cents(400)] as Cents[])).toThrow(RangeError);
  });
});
