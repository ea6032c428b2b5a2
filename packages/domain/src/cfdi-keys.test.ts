import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cents } from './money.ts';
import { chargedLines, splitBreakdown, taxBreakdown, TAX_TREATMENTS } from './tax.ts';
import type { AdjustmentSpec } from './adjustments.ts';
import { conceptsTotal } from './cfdi.ts';
import { keyedAmounts, keyedConcepts, type KeyedLine } from './cfdi-keys.ts';

const line = (
  id: string,
  price: number,
  treatment: KeyedLine['treatment'],
  productKey?: string,
  unitKey?: string,
  quantity = 1,
): KeyedLine => ({
  id,
  productPrice: cents(price),
  quantity,
  isDeleted: false,
  treatment,
  iepsRateBp: null,
  ...(productKey ? { productKey } : {}),
  ...(unitKey ? { unitKey } : {}),
});

describe('CFDI concepts under each product SAT keys', () => {
  it('gives each product key and unit key its own concepts; a product without keys takes the defaults', () => {
    const lines = [
      line('a', 9000, 'iva16', '50202201', 'H87', 2),
      line('b', 15_000, 'iva16', '90101501', 'E48'),
      line('c', 4000, 'iva16'),
      line('d', 3000, 'tasa0', '50192100', 'H87'),
    ];
    const breakdown = taxBreakdown(lines, []);
    const concepts = keyedConcepts(breakdown, keyedAmounts(chargedLines(lines, [])));
    expect(conceptsTotal(concepts)).toBe(breakdown.amount);
    expect(new Set(concepts.map((c) => `${c.productKey}/${c.unitKey}/${c.treatment}`))).toEqual(
      new Set(['50202201/H87/iva16', '90101501/E48/iva16', '50192100/H87/tasa0']),
    );
    // Without what the lines charged (a share check): the default keys, one per rate group.
    const plain = keyedConcepts(breakdown, null);
    expect(new Set(plain.map((c) => `${c.productKey}/${c.unitKey}`))).toEqual(new Set(['90101501/E48']));
    expect(conceptsTotal(plain)).toBe(breakdown.amount);
  });

  it('charges exactly what the check charged, for random carts, discounts and split parts', () => {
    const keys = fc.constantFrom(['50202201', 'H87'], ['90101501', 'E48'], ['50192100', 'H87'], [undefined, undefined]);
    const cartLine = fc.record({
      price: fc.integer({ min: 1, max: 200_000 }),
      quantity: fc.integer({ min: 1, max: 6 }),
      treatment: fc.constantFrom(...TAX_TREATMENTS),
      ieps: fc.option(fc.constantFrom(800, 2650, 5300), { nil: null }),
      keys,
      deleted: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(cartLine, { minLength: 1, maxLength: 8 }),
        fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
        fc.integer({ min: 1, max: 4 }),
        (cart, discountBps, parts) => {
          const lines: KeyedLine[] = cart.map((l, i) => ({
            ...line(`l${i}`, l.price, l.treatment, l.keys[0], l.keys[1], l.quantity),
            iepsRateBp: l.ieps,
            isDeleted: l.deleted,
          }));
          const adjustments: AdjustmentSpec[] = discountBps
            ? [{ id: 'd', kind: 'discount', itemId: null, units: null, percentBps: discountBps, requestedAmount: null }]
            : [];
          const breakdown = taxBreakdown(lines, adjustments);
          const keyed = keyedAmounts(chargedLines(lines, adjustments));
          const whole = keyedConcepts(breakdown, keyed);
          expect(conceptsTotal(whole)).toBe(breakdown.amount);
          for (const c of whole) expect(c.base).toBeGreaterThan(0);
          // A check split in equal parts: each part's concepts charge that part exactly.
          if (breakdown.amount >= parts) {
            const each = Math.floor(breakdown.amount / parts);
            const amounts = Array.from({ length: parts }, (_, k) => cents(k === parts - 1 ? breakdown.amount - each * (parts - 1) : each));
            for (const part of splitBreakdown(breakdown, amounts)) expect(conceptsTotal(keyedConcepts(part, keyed))).toBe(part.amount);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});
