import { money } from '../../lib/format.ts';

const compact = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN', notation: 'compact', maximumFractionDigits: 1 });

/** Bar labels where a full amount does not fit: '$1.2 mil' from a thousand pesos up, exact below. */
export const compactMoney = (cents: number): string => (cents >= 100_000 ? compact.format(cents / 100) : money(cents));

export const hourLabel = (hour: number): string => `${String(hour).padStart(2, '0')}:00`;

const dateTimeFormats = new Map<string, { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

/** '10 may 2024, 17:00' in the business time zone, whatever the browser's own zone. */
export function businessDateTime(ms: number, timezone: string): string {
  let f = dateTimeFormats.get(timezone);
  if (!f) {
    f = {
      date: new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'short', year: 'numeric', timeZone: timezone }),
      time: new Intl.DateTimeFormat('es-MX', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: timezone }),
    };
    dateTimeFormats.set(timezone, f);
  }
  const at = new Date(ms);
  return `${f.date.format(at).replace('.', '')}, ${f.time.format(at)}`;
}

export const percent = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);
