import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { cents } from './money.ts';
import { CASH_HINT, cashShortfall, changeDue, isCashSufficient } from './cash.ts';

describe('cash', () => {
  it('returns the difference when the customer pays more', () => {
    expect(changeDue(cents(50000), cents(28750))).toBe(21250);
  });

  it('is zero for exact or short payments', () => {
    expect(changeDue(cents(28750), cents(28750))).toBe(0);
    expect(changeDue(cents(10000), cents(28750))).toBe(0);
    expect(changeDue(cents(0), cents(28750))).toBe(0);
  });

  it('reports what is missing', () => {
    expect(cashShortfall(cents(10000), cents(28750))).toBe(18750);
    expect(cashShortfall(cents(30000), cents(28750))).toBe(0);
    expect(isCashSufficient(cents(28750), cents(28750))).toBe(true);
    expect(isCashSufficient(cents(28749), cents(28750))).toBe(false);
  });

  it('change is never negative and never more than what was received over the total', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 0, max: 1e12 }), (r, t) => {
        const change = changeDue(cents(r), cents(t));
        expect(change).toBeGreaterThanOrEqual(0);
        expect(change).toBe(Math.max(0, r - t));
        expect(change - cashShortfall(cents(r), cents(t))).toBe(r - t);
      }),
    );
  });

  it('has the spec hint', () => {
    expect(CASH_HINT).toBe('Verifica el cambio antes de finalizar');
  });
});
