import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { Cents } from './money.ts';
import { ZERO, addCents, applyRateBps, cents, centsToPesos, formatMXN, multiplyCents, pesosToCents, subtractCents } from './money.ts';

const c = cents;
const anyCents = fc.integer({ min: -1e12, max: 1e12 }).map((n) => cents(n));

describe('cents', () => {
  it('accepts safe integers and normalises -0', () => {
    expect(cents(1250)).toBe(1250);
    expect(Object.is(cents(-0), 0)).toBe(true);
    expect(ZERO).toBe(0);
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('rejects %s', (n) => {
    expect(() => cents(n)).toThrow(RangeError);
  });
});

describe('pesosToCents', () => {
  it.each([
    ['12', 1200],
    ['12.5', 1250],
    ['12.50', 1250],
    ['  12.50 ', 1250],
    ['0.01', 1],
    ['.5', 50],
    ['1,234.56', 123456],
    ['$1,234.56', 123456],
    ['1.005', 101],
    ['1.004', 100],
    ['0.005', 1],
    ['-1.005', -101],
    ['0', 0],
  ])('parses %j as %d', (input, expected) => {
    expect(pesosToCents(input)).toBe(expected);
  });

  it.each([
    [12.5, 1250],
    [12, 1200],
    [1.005, 101],
    [0.1 + 0.2, 30],
    [19.99, 1999],
    [1e-9, 0],
  ])('parses the number %d as %d', (input, expected) => {
    expect(pesosToCents(input)).toBe(expected);
  });

  it.each(['', '   ', 'abc', '12,5', '12.5.0', '1e3', 'NaN', '--1'])('rejects %j', (input) => {
    expect(pesosToCents(input)).toBeNull();
  });

  it('rejects non-finite numbers and amounts beyond the safe range', () => {
    expect(pesosToCents(Number.NaN)).toBeNull();
    expect(pesosToCents(Number.POSITIVE_INFINITY)).toBeNull();
    expect(pesosToCents('99999999999999999999')).toBeNull();
  });

  it('round-trips centsToPesos and formatMXN', () => {
    fc.assert(
      fc.property(anyCents, (x) => {
        expect(pesosToCents(centsToPesos(x))).toBe(x);
        expect(pesosToCents(formatMXN(x))).toBe(x);
      }),
    );
  });
});

describe('centsToPesos', () => {
  it('prints two decimals without grouping', () => {
    expect(centsToPesos(c(123450))).toBe('1234.50');
    expect(centsToPesos(c(5))).toBe('0.05');
    expect(centsToPesos(ZERO)).toBe('0.00');
    expect(centsToPesos(c(-305))).toBe('-3.05');
  });

  it('stays exact at the top of the safe range', () => {
    expect(centsToPesos(c(Number.MAX_SAFE_INTEGER))).toBe('90071992547409.91');
    expect(centsToPesos(c(9007199254740899))).toBe('90071992547408.99');
  });
});

describe('formatMXN', () => {
  it('formats es-MX currency', () => {
    expect(formatMXN(c(123450))).toBe('$1,234.50');
    expect(formatMXN(c(500))).toBe('$5.00');
    expect(formatMXN(ZERO)).toBe('$0.00');
    expect(formatMXN(c(1))).toBe('$0.01');
    expect(formatMXN(c(-300))).toBe('-$3.00');
  });
});

describe('arithmetic', () => {
  it('adds any number of amounts', () => {
    expect(addCents()).toBe(0);
    expect(addCents(c(100), c(250), c(1))).toBe(351);
    expect(subtractCents(c(100), c(250))).toBe(-150);
  });

  it('throws instead of losing precision', () => {
    expect(() => addCents(c(Number.MAX_SAFE_INTEGER), c(1))).toThrow(RangeError);
  });

  it('multiplies by whole quantities only', () => {
    expect(multiplyCents(c(4550), 3)).toBe(13650);
    expect(multiplyCents(c(4550), 0)).toBe(0);
    expect(() => multiplyCents(c(100), 1.5)).toThrow(RangeError);
  });

  it('applies basis points rounding half up', () => {
    expect(applyRateBps(c(10000), 1500)).toBe(1500);
    expect(applyRateBps(c(333), 1500)).toBe(50); // 49.95
    expect(applyRateBps(c(10), 1500)).toBe(2); // 1.5
    expect(applyRateBps(c(10), 1400)).toBe(1); // 1.4
    expect(applyRateBps(c(1), 4999)).toBe(0); // 0.4999
    expect(applyRateBps(c(-10), 1500)).toBe(-2); // mirrors the positive
    expect(() => applyRateBps(c(100), 12.5)).toThrow(RangeError);
  });

  it('stays exact where amount × bps passes 2^53', () => {
    expect(applyRateBps(c(9_000_000_000_000), 10_000)).toBe(9_000_000_000_000);
    expect(applyRateBps(c(999_999_999_999), 1)).toBe(100_000_000);
  });

  it('applyRateBps matches exact rational rounding', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e10 }), fc.integer({ min: 0, max: 10_000 }), (x, bps) => {
        const result: Cents = applyRateBps(c(x), bps);
        const exact = BigInt(x) * BigInt(bps);
        // result is the nearest integer to exact / 10000, ties upward
        expect(BigInt(result) * 10000n - exact <= 5000n).toBe(true);
        expect(exact - BigInt(result) * 10000n < 5000n).toBe(true);
      }),
    );
  });
});
