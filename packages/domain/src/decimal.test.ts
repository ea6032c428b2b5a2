import { describe, it, expect } from 'vitest';
import { parseDecimal, parseScaled, scaleDecimal } from './decimal.ts';

describe('parseDecimal', () => {
  it('splits sign, whole and fraction digits', () => {
    expect(parseDecimal('-12.50')).toEqual({ negative: true, whole: '12', fraction: '50' });
    expect(parseDecimal('.5')).toEqual({ negative: false, whole: '0', fraction: '5' });
    expect(parseDecimal('7.')).toEqual({ negative: false, whole: '7', fraction: '' });
  });

  it('accepts a peso sign and well-formed thousands groups', () => {
    expect(parseDecimal('$1,234.50')).toEqual({ negative: false, whole: '1234', fraction: '50' });
    expect(parseDecimal('-$3.00')?.negative).toBe(true);
  });

  it('rejects a decimal comma and other garbage', () => {
    for (const bad of ['12,5', '1,23', '', ' ', '.', '-', '$', 'abc', '1.2.3', '1e3', '0x10', '12 5']) {
      expect(parseDecimal(bad), bad).toBeNull();
    }
  });

  it('reads numbers through their shortest decimal form', () => {
    expect(parseDecimal(1.005)).toEqual({ negative: false, whole: '1', fraction: '005' });
    expect(parseDecimal(1e-7)).toEqual({ negative: false, whole: '0', fraction: '' });
    expect(parseDecimal(1e21)).toBeNull();
    expect(parseDecimal(Number.NaN)).toBeNull();
    expect(parseDecimal(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe('scaleDecimal', () => {
  it('rounds half away from zero on the first dropped digit', () => {
    expect(parseScaled('1.005', 2)).toBe(101);
    expect(parseScaled('1.0049999', 2)).toBe(100);
    expect(parseScaled('-1.005', 2)).toBe(-101);
    expect(parseScaled('0.12345', 4)).toBe(1235);
  });

  it('never produces negative zero', () => {
    expect(Object.is(parseScaled('-0.001', 2), 0)).toBe(true);
  });

  it('returns null beyond the safe integer range', () => {
    const huge = parseDecimal('90071992547409.92');
    expect(huge && scaleDecimal(huge, 2)).toBeNull();
    expect(parseScaled('90071992547409.91', 2)).toBe(Number.MAX_SAFE_INTEGER);
  });
});
