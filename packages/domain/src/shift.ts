/**
 * Business days in the bar's time zone. A bar's night runs past midnight, so the
 * cash close of "Friday" includes sales made early on Saturday. Only Intl is used:
 * the server clock may be in UTC or anywhere else, and the result must not change.
 */

export const DEFAULT_TIMEZONE = 'America/Mexico_City';
export const DEFAULT_SHIFT = { startHour: 17, endHour: 3 } as const;

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

// Building a DateTimeFormat is slow; one per zone is kept for the process lifetime.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(tz: string): Intl.DateTimeFormat {
  let formatter = formatters.get(tz);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, formatter);
  }
  return formatter;
}

function wallClock(instant: Date, tz: string): WallClock {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of formatterFor(tz).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  return { year, month, day, hour, minute, second };
}

/** Local time minus UTC at an instant, in ms (Mexico City: -6 h). */
function offsetMs(instant: number, tz: string): number {
  const w = wallClock(new Date(instant), tz);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const wholeSeconds = instant - (((instant % 1000) + 1000) % 1000);
  return asUtc - wholeSeconds;
}

function parseDate(date: string): { year: number; month: number; day: number } {
  const match = DATE_PATTERN.exec(date);
  const [year, month, day] = (match?.slice(1) ?? []).map(Number);
  if (year === undefined || month === undefined || day === undefined) {
    throw new RangeError(`Expected a YYYY-MM-DD date, got '${date}'`);
  }
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new RangeError(`Not a calendar date: '${date}'`);
  }
  return { year, month, day };
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

export function addDays(date: string, days: number): string {
  const { year, month, day } = parseDate(date);
  const shifted = new Date(Date.UTC(year, month - 1, day + days));
  return `${pad(shifted.getUTCFullYear(), 4)}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
}

/**
 * The instant at which clocks in `tz` show the given local time. On a DST change
 * a repeated time resolves to its first occurrence and a skipped time moves
 * forward by the gap (02:30 on a spring-forward night becomes 03:30), the same
 * choice as Temporal's 'compatible' disambiguation.
 */
export function zonedToUtc(date: string, hour: number, minute: number, tz: string): Date {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RangeError(`Bad hour ${hour}`);
  if (!Number.isInteger(minute) || minute < 0 || minute > 59) {
    throw new RangeError(`Bad minute ${minute}`);
  }
  const { year, month, day } = parseDate(date);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // Offsets a day either side bracket any single transition near this time.
  const before = offsetMs(wall - DAY_MS, tz);
  const after = offsetMs(wall + DAY_MS, tz);
  const valid = [before, after].map((offset) => wall - offset).filter((t) => wall - t === offsetMs(t, tz));
  return new Date(valid.length > 0 ? Math.min(...valid) : wall - before);
}

/** [start, end): startHour on `date` to endHour the next day (the same day if endHour is later). */
export function shiftWindow(
  date: string,
  tz: string,
  startHour: number = DEFAULT_SHIFT.startHour,
  endHour: number = DEFAULT_SHIFT.endHour,
): { start: Date; end: Date } {
  const endDate = endHour > startHour ? date : addDays(date, 1);
  return { start: zonedToUtc(date, startHour, 0, tz), end: zonedToUtc(endDate, endHour, 0, tz) };
}

/** Whether a local hour falls in the shift's hours (overnight when start > end; 24 h when start = end). */
export function isHourInShift(hour: number, startHour: number, endHour: number): boolean {
  if (startHour === endHour) return true;
  return startHour > endHour ? hour >= startHour || hour < endHour : hour >= startHour && hour < endHour;
}

export function isWithinShift(instant: Date, window: { start: Date; end: Date }): boolean {
  const t = instant.getTime();
  return t >= window.start.getTime() && t < window.end.getTime();
}

/**
 * Before the shift starts, the cash close most likely wanted is last night's,
 * so hours 0–16 pick the previous day (SPEC §9).
 */
export function defaultShiftDate(now: Date, tz: string, startHour: number = DEFAULT_SHIFT.startHour): string {
  const today = businessDate(now, tz);
  return localHour(now, tz) < startHour ? addDays(today, -1) : today;
}

/** The local calendar date, 'YYYY-MM-DD'. */
export function businessDate(instant: Date, tz: string): string {
  const w = wallClock(instant, tz);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

export function localHour(instant: Date, tz: string): number {
  return wallClock(instant, tz).hour;
}

/** Minutes since local midnight (0–1439) and the local weekday (0 = domingo … 6 = sábado). */
export function localWeekMinute(instant: Date, tz: string): { weekday: number; minute: number } {
  const w = wallClock(instant, tz);
  return { weekday: new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay(), minute: w.hour * 60 + w.minute };
}
