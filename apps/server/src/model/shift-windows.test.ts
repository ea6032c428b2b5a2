import { describe, expect, it } from 'vitest';
import { outsideShiftIntervals, subtract } from './shift-windows.ts';

const MX = { timezone: 'America/Mexico_City', shiftStartHour: 17, shiftEndHour: 3 };
const iso = (intervals: { start: number; end: number }[]) =>
  intervals.map((i) => [new Date(i.start).toISOString(), new Date(i.end).toISOString()]);

describe('outside-shift intervals', () => {
  it('leave 03:00–17:00 of the business day with the default night shift', () => {
    expect(iso(outsideShiftIntervals('2024-05-10', MX))).toEqual([['2024-05-10T09:00:00.000Z', '2024-05-10T23:00:00.000Z']]);
  });

  it('leave the morning and the evening around a day shift', () => {
    expect(iso(outsideShiftIntervals('2024-05-10', { ...MX, shiftStartHour: 9, shiftEndHour: 17 }))).toEqual([
      ['2024-05-10T06:00:00.000Z', '2024-05-10T15:00:00.000Z'],
      ['2024-05-10T23:00:00.000Z', '2024-05-11T06:00:00.000Z'],
    ]);
  });

  it('are empty when the shift covers the whole day', () => {
    expect(outsideShiftIntervals('2024-05-10', { ...MX, shiftStartHour: 5, shiftEndHour: 5 })).toEqual([]);
  });
});

describe('subtract', () => {
  it('cuts holes and drops empty pieces', () => {
    expect(
      subtract({ start: 0, end: 10 }, [
        { start: 2, end: 4 },
        { start: 8, end: 12 },
        { start: -5, end: 0 },
      ]),
    ).toEqual([
      { start: 0, end: 2 },
      { start: 4, end: 8 },
    ]);
  });
});
