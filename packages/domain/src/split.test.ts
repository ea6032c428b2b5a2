import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { cents } from './money.ts';
import { SPLIT_PRESETS, clampGuests, parseSplitCount, perPersonAmount, shareGuests, splitCents, splitDiffers } from './split.ts';

describe('parseSplitCount', () => {
  it.each([
    ['3', 3],
    [' 4 ', 4],
    [2, 2],
    ['2.7', 2],
    [2.7, 2],
    ['0', 1],
    [0, 1],
    ['-3', 1],
    ['', 1],
    ['abc', 1],
    ['3 personas', 1],
    ['0x10', 1],
    ['1e2', 1],
    [Number.NaN, 1],
    [Number.POSITIVE_INFINITY, 1],
    ['100', 100],
    ['250', 100],
    [1000, 100],
  ])('reads %j as %d', (input, expected) => {
    expect(parseSplitCount(input)).toBe(expected);
  });

  it('offers presets 1 to 4', () => {
    expect(SPLIT_PRESETS).toEqual([1, 2, 3, 4]);
  });
});

describe('clampGuests', () => {
  it('keeps a whole number of at least 1', () => {
    expect(clampGuests(4)).toBe(4);
    expect(clampGuests(0)).toBe(1);
    expect(clampGuests(-2)).toBe(1);
    expect(clampGuests(2.9)).toBe(2);
    expect(clampGuests(Number.NaN)).toBe(1);
    expect(clampGuests(Number.POSITIVE_INFINITY)).toBe(1);
  });
});

describe('splitCents', () => {
  it('gives leftover centavos to the first parts', () => {
    expect(splitCents(cents(1000), 3)).toEqual([334, 333, 333]);
    expect(splitCents(cents(1001), 3)).toEqual([334, 334, 333]);
    expect(splitCents(cents(900), 3)).toEqual([300, 300, 300]);
    expect(splitCents(cents(2), 4)).toEqual([1, 1, 0, 0]);
    expect(splitCents(cents(0), 2)).toEqual([0, 0]);
    expect(splitCents(cents(12345), 1)).toEqual([12345]);
  });

  it('keeps larger parts first for negative totals too', () => {
    expect(splitCents(cents(-10), 3)).toEqual([-3, -3, -4]);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects %s parts', (parts) => {
    expect(() => splitCents(cents(100), parts)).toThrow(RangeError);
  });

  it('parts always sum to the total and differ by at most one centavo', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 1, max: 100 }), (total, parts) => {
        const shares = splitCents(cents(total), parts);
        expect(shares).toHaveLength(parts);
        expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
        expect([...shares].sort((a, b) => b - a)).toEqual(shares);
        for (const share of shares) expect(Number.isSafeInteger(share)).toBe(true);
      }),
    );
  });
});

describe('perPersonAmount', () => {
  it('is the largest share', () => {
    expect(perPersonAmount(cents(1000), 3)).toBe(334);
    expect(perPersonAmount(cents(900), 3)).toBe(300);
    expect(perPersonAmount(cents(1000), 1)).toBe(1000);
  });

  it('divides by at least one guest', () => {
    expect(perPersonAmount(cents(1000), 0)).toBe(1000);
    expect(perPersonAmount(cents(1000), -4)).toBe(1000);
    expect(perPersonAmount(cents(1000), Number.NaN)).toBe(1000);
  });

  it('equals the first split part and collects at least the total', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 1, max: 100 }), (t, n) => {
        const total = cents(t);
        const each = perPersonAmount(total, n);
        expect(each).toBe(splitCents(total, n)[0]);
        expect(each * n).toBeGreaterThanOrEqual(total);
        expect(each * n - total).toBeLessThan(n);
      }),
    );
  });
});

describe('shareGuests', () => {
  it('shares a table’s guests over its checks, the extra ones first, at least 1 each', () => {
    expect(shareGuests(4, 2)).toEqual([2, 2]);
    expect(shareGuests(5, 2)).toEqual([3, 2]);
    expect(shareGuests(4, 3)).toEqual([2, 1, 1]);
    expect(shareGuests(1, 3)).toEqual([1, 1, 1]);
    expect(shareGuests(7, 1)).toEqual([7]);
  });
});

describe('splitDiffers', () => {
  it('names the split only when it differs from the guests', () => {
    expect(splitDiffers(4, 2)).toBe(2);
    expect(splitDiffers(4, 4)).toBeNull();
    expect(splitDiffers(4, null)).toBeNull();
    expect(splitDiffers(1, undefined)).toBeNull();
  });
});
