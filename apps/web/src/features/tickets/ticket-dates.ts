import type { TicketSummary } from '@comanda/contract';
import { t } from '../../lib/i18n/es-MX.ts';

export interface TicketDay {
  date: string;
  label: string;
  tickets: TicketSummary[];
}

const dayFormat = new Intl.DateTimeFormat('es-MX', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
const dayYearFormat = new Intl.DateTimeFormat('es-MX', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** 'viernes 10 de mayo' (with the year when it is not this year's); 'Hoy, …' for today. */
export function dayLabel(date: string, today: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const noon = new Date(Date.UTC(y, m - 1, d, 12));
  const text = (date.slice(0, 4) === today.slice(0, 4) ? dayFormat : dayYearFormat).format(noon).replace(',', '');
  return date === today ? t.tickets.today(text) : text.charAt(0).toUpperCase() + text.slice(1);
}

/** Tickets arrive newest first; consecutive ones of the same business day form a group. */
export function groupByDay(tickets: TicketSummary[], today: string): TicketDay[] {
  const days: TicketDay[] = [];
  for (const ticket of tickets) {
    const last = days.at(-1);
    if (last?.date === ticket.businessDate) last.tickets.push(ticket);
    else days.push({ date: ticket.businessDate, label: dayLabel(ticket.businessDate, today), tickets: [ticket] });
  }
  return days;
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** Clock time in the business time zone, whatever the browser's own zone. */
export function businessTime(ms: number, timezone: string): string {
  let format = timeFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('es-MX', { hour: '2-digit', minute: '2-digit', timeZone: timezone });
    timeFormats.set(timezone, format);
  }
  return format.format(new Date(ms));
}
