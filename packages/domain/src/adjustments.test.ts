import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cents } from './money.ts';
import {
  checkDiscountOverBill,
  computeAdjustments,
  discountOn,
  orderFigures,
  owedAmount,
  uncompedUnits,
  type AdjustmentLine,
  type AdjustmentSpec,
} from './adjustments.ts';

const line = (id: string, price: number, quantity: number, isDeleted = false): AdjustmentLine => ({
  id,
  productPrice: cents(price),
  quantity,
  isDeleted,
});
const adj = (over: Partial<AdjustmentSpec> & Pick<AdjustmentSpec, 'id' | 'kind'>): AdjustmentSpec => ({
  itemId: null,
  units: null,
  percentBps: null,
  requestedAmount: null,
  ...over,
});

describe('discountOn', () => {
  it('takes a percent rounded to the centavo, or an amount, never more than the base', () => {
    expect(discountOn(cents(10_000), { percentBps: 1000, requestedAmount: null })).toBe(1000);
    expect(discountOn(cents(333), { percentBps: 1000, requestedAmount: null })).toBe(33);
    expect(discountOn(cents(335), { percentBps: 1000, requestedAmount: null })).toBe(34);
    expect(discountOn(cents(500), { percentBps: 20_000, requestedAmount: null })).toBe(500);
    expect(discountOn(cents(500), { percentBps: null, requestedAmount: cents(800) })).toBe(500);
    expect(discountOn(cents(0), { percentBps: 1000, requestedAmount: null })).toBe(0);
    expect(discountOn(cents(500), { percentBps: -5, requestedAmount: null })).toBe(0);
  });
});

describe('checkDiscountOverBill', () => {
  it('an amount off the check beyond what is left is refused; a line discount, a percent or an exact amount is not', () => {
    const check = adj({ id: 'd', kind: 'discount', requestedAmount: cents(15_000) });
    expect(checkDiscountOverBill(check, computeAdjustments([line('t', 9_500, 1)], [check]).amounts.get('d')!)).toBe(true);
    expect(checkDiscountOverBill(check, 15_000)).toBe(false);
    expect(checkDiscountOverBill({ ...check, itemId: 't' }, 9_500)).toBe(false);
    expect(checkDiscountOverBill({ ...check, requestedAmount: null }, 9_500)).toBe(false);
    expect(checkDiscountOverBill({ ...check, kind: 'comp' }, 9_500)).toBe(false);
  });
});

describe('computeAdjustments', () => {
  const beers = line('b', 5000, 3); // 3 × $50
  const tacos = line('t', 12_000, 2); // 2 × $120

  it('comps units at their unit price and discounts the check on what is left', () => {
    const r = computeAdjustments(
      [beers, tacos],
      [adj({ id: 'c', kind: 'comp', itemId: 'b', units: 1 }), adj({ id: 'd', kind: 'discount', percentBps: 1000 })],
    );
    expect(r.subtotal).toBe(39_000);
    expect(r.comps).toBe(5000);
    expect(r.discounts).toBe(3400); // 10 % of 340.00
    expect(r.owed).toBe(30_600);
    expect(r.amounts.get('c')).toBe(5000);
    expect(r.amounts.get('d')).toBe(3400);
  });

  it('applies line comps before line discounts whatever the order they were made in', () => {
    const r = computeAdjustments(
      [beers],
      [adj({ id: 'd', kind: 'discount', itemId: 'b', percentBps: 5000 }), adj({ id: 'c', kind: 'comp', itemId: 'b', units: 2 })],
    );
    expect(r.amounts.get('c')).toBe(10_000);
    expect(r.amounts.get('d')).toBe(2500); // half of the one beer left
    expect(r.owed).toBe(2500);
  });

  it('never comps more units than the line has, and re-applies after units change', () => {
    const specs = [adj({ id: 'c1', kind: 'comp', itemId: 'b', units: 2 }), adj({ id: 'c2', kind: 'comp', itemId: 'b', units: 2 })];
    const r = computeAdjustments([beers], specs);
    expect(r.amounts.get('c1')).toBe(10_000);
    expect(r.amounts.get('c2')).toBe(5000);
    expect(r.owed).toBe(0);
    const fewer = computeAdjustments([line('b', 5000, 1)], specs);
    expect(fewer.comps).toBe(5000);
    expect(uncompedUnits(beers, specs)).toBe(0);
    expect(uncompedUnits(line('b', 5000, 6), specs)).toBe(2);
  });

  it('clamps an amount discount when the line shrinks, and gives it back when the line grows', () => {
    const specs = [adj({ id: 'd', kind: 'discount', itemId: 't', requestedAmount: cents(20_000) })];
    expect(computeAdjustments([line('t', 12_000, 1)], specs).amounts.get('d')).toBe(12_000);
    expect(computeAdjustments([line('t', 12_000, 2)], specs).amounts.get('d')).toBe(20_000);
    expect(computeAdjustments([line('t', 12_000, 1, true)], specs).amounts.get('d')).toBe(0);
  });

  it('a comp of the whole order takes whatever is left', () => {
    const r = computeAdjustments([beers, tacos], [adj({ id: 'd', kind: 'discount', percentBps: 1000 }), adj({ id: 'all', kind: 'comp' })]);
    expect(r.discounts).toBe(3900);
    expect(r.comps).toBe(35_100);
    expect(r.owed).toBe(0);
    expect(orderFigures({ subtotal: r.subtotal, discounts: r.discounts, comps: r.comps, tipBps: 1500 })).toEqual({
      subtotal: 39_000,
      discounts: 3900,
      comps: 35_100,
      owed: 0,
      tip: 0,
      total: 0,
    });
  });

  it('tips on what is owed', () => {
    expect(orderFigures({ subtotal: cents(10_000), discounts: cents(1000), comps: cents(0), tipBps: 1000 })).toMatchObject({
      owed: 9000,
      tip: 900,
      total: 9900,
    });
    expect(owedAmount({ subtotal: 100, discounts: 80, comps: 80 })).toBe(0);
  });
});

const lineArb = fc.record({
  id: fc.constantFrom('a', 'b', 'c', 'd'),
  productPrice: fc.integer({ min: 0, max: 1_000_000 }).map(cents),
  quantity: fc.integer({ min: 1, max: 50 }),
  isDeleted: fc.boolean(),
});
const specArb = fc.record({
  id: fc.uuid(),
  kind: fc.constantFrom('discount' as const, 'comp' as const),
  itemId: fc.constantFrom(null, 'a', 'b', 'c', 'd', 'zz'),
  units: fc.option(fc.integer({ min: -2, max: 60 }), { nil: null }),
  percentBps: fc.option(fc.integer({ min: -100, max: 20_000 }), { nil: null }),
  requestedAmount: fc.option(fc.integer({ min: 0, max: 10_000_000 }).map(cents), { nil: null }),
});
const uniqueLines = fc.uniqueArray(lineArb, { selector: (l) => l.id, maxLength: 4 });

describe('computeAdjustments properties', () => {
  it('never negative, exact in centavos, and the parts add up to the subtotal', () => {
    fc.assert(
      fc.property(uniqueLines, fc.array(specArb, { maxLength: 12 }), fc.integer({ min: 0, max: 10_000 }), (lines, specs, tipBps) => {
        const r = computeAdjustments(lines, specs);
        const values = [r.subtotal, r.discounts, r.comps, r.owed, ...r.amounts.values()];
        for (const v of values) {
          expect(Number.isSafeInteger(v)).toBe(true);
          expect(v).toBeGreaterThanOrEqual(0);
        }
        expect(r.discounts + r.comps + r.owed).toBe(r.subtotal);
        const sum = [...r.amounts.values()].reduce((a, b) => a + b, 0);
        expect(sum).toBe(r.discounts + r.comps);
        const f = orderFigures({ subtotal: r.subtotal, discounts: r.discounts, comps: r.comps, tipBps });
        expect(f.owed).toBe(r.owed);
        expect(f.total).toBe(f.owed + f.tip);
        expect(f.total).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('what a line loses to comps and line discounts never exceeds its value', () => {
    fc.assert(
      fc.property(uniqueLines, fc.array(specArb, { maxLength: 12 }), (lines, specs) => {
        const r = computeAdjustments(lines, specs);
        for (const l of lines) {
          const taken = specs.filter((s) => s.itemId === l.id).reduce((sum, s) => sum + r.amounts.get(s.id)!, 0);
          expect(taken).toBeLessThanOrEqual(l.isDeleted ? 0 : l.productPrice * l.quantity);
        }
      }),
    );
  });

  it('an adjustment on its own never takes more than a 100 % discount would', () => {
    fc.assert(
      fc.property(uniqueLines, specArb, (lines, spec) => {
        const r = computeAdjustments(lines, [spec]);
        expect(r.amounts.get(spec.id)!).toBeLessThanOrEqual(r.subtotal);
      }),
    );
  });
});
