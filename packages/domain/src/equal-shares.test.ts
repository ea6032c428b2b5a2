import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cents } from './money.ts';
import { checkOwed, EQUAL_SHARES_MAX, planEqualShares } from './checks.ts';

describe('planEqualShares', () => {
  it('N equal shares sum exactly to what is owed, differ by at most one centavo, none is zero', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000_000 }), fc.integer({ min: 2, max: EQUAL_SHARES_MAX }), (owed, n) => {
        const plan = planEqualShares(cents(owed), n);
        if (owed < n) {
          expect(plan.ok).toBe(false);
          return;
        }
        if (!plan.ok) throw new Error(plan.message);
        const all = [plan.keep, ...plan.shares];
        expect(all).toHaveLength(n);
        expect(all.reduce((a, b) => a + b, 0)).toBe(owed);
        expect(plan.keep + plan.sharedOut).toBe(owed);
        expect(Math.max(...all) - Math.min(...all)).toBeLessThanOrEqual(1);
        expect(Math.min(...all)).toBeGreaterThan(0);
        // Largest remainder: the leftover centavos go to the first shares.
        expect([...all].sort((a, b) => b - a)).toEqual(all);
        // Each check then owes its share; the family owes the whole.
        const owedByChecks =
          checkOwed({ owed, sharedOut: plan.sharedOut, shareAmount: 0 }) +
          plan.shares.reduce((sum, s) => sum + checkOwed({ owed: 0, sharedOut: 0, shareAmount: s }), 0);
        expect(owedByChecks).toBe(owed);
      }),
    );
  });

  it('$100.00 in 3: 33.34 stays on the order, 33.33 and 33.33 go to the share checks', () => {
    expect(planEqualShares(cents(10_000), 3)).toEqual({ ok: true, keep: 3_334, shares: [3_333, 3_333], sharedOut: 6_666 });
  });

  it('refuses fewer than 2 or more than the maximum, and an amount smaller than the shares', () => {
    expect(planEqualShares(cents(10_000), 1)).toMatchObject({ ok: false, reason: 'count' });
    expect(planEqualShares(cents(10_000), EQUAL_SHARES_MAX + 1)).toMatchObject({ ok: false, reason: 'count' });
    expect(planEqualShares(cents(10_000), 2.5)).toMatchObject({ ok: false, reason: 'count' });
    expect(planEqualShares(cents(2), 3)).toMatchObject({ ok: false, reason: 'too_small' });
  });

  it('what a check owes is never negative', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), (owed, sharedOut, shareAmount) => {
        expect(checkOwed({ owed, sharedOut, shareAmount })).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
