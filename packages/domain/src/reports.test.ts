import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  averageTicket,
  businessDayAt,
  businessHours,
  centsToPesoNumber,
  dayStartHour,
  daySlot,
  monthSlot,
  detailSlotRanges,
  daysInRange,
  defaultReportRange,
  foldSlots,
  foldWeekdays,
  slotAt,
  slotBusinessDate,
  slotOf,
  slotRange,
  weekdayIndex,
} from './reports.ts';

describe('report slots', () => {
  it('keys an instant by its business-local date and hour', () => {
    // 2026-11-21 01:30 in Mexico City (UTC-6) is 07:30 UTC.
    expect(slotAt(Date.UTC(2026, 10, 21, 7, 30), 'America/Mexico_City')).toBe(2026112101);
    expect(slotOf('2026-11-20', 23)).toBe(2026112023);
  });

  it('puts the small hours in the night before: a business day runs through the night', () => {
    expect(slotBusinessDate(2026112101, 3)).toBe('2026-11-20');
    expect(slotBusinessDate(2026112103, 3)).toBe('2026-11-21');
    expect(slotBusinessDate(2026110100, 3)).toBe('2026-10-31');
  });

  it('opens Reportes on the business day under way: at 02:30 still the night before, at 03:30 the new day', () => {
    const mx = 'America/Mexico_City';
    // 2026-11-21 02:30 and 03:30 in Mexico City (UTC-6).
    const halfPastTwo = Date.UTC(2026, 10, 21, 8, 30);
    const halfPastThree = Date.UTC(2026, 10, 21, 9, 30);
    expect(businessDayAt(halfPastTwo, mx, 3)).toBe('2026-11-20');
    expect(businessDayAt(halfPastThree, mx, 3)).toBe('2026-11-21');
    expect(defaultReportRange(halfPastTwo, mx, 3)).toEqual({ from: '2026-11-14', to: '2026-11-20' });
    expect(defaultReportRange(halfPastThree, mx, 3)).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    // A shift inside one calendar day starts the business day at midnight.
    expect(defaultReportRange(halfPastTwo, mx, 0)).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    // The business zone's clock counts, not the device's: 02:30 in Mexico City is already 22:30 in Kiritimati.
    expect(businessDayAt(halfPastTwo, 'Pacific/Kiritimati', 3)).toBe('2026-11-21');
  });

  it('starts the day at the shift end when the shift crosses midnight, else at midnight', () => {
    expect(dayStartHour(17, 3)).toBe(3);
    expect(dayStartHour(9, 23)).toBe(0);
    expect(slotRange('2026-11-20', '2026-11-21', 3)).toEqual({ first: 2026112003, end: 2026112203 });
    expect(slotRange('2026-12-31', '2026-12-31', 0)).toEqual({ first: 2026123100, end: 2027010100 });
  });

  it('covers a range with the edge days by hour, whole months by month and the rest by day', () => {
    expect(detailSlotRanges('2026-11-20', '2026-11-20', 3)).toEqual([
      [2026112003, 2026112024],
      [2026112100, 2026112103],
    ]);
    expect(detailSlotRanges('2026-11-01', '2026-11-30', 3)).toEqual([
      [2026110103, 2026110124],
      [20261102, 20261131],
      [2026120100, 2026120103],
    ]);
    expect(detailSlotRanges('2026-11-01', '2026-11-30', 0)).toEqual([[202611, 202612]]);
    expect(detailSlotRanges('2025-01-01', '2025-12-31', 3)).toEqual([
      [2025010103, 2025010124],
      [20250102, 20250132],
      [202502, 202513],
      [2026010100, 2026010103],
    ]);
    expect(detailSlotRanges('2025-12-15', '2026-02-10', 0)).toEqual([
      [20251215, 20251232],
      [202601, 202602],
      [20260201, 20260211],
    ]);
    expect(daySlot(2026112101)).toBe(20261121);
    expect(monthSlot(2026112101)).toBe(202611);
  });

  it('counts days and weekdays (Monday = 0)', () => {
    expect(daysInRange('2026-11-01', '2026-11-30')).toBe(30);
    expect(daysInRange('2024-01-01', '2024-12-31')).toBe(366);
    expect(weekdayIndex('2026-11-23')).toBe(0); // a Monday
    expect(weekdayIndex('2026-11-22')).toBe(6);
  });
});

describe('folding slots into hours and weekdays', () => {
  it('adds a Saturday 01:00 sale to Friday and to the 01:00 hour', () => {
    const folded = foldSlots(
      [
        { slot: 2026112101, orders: 2, total: 30_000, tips: 3_000 }, // Sat 01:00 → Friday night
        { slot: 2026112020, orders: 1, total: 10_000, tips: 0 }, // Fri 20:00
      ],
      3,
    );
    expect(folded.byHour.map((h) => h.hour)).toEqual(businessHours(3));
    expect(folded.byHour.find((h) => h.hour === 1)).toEqual({ hour: 1, orders: 2, total: 30_000, tips: 3_000 });
    expect(folded.byWeekday[4]).toEqual({ weekday: 4, days: 1, orders: 3, total: 40_000, tips: 3_000 });
    expect(folded.byWeekday[5]!.orders).toBe(0);
    expect(folded.totals).toEqual({ orders: 3, total: 40_000, tips: 3_000 });
  });

  it('counts a night that crosses a month as one business day', () => {
    const weekdays = foldWeekdays(
      [
        { slot: 2026113020, orders: 1, total: 100, tips: 0 }, // Monday 30 Nov, 20:00
        { slot: 2026120101, orders: 1, total: 200, tips: 0 }, // Tuesday 1 Dec, 01:00 → Monday night
      ],
      3,
    );
    expect(weekdays[0]).toEqual({ weekday: 0, days: 1, orders: 2, total: 300, tips: 0 });
  });

  it('never loses or invents a centavo (property)', () => {
    const slot = fc
      .record({ d: fc.integer({ min: 1, max: 28 }), h: fc.integer({ min: 0, max: 23 }) })
      .map(({ d, h }) => 2026110000 + d * 100 + h);
    const row = fc.record({ slot, orders: fc.nat(50), total: fc.nat(1_000_000), tips: fc.nat(100_000) });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), fc.integer({ min: 0, max: 23 }), (rows, start) => {
        const folded = foldSlots(rows, start);
        const sum = rows.reduce((acc, r) => acc + r.total, 0);
        expect(folded.totals.total).toBe(sum);
        expect(folded.byHour.reduce((acc, h) => acc + h.total, 0)).toBe(sum);
        expect(folded.byWeekday.reduce((acc, w) => acc + w.total, 0)).toBe(sum);
      }),
    );
  });

  it('rounds the average ticket and writes pesos as numbers', () => {
    expect(averageTicket(10_001, 2)).toBe(5_001);
    expect(averageTicket(5_000, 0)).toBe(0);
    expect(centsToPesoNumber(123_456)).toBe(1234.56);
  });
});
