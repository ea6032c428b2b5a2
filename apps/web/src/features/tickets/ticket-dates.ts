import type { TicketSummary } from '@comanda/contract';
import { calendarDayText } from '../../lib/dates.ts';
import { t } from '../../lib/i18n/es-MX.ts';

export interface TicketDay {
  date: string;
  label: string;
  tickets: TicketSummary[];
}

/** 'viernes 10 de mayo' (with the year when it is not this year's); 'Hoy, …' for today. */
export function dayLabel(date: string, today: string): string {
  const text = calendarDayText(date, date.slice(0, 4) !== today.slice(0, 4)).replace(',', '');
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
