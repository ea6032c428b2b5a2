import { afterAll, beforeAll, describe, it, expect, vi } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_SHIFT,
  DEFAULT_TIMEZONE,
  addDays,
  businessDate,
  defaultShiftDate,
  isWithinShift,
  localHour,
  shiftWindow,
  zonedToUtc,
} from './shift.ts';

const MX = 'America/Mexico_City';
const TJ = 'America/Tijuana';
const utc = (iso: string) => new Date(iso);

// The result must not depend on where the server runs; TZ is switched for each block.
describe.each(['UTC', 'Asia/Tokyo', 'America/New_York'])('server clock in %s', (serverTz) => {
  beforeAll(() => {
    vi.stubEnv('TZ', serverTz);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  describe('Mexico City (UTC-6, no DST since 2022)', () => {
    const window = shiftWindow('2024-05-10', MX);

    it('runs from 17:00 to 03:00 the next day', () => {
      expect(window.start.toISOString()).toBe('2024-05-10T23:00:00.000Z');
      expect(window.end.toISOString()).toBe('2024-05-11T09:00:00.000Z');
    });

    it.each([
      ['16:59 on the day', '2024-05-10T22:59:00Z', false],
      ['17:00 on the day', '2024-05-10T23:00:00Z', true],
      ['23:59 on the day', '2024-05-11T05:59:00Z', true],
      ['00:00 next day', '2024-05-11T06:00:00Z', true],
      ['02:59 next day', '2024-05-11T08:59:00Z', true],
      ['02:59:59.999 next day', '2024-05-11T08:59:59.999Z', true],
      ['03:00 next day', '2024-05-11T09:00:00Z', false],
    ])('an order at %s is in the shift: %s', (_label, iso, inside) => {
      expect(isWithinShift(utc(iso), window)).toBe(inside);
    });

    it.each([
      ['2024-05-10T22:59:00Z', '2024-05-09'], // 16:59 local: still last night's close
      ['2024-05-10T23:00:00Z', '2024-05-10'], // 17:00 local: tonight
      ['2024-05-11T05:59:00Z', '2024-05-10'], // 23:59 local
      ['2024-05-11T08:59:00Z', '2024-05-10'], // 02:59 local, next calendar day
      ['2024-05-11T09:00:00Z', '2024-05-10'], // 03:00 local: hours 0–16 pick the previous day
      ['2024-05-11T06:00:00Z', '2024-05-10'], // midnight local
    ])('at %s the default shift date is %s', (iso, date) => {
      expect(defaultShiftDate(utc(iso), MX)).toBe(date);
    });

    it('reads local date and hour', () => {
      expect(businessDate(utc('2024-05-11T05:59:00Z'), MX)).toBe('2024-05-10');
      expect(localHour(utc('2024-05-11T05:59:00Z'), MX)).toBe(23);
      expect(businessDate(utc('2024-05-11T06:00:00Z'), MX)).toBe('2024-05-11');
      expect(localHour(utc('2024-05-11T06:00:00Z'), MX)).toBe(0);
    });

    it('still honours the old summer time in 2022', () => {
      expect(zonedToUtc('2022-06-15', 17, 0, MX).toISOString()).toBe('2022-06-15T22:00:00.000Z');
      expect(zonedToUtc('2023-06-15', 17, 0, MX).toISOString()).toBe('2023-06-15T23:00:00.000Z');
    });
  });

  describe('Tijuana (follows US daylight saving time)', () => {
    it('spring forward: the night before the change is 9 hours long', () => {
      // 2024-03-10 02:00 PST jumps to 03:00 PDT
      const w = shiftWindow('2024-03-09', TJ);
      expect(w.start.toISOString()).toBe('2024-03-10T01:00:00.000Z'); // 17:00 PST
      expect(w.end.toISOString()).toBe('2024-03-10T10:00:00.000Z'); // 03:00 PDT
      expect(w.end.getTime() - w.start.getTime()).toBe(9 * 3_600_000);
    });

    it('fall back: the night of the change is 11 hours long', () => {
      // 2024-11-03 02:00 PDT falls back to 01:00 PST
      const w = shiftWindow('2024-11-02', TJ);
      expect(w.start.toISOString()).toBe('2024-11-03T00:00:00.000Z'); // 17:00 PDT
      expect(w.end.toISOString()).toBe('2024-11-03T11:00:00.000Z'); // 03:00 PST
      expect(w.end.getTime() - w.start.getTime()).toBe(11 * 3_600_000);
    });

    it('an order in the repeated hour counts once, inside the shift', () => {
      const w = shiftWindow('2024-11-02', TJ);
      expect(isWithinShift(utc('2024-11-03T08:30:00Z'), w)).toBe(true); // 01:30 PDT
      expect(isWithinShift(utc('2024-11-03T09:30:00Z'), w)).toBe(true); // 01:30 PST
      expect(defaultShiftDate(utc('2024-11-03T09:30:00Z'), TJ)).toBe('2024-11-02');
    });

    it('a skipped local time moves forward, a repeated one takes the first occurrence', () => {
      expect(zonedToUtc('2024-03-10', 2, 30, TJ).toISOString()).toBe('2024-03-10T10:30:00.000Z');
      expect(zonedToUtc('2024-11-03', 1, 30, TJ).toISOString()).toBe('2024-11-03T08:30:00.000Z');
    });
  });
});

describe('zonedToUtc input checks', () => {
  it.each([
    ['2024-02-30', 17, 0],
    ['2024-13-01', 17, 0],
    ['24-05-10', 17, 0],
    ['2024-05-10', 24, 0],
    ['2024-05-10', -1, 0],
    ['2024-05-10', 17, 60],
    ['2024-05-10', 1.5, 0],
  ])('rejects %s %d:%d', (date, hour, minute) => {
    expect(() => zonedToUtc(date, hour, minute, MX)).toThrow(RangeError);
  });

  it('rejects an unknown time zone', () => {
    expect(() => zonedToUtc('2024-05-10', 17, 0, 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('shift helpers', () => {
  it('has the spec defaults', () => {
    expect(DEFAULT_TIMEZONE).toBe('America/Mexico_City');
    expect(DEFAULT_SHIFT).toEqual({ startHour: 17, endHour: 3 });
  });

  it('adds days across month and year ends', () => {
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2024-05-10', 0)).toBe('2024-05-10');
  });

  it('keeps a daytime shift on the same day', () => {
    const w = shiftWindow('2024-05-10', MX, 9, 17);
    expect(w.start.toISOString()).toBe('2024-05-10T15:00:00.000Z');
    expect(w.end.toISOString()).toBe('2024-05-10T23:00:00.000Z');
  });
});

describe('shift properties', () => {
  const arbDate = fc.integer({ min: 0, max: 365 * 12 }).map((n) => addDays('2020-01-01', n));

  it.each([MX, TJ, 'UTC'])('in %s every instant of a shift maps back to its date', (tz) => {
    fc.assert(
      fc.property(arbDate, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (date, f) => {
        const w = shiftWindow(date, tz);
        const span = w.end.getTime() - w.start.getTime();
        expect(span).toBeGreaterThanOrEqual(9 * 3_600_000);
        expect(span).toBeLessThanOrEqual(11 * 3_600_000);
        const instant = new Date(w.start.getTime() + Math.floor(f * span));
        expect(isWithinShift(instant, w)).toBe(true);
        expect(defaultShiftDate(instant, tz)).toBe(date);
        // Consecutive shifts never overlap.
        expect(shiftWindow(addDays(date, 1), tz).start.getTime()).toBeGreaterThan(w.end.getTime());
      }),
    );
  });

  it.each([MX, TJ])('in %s zonedToUtc round-trips except inside a DST gap', (tz) => {
    fc.assert(
      fc.property(arbDate, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), (date, h, m) => {
        const instant = zonedToUtc(date, h, m, tz);
        expect(instant.getUTCMinutes()).toBe(m); // these zones use whole-hour offsets
        const hour = localHour(instant, tz);
        if (hour !== h) {
          // Only a skipped hour may move, and only one hour forward.
          expect(hour).toBe(h + 1);
          expect(zonedToUtc(date, h + 1, m, tz).getTime()).toBe(instant.getTime());
        }
        expect(businessDate(instant, tz)).toBe(date);
      }),
    );
  });
});
