import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../connect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

const PAID = `status = 'pagado' AND completed_at IS NOT NULL`;

/** The names as written; FTS5 folds case and accents itself, the walk folds in its GLOB (tickets.query.ts). */
const body = (row: string) => `coalesce(${row}.table_name, '') || char(10) || coalesce(${row}.waiter_name, '')`;

/**
 * SQLite only: the ticket-search index without the ~50 nested replace() of migration 0006, whose
 * triggers the parser of older SQLite tools (Debian 12's sqlite3 3.40) could not read, so they
 * could not open the database or any backup. `ticket_search` now keeps the names as written and
 * the trigram index folds case and accents (`remove_diacritics 2`); the table, its index and
 * triggers are made again and the index rebuilt from the paid orders. PostgreSQL keeps 0006's
 * translate() (one call): nothing to do.
 */
export function ticketSearchFold(kind: DbKind) {
  return {
    async up(db: AnyDb): Promise<void> {
      if (kind !== 'sqlite') return;
      const statements = [
        `DROP TRIGGER IF EXISTS orders_ticket_search_ai`,
        `DROP TRIGGER IF EXISTS orders_ticket_search_au`,
        `DROP TRIGGER IF EXISTS orders_ticket_search_ad`,
        `DROP TRIGGER IF EXISTS ticket_search_ai`,
        `DROP TRIGGER IF EXISTS ticket_search_ad`,
        `DROP TABLE IF EXISTS ticket_search_fts`,
        `DROP TABLE IF EXISTS ticket_search`,
        `CREATE TABLE ticket_search (doc INTEGER PRIMARY KEY, order_id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)`,
        `INSERT INTO ticket_search (order_id, body) SELECT id, ${body('orders')} FROM orders WHERE ${PAID} ORDER BY completed_at, id`,
        `CREATE VIRTUAL TABLE ticket_search_fts USING fts5(body, content='ticket_search', content_rowid='doc', tokenize='trigram remove_diacritics 2')`,
        `INSERT INTO ticket_search_fts (ticket_search_fts) VALUES ('rebuild')`,
        `CREATE TRIGGER ticket_search_ai AFTER INSERT ON ticket_search BEGIN
           INSERT INTO ticket_search_fts (rowid, body) VALUES (new.doc, new.body); END`,
        `CREATE TRIGGER ticket_search_ad AFTER DELETE ON ticket_search BEGIN
           INSERT INTO ticket_search_fts (ticket_search_fts, rowid, body) VALUES ('delete', old.doc, old.body); END`,
        `CREATE TRIGGER orders_ticket_search_ai AFTER INSERT ON orders
           WHEN new.status = 'pagado' AND new.completed_at IS NOT NULL BEGIN
           INSERT INTO ticket_search (order_id, body) VALUES (new.id, ${body('new')}); END`,
        `CREATE TRIGGER orders_ticket_search_au AFTER UPDATE OF status, completed_at, table_name, waiter_name ON orders BEGIN
           DELETE FROM ticket_search WHERE order_id = old.id;
           INSERT INTO ticket_search (order_id, body) SELECT new.id, ${body('new')}
             WHERE new.status = 'pagado' AND new.completed_at IS NOT NULL; END`,
        `CREATE TRIGGER orders_ticket_search_ad AFTER DELETE ON orders BEGIN
           DELETE FROM ticket_search WHERE order_id = old.id; END`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  };
}
