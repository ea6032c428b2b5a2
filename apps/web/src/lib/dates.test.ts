import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { businessDates, calendarDayText, formatInZone, shiftDateTime } from './dates.ts';

const MX = 'America/Mexico_City';
/** 23:59 on Saturday 7 March 2026 in Mexico City (UTC−6 all year since 2022): 05:59 UTC on the 8th. */
const BEFORE_MIDNIGHT = Date.UTC(2026, 2, 8, 5, 59);
/** One minute later: Sunday the 8th, 00:00 — the night the United States move their clocks, Mexico City does not. */
const MIDNIGHT = Date.UTC(2026, 2, 8, 6, 0);

describe('business-zone dates', () => {
  it('a time near midnight falls on the business day, not the UTC one', () => {
    expect(formatInZone(BEFORE_MIDNIGHT, 'isoDate', MX)).toBe('2026-03-07');
    expect(formatInZone(MIDNIGHT, 'isoDate', MX)).toBe('2026-03-08');
    expect(formatInZone(BEFORE_MIDNIGHT, 'time', MX)).toBe('11:59 p.m.');
    expect(formatInZone(BEFORE_MIDNIGHT, 'dateTime', MX)).toBe('7 mar 2026, 11:59 p.m.');
    expect(shiftDateTime(BEFORE_MIDNIGHT, MX)).toBe('7 mar 2026, 23:59');
    expect(shiftDateTime(MIDNIGHT, MX)).toBe('8 mar 2026, 00:00');
  });

  it('Mexico City keeps UTC−6 through the old daylight-saving dates (no DST since 2022)', () => {
    // First Sunday of April and a summer evening: still six hours behind UTC.
    expect(formatInZone(Date.UTC(2026, 3, 5, 8, 30), 'clock24', MX)).toBe('02:30');
    expect(formatInZone(Date.UTC(2026, 6, 15, 2, 0), 'clock24', MX)).toBe('20:00');
    expect(formatInZone(Date.UTC(2026, 6, 15, 2, 0), 'isoDate', MX)).toBe('2026-07-14');
  });

  it('every style is written the way the screens already showed it', () => {
    const dates = businessDates(MX);
    expect(dates.zone).toBe(MX);
    expect(dates.timeWithSeconds(Date.UTC(2026, 2, 8, 5, 59, 30))).toBe('23:59:30');
    expect(dates.dayTime(BEFORE_MIDNIGHT)).toBe('7 mar, 11:59 p.m.');
    expect(dates.longDate(BEFORE_MIDNIGHT)).toBe('7 de marzo de 2026');
    expect(dates.shiftDateTime(BEFORE_MIDNIGHT)).toBe('7 mar 2026, 23:59');
    expect(dates.today()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // A calendar date names no instant: the same day in every zone.
    expect(calendarDayText('2026-03-07', false)).toBe('sábado, 7 de marzo');
    expect(calendarDayText('2026-03-07', true)).toBe('sábado, 7 de marzo de 2026');
  });

  describe('on a device set to another zone', () => {
    const deviceZone = process.env.TZ;
    beforeEach(() => {
      process.env.TZ = 'Asia/Tokyo';
    });
    afterEach(() => {
      if (deviceZone === undefined) delete process.env.TZ;
      else process.env.TZ = deviceZone;
    });

    it('shows the business zone, not the device zone', () => {
      // The device really is elsewhere: its own formatter puts 23:59 in Mexico City at 14:59 the next day.
      expect(new Date(BEFORE_MIDNIGHT).getHours()).toBe(14);
      expect(new Intl.DateTimeFormat('en-CA').format(new Date(BEFORE_MIDNIGHT))).toBe('2026-03-08');
      const dates = businessDates(MX);
      expect(dates.time(BEFORE_MIDNIGHT)).toBe('11:59 p.m.');
      expect(dates.dateTime(BEFORE_MIDNIGHT)).toBe('7 mar 2026, 11:59 p.m.');
      expect(formatInZone(BEFORE_MIDNIGHT, 'isoDate', MX)).toBe('2026-03-07');
      // Another business zone is honoured the same way.
      expect(formatInZone(BEFORE_MIDNIGHT, 'clock24', 'America/Tijuana')).toBe('21:59');
    });
  });
});
