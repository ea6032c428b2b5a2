import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  countTotal,
  DENOMINATION_SLOTS,
  drawerFigures,
  expectedCash,
  isValidCount,
  overShort,
  outflowRefusal,
  overShortLabel,
  type DrawerMovement,
  type DrawerPayment,
} from './drawer.ts';

describe('drawer', () => {
  it('adds a count of bills and coins in centavos', () => {
    expect(countTotal({})).toBe(0);
    expect(countTotal({ b100000: 1, b50000: 2, b2000: 3, m2000: 1, m50: 3 })).toBe(100000 + 100000 + 6000 + 2000 + 150);
    expect(countTotal({ m50: 1 })).toBe(50);
    expect(DENOMINATION_SLOTS.map((s) => s.value)).toEqual([100000, 50000, 20000, 10000, 5000, 2000, 2000, 1000, 500, 200, 100, 50]);
  });

  it('refuses negative, fractional or unknown counts', () => {
    expect(isValidCount({ b500: 1 } as never)).toBe(false);
    expect(isValidCount({ m100: -1 })).toBe(false);
    expect(isValidCount({ m100: 1.5 })).toBe(false);
    expect(() => countTotal({ m100: -1 })).toThrow(RangeError);
  });

  it('expected cash = float + cash sales − change + deposits − withdrawals − paid-outs − tip payouts', () => {
    const f = drawerFigures(
      50000,
      [
        { method: 'efectivo', amount: 23000, receivedAmount: 50000, changeAmount: 27000 },
        { method: 'efectivo', amount: 11500, receivedAmount: 11500, changeAmount: 0 },
        { method: 'tarjeta', amount: 99900, receivedAmount: null, changeAmount: null },
      ],
      [
        { kind: 'deposito', amount: 10000 },
        { kind: 'retiro', amount: 20000 },
        { kind: 'gasto', amount: 3500 },
        { kind: 'propinas', amount: 4000 },
      ],
    );
    expect(f).toMatchObject({
      float: 50000,
      cashSales: 34500,
      change: 27000,
      cashReceived: 61500,
      deposits: 10000,
      withdrawals: 20000,
      paidOuts: 3500,
      tipPayouts: 4000,
    });
    expect(expectedCash(f)).toBe(50000 + 34500 + 10000 - 20000 - 3500 - 4000);
  });

  it('over/short is counted minus expected', () => {
    expect(overShort(98000, 100000)).toBe(-2000);
    expect(overShortLabel(-2000)).toBe('Faltante');
    expect(overShortLabel(100)).toBe('Sobrante');
    expect(overShortLabel(0)).toBe('Cuadra');
  });

  it('expected cash is never affected by card or transfer payments (property)', () => {
    const amount = fc.integer({ min: 0, max: 10_000_000 });
    const cash = fc
      .record({ amount, extra: amount })
      .map(({ amount: a, extra }): DrawerPayment => ({ method: 'efectivo', amount: a, receivedAmount: a + extra, changeAmount: extra }));
    const other = fc
      .record({ method: fc.constantFrom('tarjeta' as const, 'transferencia' as const), amount })
      .map((p): DrawerPayment => ({ ...p, receivedAmount: null, changeAmount: null }));
    const movement = fc.record({
      kind: fc.constantFrom('deposito' as const, 'retiro' as const, 'gasto' as const, 'propinas' as const),
      amount,
    });
    fc.assert(
      fc.property(amount, fc.array(cash), fc.array(other), fc.array(movement), (float, cashPays, others, moves) => {
        const without = expectedCash(drawerFigures(float, cashPays, moves));
        const mixed = [...cashPays, ...others].sort((a, b) => a.amount - b.amount);
        expect(expectedCash(drawerFigures(float, mixed, moves))).toBe(without);
      }),
    );
  });

  it('each tip payout takes exactly its amount out of the expected cash (property)', () => {
    const amount = fc.integer({ min: 1, max: 10_000_000 });
    fc.assert(
      fc.property(amount, fc.array(amount), amount, (float, earlier, payout) => {
        const moves = earlier.map((a) => ({ kind: 'propinas' as const, amount: a }));
        const before = expectedCash(drawerFigures(float, [], moves));
        const after = expectedCash(drawerFigures(float, [], [...moves, { kind: 'propinas', amount: payout }]));
        expect(before - after).toBe(payout);
      }),
    );
  });

  it('an outflow may take at most the expected cash; a deposit is never refused', () => {
    expect(outflowRefusal('retiro', 100000, 100000)).toBeNull();
    expect(outflowRefusal('retiro', 500000, 100000)).toBe(
      'El retiro es mayor al efectivo que debería haber en la caja: no se puede sacar más efectivo del que hay.',
    );
    expect(outflowRefusal('gasto', 101, 100)).toMatch(/^El gasto es mayor/);
    expect(outflowRefusal('propinas', 101, 100)).toMatch(/^El pago de propinas es mayor/);
    expect(outflowRefusal('deposito', 500000, 0)).toBeNull();
  });

  it('movements admitted one by one by outflowRefusal never leave the expected cash negative (property)', () => {
    const amount = fc.integer({ min: 1, max: 1_000_000 });
    const movement = fc.record({
      kind: fc.constantFrom('deposito' as const, 'retiro' as const, 'gasto' as const, 'propinas' as const),
      amount,
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.array(movement, { maxLength: 30 }), (float, tries) => {
        const kept: DrawerMovement[] = [];
        for (const m of tries) {
          if (outflowRefusal(m.kind, m.amount, expectedCash(drawerFigures(float, [], kept))) === null) kept.push(m);
          expect(expectedCash(drawerFigures(float, [], kept))).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});
