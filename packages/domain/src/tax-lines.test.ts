import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cents } from './money.ts';
import { taxBreakdown, TAX_TREATMENTS, type TaxLine } from './tax.ts';
import { ratePercent, taxSummary, taxSummaryRows, TAX_TEXT } from './tax-lines.ts';

const line = (id: string, price: number, quantity: number, over: Partial<TaxLine> = {}): TaxLine => ({
  id,
  productPrice: cents(price),
  quantity,
  isDeleted: false,
  treatment: 'iva16',
  iepsRateBp: null,
  ...over,
});

describe('taxSummary', () => {
  it('reads a check with food at 16 % and a drink at 8 % as subtotal, one line per rate and total', () => {
    const b = taxBreakdown([line('a', 11_600, 1), line('b', 10_800, 1, { treatment: 'iva8' })], []);
    const s = taxSummary(b);
    expect(taxSummaryRows(s)).toEqual([
      { label: 'Subtotal sin IVA', amount: 20_000 },
      { label: 'IVA 16 %', amount: 1_600 },
      { label: 'IVA 8 %', amount: 800 },
      { label: 'Total', amount: 22_400 },
    ]);
    expect(s.includedNote).toBe(true);
  });

  it('leaves rates of 0 out and says nothing of IVA when no line carries it', () => {
    const s = taxSummary(taxBreakdown([line('a', 5_000, 2, { treatment: 'exento' }), line('b', 1_000, 1, { treatment: 'tasa0' })], []));
    expect(s.rates).toEqual([]);
    expect(s.subtotal).toBe(11_000);
    expect(s.includedNote).toBe(false);
  });

  it('prints the IEPS by its rate, inside the total', () => {
    const s = taxSummary(taxBreakdown([line('a', 12_600, 1, { iepsRateBp: 2_650 })], []));
    expect(s.rates.map((r) => r.label)).toEqual(['IEPS 26.5 %', 'IVA 16 %']);
    expect(ratePercent(800)).toBe('8 %');
  });

  it('adds a night of checks group by group', () => {
    const one = taxBreakdown([line('a', 11_600, 1)], []);
    const two = taxBreakdown([line('b', 10_800, 3, { treatment: 'iva8' })], []);
    const s = taxSummary([one, two]);
    expect(s.total).toBe(11_600 + 32_400);
    expect(s.rates.find((r) => r.label === TAX_TEXT.iva('8 %'))!.amount).toBe(two.tax);
  });

  it('its lines add up to the total to the centavo, for any mix of rates', () => {
    const arbLine = fc.record({
      price: fc.integer({ min: 1, max: 500_000 }),
      quantity: fc.integer({ min: 1, max: 20 }),
      treatment: fc.constantFrom(...TAX_TREATMENTS),
      ieps: fc.option(fc.integer({ min: 1, max: 30_000 }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(arbLine, { maxLength: 12 }), (specs) => {
        const b = taxBreakdown(
          specs.map((s, i) => line(String(i), s.price, s.quantity, { treatment: s.treatment, iepsRateBp: s.ieps })),
          [],
        );
        const s = taxSummary(b);
        expect(s.subtotal + s.rates.reduce((acc, r) => acc + r.amount, 0)).toBe(s.total);
        expect(s.total).toBe(b.amount);
      }),
    );
  });
});
