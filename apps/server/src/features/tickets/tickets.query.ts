import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { TicketsPage } from '@comanda/contract';
import type { DbKind } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import type { TicketSearch } from './ticket-search.ts';
import { cancelledTickets, paidTickets, presentTicket, ticketPayments } from '../../model/tickets/paid-tickets.ts';
import { ticketInvoicing } from '../../model/invoicing/ticket-invoicing.ts';

/** The names of a paid order, kept by triggers on `orders`: folded on PostgreSQL (0006), as written on SQLite (0028). */
interface TicketSearchTable {
  order_id: string;
  body: string;
}

type SearchDb = Database & { o: Database['orders']; s: TicketSearchTable };
type SearchEb = ExpressionBuilder<SearchDb, 'o' | 's'>;

/**
 * Any reading of the search term, as one OR. Names are matched on `ticket_search` (joined as `s`)
 * so accents never matter: its folded copy by LIKE on PostgreSQL; on SQLite the names as written,
 * by a GLOB whose classes hold every case and accent of each letter (LIKE when that is exact).
 */
function matchesSearch(eb: SearchEb, kind: DbKind, search: TicketSearch): Expression<SqlBool> {
  const name =
    kind === 'sqlite' && search.nameGlob
      ? sql<SqlBool>`${sql.ref('s.body')} glob ${search.nameGlob}`
      : sql<SqlBool>`${sql.ref('s.body')} like ${search.namePattern} escape '\\'`;
  const readings: Expression<SqlBool>[] = [name];
  // Ids are lower-case UUIDs, so a prefix range keeps this a plain comparison.
  if (search.idPrefix) readings.push(eb('o.id', 'like', `${search.idPrefix}%`));
  if (search.tableNumber !== null) readings.push(eb('o.table_number', '=', search.tableNumber));
  if (search.folio !== null) readings.push(eb('o.folio', '=', search.folio));
  if (search.amount) readings.push(eb.and([eb('o.total', '>=', search.amount.min), eb('o.total', '<', search.amount.max)]));
  return eb.or(readings);
}

/** Beyond this many indexed matches, walking the newest tickets in order finds a page sooner. */
const CANDIDATE_CAP = 300;

/**
 * The paid orders a term can match, from indexes only: names through the trigram index of
 * `ticket_search`, the ticket number through the primary key. Null when an index cannot
 * answer (a table number or an amount reading, a name shorter than 3 characters) or when
 * there are more than CANDIDATE_CAP matches: the caller then walks the tickets newest first.
 */
async function indexedCandidates(db: Trx, kind: DbKind, search: TicketSearch): Promise<string[] | null> {
  if (search.tableNumber !== null || search.amount || search.folio !== null || [...search.nameText].length < 3) return null;
  const names =
    kind === 'sqlite'
      ? await sql<{ order_id: string }>`select s.order_id from ticket_search_fts f join ticket_search s on s.doc = f.rowid
          where ticket_search_fts match ${`"${search.nameText.replace(/"/g, '""')}"`} limit ${CANDIDATE_CAP + 1}`.execute(db)
      : await sql<{ order_id: string }>`select order_id from ticket_search
          where body like ${search.namePattern} escape '\\' limit ${CANDIDATE_CAP + 1}`.execute(db);
  const ids = new Set(names.rows.map((r) => r.order_id));
  if (search.idPrefix) {
    // Hex ids: every id starting with the prefix sorts in [prefix, prefix + 'g').
    const byId = await db
      .selectFrom('orders')
      .select('id')
      .where('id', '>=', search.idPrefix)
      .where('id', '<', `${search.idPrefix}g`)
      .where('id', 'like', `${search.idPrefix}%`)
      .where('status', '=', 'pagado')
      .limit(CANDIDATE_CAP + 1)
      .execute();
    for (const row of byId) ids.add(row.id);
  }
  return ids.size > CANDIDATE_CAP ? null : [...ids];
}

export interface ListTicketsInput {
  kind: DbKind;
  search: TicketSearch | null;
  cursor: { completedAt: number; id: string } | null;
  limit: number;
  timezone: string;
  today: string;
  /** 'cancelado': the cancelled orders (searched by ticket number or table, walking newest first). */
  status?: 'pagado' | 'cancelado';
}

/**
 * One page, newest first, by keyset (completed_at, id): a page never repeats or skips a
 * ticket when new ones arrive meanwhile, and deep pages cost the same as the first.
 * A search the indexes can answer reads only its matches (a term nothing matches costs one
 * index lookup); otherwise the newest tickets are walked until the page is full.
 */
export async function listTickets(db: Trx, input: ListTicketsInput): Promise<TicketsPage> {
  const { cursor, search } = input;
  const cancelled = input.status === 'cancelado';
  const candidates = search && !cancelled ? await indexedCandidates(db, input.kind, search) : null;
  const empty = { tickets: [], nextCursor: null, today: input.today, timezone: input.timezone };
  if (candidates && candidates.length === 0) return empty;
  let query = cancelled ? cancelledTickets(db) : paidTickets(db);
  if (cursor) {
    query = query.where((eb) =>
      eb.or([
        eb('o.completed_at', '<', cursor.completedAt),
        eb.and([eb('o.completed_at', '=', cursor.completedAt), eb('o.id', '<', cursor.id)]),
      ]),
    );
  }
  if (candidates) query = query.where('o.id', 'in', candidates);
  const rows = await (
    search && !candidates
      ? query
          .leftJoin(sql<TicketSearchTable>`ticket_search`.as('s'), (join) => join.onRef('s.order_id', '=', 'o.id'))
          .where((eb) => matchesSearch(eb, input.kind, search))
      : query
  )
    .orderBy('o.completed_at', 'desc')
    .orderBy('o.id', 'desc')
    .limit(input.limit + 1)
    .execute();
  const pageRows = rows.slice(0, input.limit);
  const payments = await ticketPayments(
    db,
    pageRows.map((r) => r.id),
  );
  const invoicing = await ticketInvoicing(
    db,
    pageRows.map((r) => r.id),
  );
  const page = pageRows.map((row) => ({
    ...presentTicket(row, input.timezone, payments.get(row.id)),
    invoicing: invoicing.get(row.id) ?? null,
  }));
  const last = page.at(-1);
  const nextCursor = rows.length > input.limit && last ? `${last.completedAt}.${last.id}` : null;
  return { tickets: page, nextCursor, today: input.today, timezone: input.timezone };
}

export function parseCursor(cursor: string | undefined): { completedAt: number; id: string } | null {
  if (!cursor) return null;
  const dot = cursor.indexOf('.');
  return { completedAt: Number(cursor.slice(0, dot)), id: cursor.slice(dot + 1) };
}
