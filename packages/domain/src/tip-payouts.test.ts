import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValidPool, largestRemainder, poolShares, tipsByWaiter, type PoolMember, type TipPayment } from './tip-payouts.ts';

const pay = (waiterId: string, method: TipPayment['method'], tip: number): TipPayment => ({
  waiterId,
  waiterName: waiterId === 'a' ? 'Ana' : 'Beto',
  method,
  tip,
});

describe('tips per waiter', () => {
  it('cash tips stay with the waiter; card and transfer tips are owed until paid out', () => {
    const rows = tipsByWaiter(
      [
        pay('a', 'efectivo', 3000),
        pay('a', 'tarjeta', 4500),
        pay('a', 'transferencia', 1000),
        pay('b', 'tarjeta', 2000),
        pay('a', 'tarjeta', 500),
      ],
      [{ userId: 'a', userName: 'Ana', amount: 2000 }],
    );
    expect(rows).toEqual([
      { userId: 'a', name: 'Ana', cash: 3000, card: 5000, transfer: 1000, earned: 6000, paid: 2000, owed: 4000 },
      { userId: 'b', name: 'Beto', cash: 0, card: 2000, transfer: 0, earned: 2000, paid: 0, owed: 2000 },
    ]);
  });

  it('a payout to someone with no tips of their own shows as paid, and owed never goes negative', () => {
    const rows = tipsByWaiter([pay('a', 'tarjeta', 100)], [{ userId: 'k', userName: 'Cocina', amount: 50 }]);
    expect(rows.find((r) => r.userId === 'k')).toMatchObject({ earned: 0, paid: 50, owed: 0 });
  });
});

describe('largest remainder', () => {
  it('splits exactly, the spare centavos to the largest remainders', () => {
    expect(largestRemainder(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(largestRemainder(1000, [80, 10, 10])).toEqual([800, 100, 100]);
    expect(largestRemainder(1001, [80, 10, 10])).toEqual([801, 100, 100]);
    expect(largestRemainder(7, [0, 0])).toEqual([0, 0]);
    expect(() => largestRemainder(-1, [1])).toThrow(RangeError);
  });

  it('parts always sum to the total, are never negative and never stray a centavo from their share (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 40 }),
        (total, weights) => {
          const parts = largestRemainder(total, weights);
          const sum = weights.reduce((a, w) => a + w, 0);
          // A property passes by returning nothing (or true): never return an assertion's own value.
          if (sum === 0) {
            expect(parts.every((p) => p === 0)).toBe(true);
            return;
          }
          expect(parts.reduce((a, p) => a + p, 0)).toBe(total);
          // Exactly, in integers: |p − total·w/sum| < 1 ⇔ |p·sum − total·w| < sum (floats can round a
          // share of 5.9999999999999999 up to 6 and fail a correct 5).
          parts.forEach((p, i) => {
            expect(p).toBeGreaterThanOrEqual(0);
            const gap = BigInt(p) * BigInt(sum) - BigInt(total) * BigInt(weights[i]!);
            expect(gap < BigInt(sum) && gap > -BigInt(sum)).toBe(true);
          });
        },
      ),
      // Always tried: all weights zero (every part 0) and a share that floats would round up.
      {
        examples: [
          [0, [0]],
          [7, [0, 0]],
          [1_000_000_000, [1, 999_999, 3]],
        ],
      },
    );
  });
});

describe('tip pool', () => {
  const staff: PoolMember[] = [
    { userId: 'k1', name: 'Cocina 1', role: 'kitchen' },
    { userId: 'k2', name: 'Cocina 2', role: 'kitchen' },
    { userId: 'x1', name: 'Barra 1', role: 'barra' },
  ];
  const earned = [
    { userId: 'a', name: 'Ana', earned: 6000 },
    { userId: 'b', name: 'Beto', earned: 2001 },
  ];

  it('meseros 80 %, cocina 10 %, barra 10 %: waiters by what they earned, the others in equal parts', () => {
    const shares = poolShares(earned, staff, { waiter: 80, kitchen: 10, barra: 10 });
    const by = Object.fromEntries(shares.map((s) => [s.userId, s.amount]));
    // Pool 80.01: waiters 64.01 (by 6000:2001), cocina 8.00 (4.00 each), barra 8.00.
    expect(by).toEqual({ a: 4800, b: 1601, k1: 400, k2: 400, x1: 800 });
  });

  it('a role with nobody in it gives its percent to the others; with no percent left the waiters keep theirs', () => {
    const noBar = poolShares(earned, staff.slice(0, 2), { waiter: 80, kitchen: 10, barra: 10 });
    expect(noBar.reduce((a, s) => a + s.amount, 0)).toBe(8001);
    expect(noBar.filter((s) => s.role === 'kitchen').map((s) => s.amount)).toEqual([445, 444]);
    const onlyBar = poolShares(earned, [], { waiter: 0, kitchen: 0, barra: 100 });
    expect(onlyBar.map((s) => s.amount)).toEqual([6000, 2001]);
  });

  it('validates the percents', () => {
    expect(isValidPool({ waiter: 80, kitchen: 10, barra: 10 })).toBe(true);
    expect(isValidPool({ waiter: 80, kitchen: 10, barra: 5 })).toBe(false);
    expect(isValidPool({ waiter: 80.5, kitchen: 9.5, barra: 10 })).toBe(false);
  });

  it('the shares always sum to the pool exactly (property)', () => {
    const percents = fc
      .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }))
      .map(([a, b]) => ({ waiter: Math.min(a, 100), kitchen: Math.min(b, 100 - Math.min(a, 100)) }))
      .map((p) => ({ ...p, barra: 100 - p.waiter - p.kitchen }));
    const member = fc.record({
      userId: fc.uuid(),
      name: fc.constant('x'),
      role: fc.constantFrom('kitchen' as const, 'barra' as const),
    });
    const waiter = fc.record({ userId: fc.uuid(), name: fc.constant('m'), earned: fc.integer({ min: 0, max: 5_000_000 }) });
    fc.assert(
      fc.property(fc.array(waiter, { maxLength: 20 }), fc.array(member, { maxLength: 10 }), percents, (ws, members, p) => {
        const shares = poolShares(ws, members, p);
        const pool = ws.reduce((a, w) => a + w.earned, 0);
        expect(shares.reduce((a, s) => a + s.amount, 0)).toBe(pool);
        expect(shares.every((s) => s.amount >= 0)).toBe(true);
      }),
    );
  });
});
