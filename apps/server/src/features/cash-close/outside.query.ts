import { sql } from 'kysely';
import { cents, type Cents } from '@comanda/domain';
import type { TicketSummary } from '@comanda/contract';
import type { Trx } from '../../http/transaction.ts';
import { paidTickets, presentTicket, ticketPayments } from '../../model/tickets/paid-tickets.ts';
import type { Interval } from '../../model/shift-windows.ts';

/** Count and total of paid orders completed in the given intervals (the gaps between shifts). */
export async function outsideShiftTotals(db: Trx, intervals: Interval[]): Promise<{ count: number; total: Cents }> {
  let count = 0;
  let total = 0;
  // At most two gaps a day, each an index range of its own.
  for (const gap of intervals) {
    const { rows } = await sql<{ count: number | string; total: number | string | null }>`
      SELECT COUNT(*) AS count, SUM(total) AS total FROM orders
      WHERE status = 'pagado' AND completed_at >= ${gap.start} AND completed_at < ${gap.end}
    `.execute(db);
    count += Number(rows[0]?.count ?? 0);
    total += Number(rows[0]?.total ?? 0);
  }
  return { count, total: cents(total) };
}

/** The tickets themselves, newest first, at most `limit`. */
export async function outsideShiftTickets(db: Trx, intervals: Interval[], timezone: string, limit: number): Promise<TicketSummary[]> {
  if (intervals.length === 0) return [];
  const rows = await paidTickets(db)
    .where((eb) => eb.or(intervals.map((gap) => eb.and([eb('o.completed_at', '>=', gap.start), eb('o.completed_at', '<', gap.end)]))))
    .orderBy('o.completed_at', 'desc')
    .orderBy('o.id', 'desc')
    .limit(limit)
    .execute();
  const payments = await ticketPayments(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => presentTicket(row, timezone, payments.get(row.id)));
}
