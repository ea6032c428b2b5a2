import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_TIMEZONE } from '@comanda/domain';
import { generalConfigQuery } from './config.ts';

/**
 * Every date and time the web shows, printed or on screen, in the business's time zone (the
 * setting of the business information), never in the device's: a phone or a board set to another
 * zone shows the same clock as the printed ticket and the cash close. One cache of formatters.
 */
const STYLES = {
  /** '11:59 p.m.' */
  time: { hour: '2-digit', minute: '2-digit' },
  /** '23:59:30' (printer alerts). */
  timeWithSeconds: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  /** '7 mar 2026, 11:59 p.m.' */
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  /** '7 mar, 11:59 p.m.' */
  dayTime: { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' },
  /** '7 de marzo de 2026' */
  longDate: { day: 'numeric', month: 'long', year: 'numeric' },
  /** '7 mar 2026' (a dot after a short month is dropped by shiftDateTime). */
  shortDate: { day: 'numeric', month: 'short', year: 'numeric' },
  /** '23:59' */
  clock24: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  /** '2026-03-07': the calendar date, as <input type="date"> and the API write it. */
  isoDate: { year: 'numeric', month: '2-digit', day: '2-digit' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateStyle = keyof typeof STYLES;

// Building a DateTimeFormat is slow: one per style and zone, kept for the page's lifetime.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(style: DateStyle, zone: string): Intl.DateTimeFormat {
  const key = `${style} ${zone}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(style === 'isoDate' ? 'en-CA' : 'es-MX', { ...STYLES[style], timeZone: zone });
    formatters.set(key, format);
  }
  return format;
}

/** An instant (ms since the epoch) written in the given style, in the given time zone. */
export function formatInZone(ms: number, style: DateStyle, zone: string): string {
  return formatter(style, zone).format(new Date(ms));
}

/** '7 mar 2026, 23:59': the cash close's shift bounds and late tickets. */
export function shiftDateTime(ms: number, zone: string): string {
  return `${formatInZone(ms, 'shortDate', zone).replace('.', '')}, ${formatInZone(ms, 'clock24', zone)}`;
}

const dayFormat = new Intl.DateTimeFormat('es-MX', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
const dayYearFormat = new Intl.DateTimeFormat('es-MX', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/**
 * 'sábado, 7 de marzo' for a calendar date ('2026-03-07'), with the year when asked. A calendar
 * date names no instant: it is read and written at noon UTC, so no zone can move it to another day.
 */
export function calendarDayText(date: string, withYear: boolean): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return (withYear ? dayYearFormat : dayFormat).format(new Date(Date.UTC(y, m - 1, d, 12)));
}

/** The business's time zone, from its settings (the same source as the cash close); Mexico City until it loads. */
export function useBusinessZone(): string {
  const config = useQuery(generalConfigQuery);
  return config.data?.timezone ?? DEFAULT_TIMEZONE;
}

export interface BusinessDates {
  zone: string;
  time(ms: number): string;
  timeWithSeconds(ms: number): string;
  dateTime(ms: number): string;
  dayTime(ms: number): string;
  longDate(ms: number): string;
  shiftDateTime(ms: number): string;
  /** Today's calendar date in the business zone ('2026-03-07'). */
  today(): string;
}

export function businessDates(zone: string): BusinessDates {
  return {
    zone,
    time: (ms) => formatInZone(ms, 'time', zone),
    timeWithSeconds: (ms) => formatInZone(ms, 'timeWithSeconds', zone),
    dateTime: (ms) => formatInZone(ms, 'dateTime', zone),
    dayTime: (ms) => formatInZone(ms, 'dayTime', zone),
    longDate: (ms) => formatInZone(ms, 'longDate', zone),
    shiftDateTime: (ms) => shiftDateTime(ms, zone),
    today: () => formatInZone(Date.now(), 'isoDate', zone),
  };
}

/** The formatters of a screen, bound to the business zone. */
export function useBusinessDates(): BusinessDates {
  const zone = useBusinessZone();
  return useMemo(() => businessDates(zone), [zone]);
}
