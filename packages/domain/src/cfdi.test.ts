import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { breakdownOf, taxGroup, TAX_TREATMENTS } from './tax.ts';
import { cents } from './money.ts';
import { cfdiConcepts, conceptTaxes, conceptsTotal, usoAllowed } from './cfdi.ts';
import { formaPagoOf } from './forma-pago.ts';

describe('CFDI concepts from the frozen breakdown', () => {
  it('keeps the frozen base and IVA when the rounding gives the amount back', () => {
    const breakdown = breakdownOf([taxGroup('iva16', null, cents(10_000))]);
    const [concept] = cfdiConcepts(breakdown);
    expect(concept).toMatchObject({ base: 8621, ivaRateBp: 1600, productKey: '90101501', unitKey: 'E48' });
    expect(conceptTaxes(concept!)).toEqual({ ieps: 0, iva: 1379, total: 10_000 });
  });

  it('charges exactly what the check charged for any amounts, rates and IEPS', () => {
    const group = fc.record({
      treatment: fc.constantFrom(...TAX_TREATMENTS),
      ieps: fc.option(fc.constantFrom(600, 800, 2650, 3000, 5300, 16_000), { nil: null }),
      amount: fc.integer({ min: 1, max: 5_000_000 }),
    });
    fc.assert(
      fc.property(fc.array(group, { minLength: 1, maxLength: 4 }), (groups) => {
        const breakdown = breakdownOf(groups.map((g) => taxGroup(g.treatment, g.ieps, cents(g.amount))));
        const concepts = cfdiConcepts(breakdown);
        expect(conceptsTotal(concepts)).toBe(breakdown.amount);
        for (const c of concepts) expect(c.base).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('splits an amount the rounding skips into two concepts', () => {
    // The first amount no single base charges at 16 % (base + its rounded IVA jumps over it).
    const skipped = Array.from({ length: 200 }, (_, i) => i + 1).find(
      (a) => !Array.from({ length: a + 1 }, (_, b) => conceptTaxes({ base: b, ivaRateBp: 1600, iepsRateBp: null }).total).includes(a),
    )!;
    const concepts = cfdiConcepts(breakdownOf([taxGroup('iva16', null, cents(skipped))]));
    expect(concepts).toHaveLength(2);
    expect(conceptsTotal(concepts)).toBe(skipped);
  });

  it('takes the largest part as the forma de pago and checks uso × régimen', () => {
    expect(
      formaPagoOf([
        { method: 'efectivo', amount: 100 },
        { method: 'tarjeta', amount: 300 },
      ]),
    ).toBe('04');
    expect(formaPagoOf([{ method: 'transferencia', amount: 100 }])).toBe('03');
    expect(usoAllowed('G03', '601')).toBe(true);
    expect(usoAllowed('D01', '601')).toBe(false);
    expect(usoAllowed('S01', '616')).toBe(true);
    expect(usoAllowed('G03', '616')).toBe(false);
  });
});
