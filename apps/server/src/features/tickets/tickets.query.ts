import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { TicketsPage } from '@comanda/contract';
import type { Database } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import type { TicketSearch } from './ticket-search.ts';
import { paidTickets, presentTicket } from '../../model/tickets/paid-tickets.ts';

type OrdersEb = ExpressionBuilder<Database & { o: Database['orders'] }, 'o'>;

/** Any reading of the search term, as one OR; the same SQL on SQLite and PostgreSQL. */
function matchesSearch(eb: OrdersEb, search: TicketSearch): Expression<SqlBool> {
  const lowerLike = (column: 'o.table_name' | 'o.waiter_name') =>
    sql<SqlBool>`lower(${sql.ref(column)}) like ${search.namePattern} escape '\\'`;
  const readings: Expression<SqlBool>[] = [lowerLike('o.table_name'), lowerLike('o.waiter_name')];
  // Ids are lower-case UUIDs, so a prefix range keeps this a plain comparison.
  if (search.idPrefix) readings.push(eb('o.id', 'like', `${search.idPrefix}%`));
  if (search.tableNumber !== null) readings.push(eb('o.table_number', '=', search.tableNumber));
  if (search.amount) readings.push(eb.and([eb('o.total', '>=', search.amount.min), eb('o.total', '<', search.amount.max)]));
  return eb.or(readings);
}

export interface ListTicketsInput {
  search: TicketSearch | null;
  cursor: { completedAt: number; id: string } | null;
  limit: number;
  timezone: string;
  today: string;
}

/**
 * One page, newest first, by keyset (completed_at, id): a page never repeats or skips a
 * ticket when new ones arrive meanwhile, and deep pages cost the same as the first.
 */
export async function listTickets(db: Trx, input: ListTicketsInput): Promise<TicketsPage> {
  let query = paidTickets(db);
  const { cursor, search } = input;
  if (cursor) {
    query = query.where((eb) =>
      eb.or([
        eb('o.completed_at', '<', cursor.completedAt),
        eb.and([eb('o.completed_at', '=', cursor.completedAt), eb('o.id', '<', cursor.id)]),
      ]),
    );
  }
  if (search) query = query.where((eb) => matchesSearch(eb, search));
  const rows = await query
    .orderBy('o.completed_at', 'desc')
    .orderBy('o.id', 'desc')
    .limit(input.limit + 1)
    .execute();
  const page = rows.slice(0, input.limit).map((row) => presentTicket(row, input.timezone));
  const last = page.at(-1);
  const nextCursor = rows.length > input.limit && last ? `${last.completedAt}.${last.id}` : null;
  return { tickets: page, nextCursor, today: input.today, timezone: input.timezone };
}

export function parseCursor(cursor: string | undefined): { completedAt: number; id: string } | null {
  if (!cursor) return null;
  const dot = cursor.indexOf('.');
  return { completedAt: Number(cursor.slice(0, dot)), id: cursor.slice(dot + 1) };
}
