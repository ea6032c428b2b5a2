import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cents, type Cents } from './money.ts';
import { tipAmount } from './tip.ts';
import {
  dominantMethod,
  equalShares,
  nextShare,
  paidTowardOwed,
  partialPaymentError,
  paymentBalance,
  paymentsTip,
  type PaymentPart,
} from './partial-payments.ts';

const owedArb = fc.integer({ min: 1, max: 50_000_000 }).map(cents);

describe('partial payments', () => {
  it('any sequence of accepted parts that ends at balance 0 sums exactly to the amount owed', () => {
    fc.assert(
      fc.property(
        owedArb,
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 10_000 })), { maxLength: 30 }),
        (owed, choices) => {
          const payments: PaymentPart[] = [];
          for (const [fraction, bps] of choices) {
            const balance = paymentBalance(owed, payments);
            if (balance <= 0) break;
            const part = cents(Math.max(1, Math.floor(balance * fraction)));
            expect(partialPaymentError(balance, part)).toBeNull();
            const tip = tipAmount(part, bps);
            payments.push({ amount: part + tip, tipAmount: tip });
          }
          // The last part pays whatever is left, as the checkout proposes.
          const rest = paymentBalance(owed, payments);
          if (rest > 0) payments.push({ amount: rest, tipAmount: 0 });
          expect(paymentBalance(owed, payments)).toBe(0);
          expect(paidTowardOwed(payments)).toBe(owed);
          const total = payments.reduce((s, p) => s + p.amount, 0);
          expect(total).toBe(owed + paymentsTip(payments));
        },
      ),
    );
  });

  it('refuses a part above the balance, zero or negative parts, and any part once settled', () => {
    expect(partialPaymentError(cents(1000), cents(1001))).toMatch(/excede el saldo pendiente/);
    expect(partialPaymentError(cents(1000), cents(0))).toMatch(/mayor a cero/);
    expect(partialPaymentError(cents(1000), cents(-5))).toMatch(/mayor a cero/);
    expect(partialPaymentError(cents(0), cents(1))).toMatch(/no tiene saldo/);
    expect(partialPaymentError(cents(1000), cents(1000))).toBeNull();
  });

  it('equal shares sum exactly to the balance, differ by at most a centavo, the larger ones last', () => {
    fc.assert(
      fc.property(owedArb, fc.integer({ min: 1, max: 100 }), (balance, n) => {
        const shares = equalShares(balance, n);
        expect(shares).toHaveLength(n);
        expect(shares.reduce((s, x) => s + x, 0)).toBe(balance);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
        expect([...shares].sort((a, b) => a - b)).toEqual(shares);
      }),
    );
  });

  it('paying the proposed next share N times ends exactly at zero, whatever tips are added', () => {
    fc.assert(
      fc.property(owedArb, fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 3000 }), (owed, n, bps) => {
        const payments: PaymentPart[] = [];
        for (let left = n; left > 0; left--) {
          const share: Cents = nextShare(paymentBalance(owed, payments), left);
          const tip = tipAmount(share, bps);
          payments.push({ amount: share + tip, tipAmount: tip });
        }
        expect(paymentBalance(owed, payments)).toBe(0);
      }),
    );
    expect(equalShares(cents(1000), 3)).toEqual([333, 333, 334]);
  });

  it('names a mixed payment by the method that took the most', () => {
    expect(
      dominantMethod([
        { method: 'efectivo', amount: 100 },
        { method: 'tarjeta', amount: 300 },
      ]),
    ).toBe('tarjeta');
    expect(dominantMethod([])).toBeNull();
  });
});
