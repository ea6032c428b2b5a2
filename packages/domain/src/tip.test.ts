import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { cents } from './money.ts';
import { TIP_PRESETS_BPS, bpsToFraction, clampTipBps, matchingPreset, orderTotal, parseCustomTipBps, tipAmount } from './tip.ts';

describe('parseCustomTipBps', () => {
  it.each([
    ['15', 1500],
    ['12.5', 1250],
    [12.5, 1250],
    ['12.345', 1235],
    ['1', 100], // 1 or more is a percent, so '1' is one percent
    [1, 100],
    ['0.15', 1500], // below 1 is a fraction
    [0.15, 1500],
    ['.2', 2000],
    ['0.5', 5000],
    ['0.99999', 10000],
    ['100', 10000],
    ['150', 10000],
    [1e30, 10000],
    ['99999999999999999999', 10000],
    ['15%', 1500],
    [' 10 ', 1000],
    ['0', 0],
    [0, 0],
  ])('reads %j as %d bps', (input, bps) => {
    expect(parseCustomTipBps(input)).toBe(bps);
  });

  it.each(['', '   ', null, undefined, 'abc', '-5', -5, -0.1, '1e2', '12,5', Number.NaN, Number.POSITIVE_INFINITY])(
    'reads %j as no tip',
    (input) => {
      expect(parseCustomTipBps(input)).toBe(0);
    },
  );

  it('always lands between 0 and 100 %, whatever is typed', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double(), fc.integer()), (input) => {
        const bps = parseCustomTipBps(input);
        expect(Number.isInteger(bps)).toBe(true);
        expect(bps).toBeGreaterThanOrEqual(0);
        expect(bps).toBeLessThanOrEqual(10_000);
      }),
    );
  });

  it('reads whole percents from 1 to 100 exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (p) => {
        expect(parseCustomTipBps(String(p))).toBe(p * 100);
        expect(parseCustomTipBps(p)).toBe(p * 100);
      }),
    );
  });

  it('reads fractions below 1 as a share of 10 000 bps', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), (bps) => {
        expect(parseCustomTipBps(bps / 10_000)).toBe(bps);
      }),
    );
  });
});

describe('conversions', () => {
  it('gives the spec its stored fraction of a bps rate', () => {
    expect(bpsToFraction(1500)).toBe(0.15);
    expect(bpsToFraction(1250)).toBe(0.125);
    expect(bpsToFraction(0)).toBe(0);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (bps) => {
        expect(Math.round(bpsToFraction(bps) * 10_000)).toBe(bps);
      }),
    );
  });

  it('clamps and rounds rates', () => {
    expect(clampTipBps(-1)).toBe(0);
    expect(clampTipBps(20_000)).toBe(10_000);
    expect(clampTipBps(1234.5)).toBe(1235);
    expect(clampTipBps(Number.NaN)).toBe(0);
  });

  it('recognises presets', () => {
    expect(TIP_PRESETS_BPS).toEqual([1000, 1500, 2000]);
    expect(matchingPreset(1500)).toBe(1500);
    expect(matchingPreset(1250)).toBeNull();
  });
});

describe('tipAmount and orderTotal', () => {
  it('computes the tip on the subtotal, rounding half up', () => {
    expect(tipAmount(cents(25000), 1500)).toBe(3750);
    expect(tipAmount(cents(333), 1500)).toBe(50); // 49.95
    expect(tipAmount(cents(25000), 0)).toBe(0);
    expect(tipAmount(cents(0), 2000)).toBe(0);
    expect(orderTotal(cents(25000), cents(3750))).toBe(28750);
  });

  it('never yields a negative tip or one above the subtotal', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e12 }), fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.double()), (subtotal, bps) => {
        const tip = tipAmount(cents(subtotal), bps);
        expect(tip).toBeGreaterThanOrEqual(0);
        expect(tip).toBeLessThanOrEqual(Math.max(0, subtotal));
      }),
    );
  });

  it('total is subtotal plus tip', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 0, max: 10_000 }), (s, bps) => {
        const subtotal = cents(s);
        const tip = tipAmount(subtotal, bps);
        expect(orderTotal(subtotal, tip) - tip).toBe(subtotal);
      }),
    );
  });
});
