import { describe, it, expect } from 'vitest';
import { compareTables, elapsedMinutes, isBarTable, shortOrderId, tableLabel, ticketNumber } from './labels.ts';

describe('ids', () => {
  it('ticket number is the first 6 characters in capitals', () => {
    expect(ticketNumber('ab12cdXYZ987')).toBe('AB12CD');
    expect(ticketNumber('abc')).toBe('ABC');
  });

  it('order screens show the last 8 characters as they are', () => {
    expect(shortOrderId('0123456789abcdef')).toBe('89abcdef');
    expect(shortOrderId('short')).toBe('short');
  });
});

describe('elapsedMinutes', () => {
  const from = new Date('2025-01-01T20:00:00Z');

  it('counts whole minutes, rounding down', () => {
    expect(elapsedMinutes(from, new Date('2025-01-01T20:00:59Z'))).toBe(0);
    expect(elapsedMinutes(from, new Date('2025-01-01T20:01:00Z'))).toBe(1);
    expect(elapsedMinutes(from, new Date('2025-01-01T21:35:30Z'))).toBe(95);
  });

  it('never goes negative or NaN', () => {
    expect(elapsedMinutes(from, new Date('2025-01-01T19:00:00Z'))).toBe(0);
    expect(elapsedMinutes(new Date(Number.NaN), from)).toBe(0);
  });
});

describe('tables', () => {
  it('labels table 0 as the bar', () => {
    expect(tableLabel(0)).toBe('Barra');
    expect(tableLabel(7)).toBe('Mesa 7');
    expect(isBarTable(0)).toBe(true);
    expect(isBarTable(1)).toBe(false);
  });

  it('sorts the bar first, then ascending', () => {
    const tables = [{ number: 10 }, { number: 2 }, { number: 0 }, { number: 1 }];
    expect([...tables].sort(compareTables).map((t) => t.number)).toEqual([0, 1, 2, 10]);
  });

  it('puts the bar first even against odd negative numbers', () => {
    expect([{ number: -1 }, { number: 0 }].sort(compareTables).map((t) => t.number)).toEqual([0, -1]);
  });
});
