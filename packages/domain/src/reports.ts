/**
 * Owner reports over a date range. Figures are kept in summary rows keyed
 * by a "slot": the business-local calendar date and hour of the event as one integer
 * YYYYMMDDHH. A business day runs through the night: it starts at the hour the shift ends
 * (03:00 by default) and ends at that hour the next day, so a slot at 01:00 on Saturday belongs
 * to Friday. Keying by local hour, not by business day, keeps the rows right when the owner
 * later moves the shift's hours.
 */
import { addDays, businessDate, localHour } from './shift.ts';

/** Weekday names, Monday first (as a Mexican calendar reads). */
export const WEEKDAYS_ES = ['Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes', 'Sábado', 'Domingo'] as const;

/** The most days one report may cover (the date pickers refuse more). */
export const REPORT_MAX_DAYS = 800;

/** 'YYYY-MM-DD' + hour → YYYYMMDDHH (hour 24: the end bound of that day's hour slots). */
export function slotOf(date: string, hour: number): number {
  return Number(date.replaceAll('-', '')) * 100 + hour;
}

/** The slot of an instant in the business time zone. */
export function slotAt(instant: number, timezone: string): number {
  const at = new Date(instant);
  return slotOf(businessDate(at, timezone), localHour(at, timezone));
}

export function slotDate(slot: number): string {
  const ymd = String(Math.floor(slot / 100)).padStart(8, '0');
  return `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6, 8)}`;
}

export const slotHour = (slot: number): number => slot % 100;

/**
 * The hour a business day starts: the shift's end hour when the shift crosses midnight
 * (17:00–03:00 → 3), midnight for a shift inside one calendar day (09:00–23:00 → 0).
 */
export function dayStartHour(shiftStartHour: number, shiftEndHour: number): number {
  return shiftEndHour <= shiftStartHour ? shiftEndHour : 0;
}

/** [first, end) slots of the business days `from`..`to` (inclusive). */
export function slotRange(from: string, to: string, startHour: number): { first: number; end: number } {
  return { first: slotOf(from, startHour), end: slotOf(addDays(to, 1), startHour) };
}

/**
 * Detail rows (products, waiters, methods, losses) are also kept per whole local calendar day
 * (day slot YYYYMMDD) and per month (month slot YYYYMM): eight and six digits, so they never
 * collide with an hour slot (ten). A range reads its two edge days by hour, whole months by
 * month and the days left over by day: a year is a few thousand rows, not hundreds of thousands.
 */
export const daySlot = (slot: number): number => Math.floor(slot / 100);
export const monthSlot = (slot: number): number => Math.floor(slot / 10_000);

const dayNumber = (date: string) => Number(date.replaceAll('-', ''));
const monthOf = (date: string) => Math.floor(dayNumber(date) / 100);

/** [lo, hi) intervals of day and month slots covering the calendar days a..b (inclusive). */
function calendarRanges(a: string, b: string): [number, number][] {
  const ranges: [number, number][] = [];
  let day = a;
  while (day <= b) {
    const first = `${day.slice(0, 7)}-01`;
    const nextMonth = `${addDays(first, 31).slice(0, 7)}-01`;
    const last = addDays(nextMonth, -1);
    if (day === first && last <= b) {
      const prev = ranges.at(-1);
      // Whole months next to each other share one range (YYYYMM gaps hold no rows).
      if (prev && prev[0] < 1e6 && prev[1] === monthOf(first)) prev[1] = monthOf(first) + 1;
      else ranges.push([monthOf(first), monthOf(first) + 1]);
    } else ranges.push([dayNumber(day), dayNumber(last < b ? last : b) + 1]);
    day = nextMonth;
  }
  return ranges;
}

/** [lo, hi) slot intervals covering the business days `from`..`to`: edge hours, then days and months. */
export function detailSlotRanges(from: string, to: string, startHour: number): [number, number][] {
  if (startHour === 0) return calendarRanges(from, to);
  return [
    [slotOf(from, startHour), slotOf(from, 24)],
    ...calendarRanges(addDays(from, 1), to),
    [slotOf(addDays(to, 1), 0), slotOf(addDays(to, 1), startHour)],
  ];
}

/** The business day a slot belongs to. */
export function slotBusinessDate(slot: number, startHour: number): string {
  const date = slotDate(slot);
  return slotHour(slot) < startHour ? addDays(date, -1) : date;
}

/**
 * The business day under way at an instant, the one a sale made then is reported in: before the
 * day's start hour (03:00 by default) it is still the night before.
 */
export function businessDayAt(instant: number, timezone: string, startHour: number): string {
  return slotBusinessDate(slotAt(instant, timezone), startHour);
}

/** The range Reportes opens on: the last seven business days, ending on the one under way. */
export function defaultReportRange(instant: number, timezone: string, startHour: number): { from: string; to: string } {
  const to = businessDayAt(instant, timezone, startHour);
  return { from: addDays(to, -6), to };
}

/** 0 = Monday … 6 = Sunday, of a 'YYYY-MM-DD' date. */
export function weekdayIndex(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

/** Whole days from `from` to `to`, both counted. */
export function daysInRange(from: string, to: string): number {
  const ms = (date: string) => {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((ms(to) - ms(from)) / 86_400_000) + 1;
}

export interface SlotSales {
  slot: number;
  orders: number;
  total: number;
  tips: number;
}

export interface PeriodSales {
  orders: number;
  total: number;
  tips: number;
}

const empty = (): PeriodSales => ({ orders: 0, total: 0, tips: 0 });
const addInto = (into: PeriodSales, row: PeriodSales) => {
  into.orders += row.orders;
  into.total += row.total;
  into.tips += row.tips;
};

/** Hours of the business day in order: the start hour first (03:00 … 23:00, 00:00 … 02:00). */
export function businessHours(startHour: number): number[] {
  return Array.from({ length: 24 }, (_, i) => (startHour + i) % 24);
}

/** Sales by hour of day: 24 rows in business order, whatever hours the rows hold. */
export function foldHours(rows: readonly (PeriodSales & { hour: number })[], startHour: number): (PeriodSales & { hour: number })[] {
  const hours = new Map(businessHours(startHour).map((h) => [h, empty()]));
  for (const row of rows) addInto(hours.get(row.hour)!, row);
  return [...hours].map(([hour, sales]) => ({ hour, ...sales }));
}

/**
 * Sales by weekday (7 rows, Monday first) from rows keyed by slot: an hour before the day's
 * start belongs to the night before. `days` counts the business days of that weekday with sales.
 * The weekday is worked out once per calendar day, not once per row.
 */
export function foldWeekdays(rows: readonly SlotSales[], startHour: number): (PeriodSales & { weekday: number; days: number })[] {
  const weekdays = Array.from({ length: 7 }, () => ({ ...empty(), days: new Set<number>() }));
  const calendar = new Map<number, { weekday: number; before: number }>();
  for (const row of rows) {
    const day = daySlot(row.slot);
    let known = calendar.get(day);
    if (!known) {
      const date = slotDate(row.slot);
      known = { weekday: weekdayIndex(date), before: dayNumber(addDays(date, -1)) };
      calendar.set(day, known);
    }
    const early = slotHour(row.slot) < startHour;
    const into = weekdays[early ? (known.weekday + 6) % 7 : known.weekday]!;
    addInto(into, row);
    if (row.orders > 0) into.days.add(early ? known.before : day);
  }
  return weekdays.map(({ days, ...sales }, weekday) => ({ weekday, days: days.size, ...sales }));
}

/** Sales by hour of day, by weekday and in total, from hour-slot rows. */
export function foldSlots(
  rows: readonly SlotSales[],
  startHour: number,
): { byHour: (PeriodSales & { hour: number })[]; byWeekday: (PeriodSales & { weekday: number; days: number })[]; totals: PeriodSales } {
  const totals = empty();
  for (const row of rows) addInto(totals, row);
  return {
    byHour: foldHours(
      rows.map((r) => ({ ...r, hour: slotHour(r.slot) })),
      startHour,
    ),
    byWeekday: foldWeekdays(rows, startHour),
    totals,
  };
}

/** Average ticket, to the nearest centavo (0 without tickets). */
export const averageTicket = (total: number, tickets: number): number => (tickets > 0 ? Math.round(total / tickets) : 0);

/** Centavos as pesos for a spreadsheet cell (a number, never text). */
export const centsToPesoNumber = (cents: number): number => Math.round(cents) / 100;
