import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../connect.ts';
import { ACCENTED, UNACCENTED } from '@comanda/domain';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

const PAID = `status = 'pagado' AND completed_at IS NOT NULL`;

/** SQLite has no translate(): one replace() per accented letter (lower() folds ASCII only). */
function sqliteFold(expr: string): string {
  let out = `lower(coalesce(${expr}, ''))`;
  for (const [i, c] of [...ACCENTED].entries()) out = `replace(${out}, '${c}', '${UNACCENTED[i]!}')`;
  return out;
}

const pgFold = (expr: string) => `translate(lower(coalesce(${expr}, '')), '${ACCENTED}', '${UNACCENTED}')`;

/**
 * Ticket search by index (docs/performance.md): one row per paid order in `ticket_search`,
 * holding its table name and waiter name folded (lower case, no accents), kept by triggers on
 * `orders` so every write path (closing an order, imports, fixtures) keeps it right.
 * SQLite: an FTS5 trigram index over it (substring search, as the LIKE it replaces).
 * PostgreSQL: a pg_trgm GIN index (pg_trgm is a trusted extension: the database owner may
 * create it, no superuser needed). Existing paid orders are indexed here.
 */
export function ticketSearch(kind: DbKind) {
  return {
    async up(db: AnyDb): Promise<void> {
      if (kind === 'sqlite') {
        const body = (row: string) => `${sqliteFold(`${row}.table_name`)} || char(10) || ${sqliteFold(`${row}.waiter_name`)}`;
        const statements = [
          `CREATE TABLE ticket_search (doc INTEGER PRIMARY KEY, order_id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)`,
          `CREATE VIRTUAL TABLE ticket_search_fts USING fts5(body, content='ticket_search', content_rowid='doc', tokenize='trigram remove_diacritics 1')`,
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
          `INSERT INTO ticket_search (order_id, body)
             SELECT id, ${body('orders')} FROM orders WHERE ${PAID} ORDER BY completed_at, id`,
        ];
        for (const statement of statements) await sql.raw(statement).execute(db);
        return;
      }
      const body = (row: string) => `${pgFold(`${row}.table_name`)} || chr(10) || ${pgFold(`${row}.waiter_name`)}`;
      const statements = [
        `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
        `CREATE TABLE ticket_search (order_id text PRIMARY KEY, body text NOT NULL)`,
        `INSERT INTO ticket_search (order_id, body) SELECT id, ${body('orders')} FROM orders WHERE ${PAID}`,
        `CREATE INDEX ticket_search_body_trgm ON ticket_search USING gin (body gin_trgm_ops)`,
        `CREATE FUNCTION ticket_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF TG_OP <> 'INSERT' THEN DELETE FROM ticket_search WHERE order_id = OLD.id; END IF;
           IF TG_OP <> 'DELETE' AND NEW.status = 'pagado' AND NEW.completed_at IS NOT NULL THEN
             INSERT INTO ticket_search (order_id, body) VALUES (NEW.id, ${body('NEW')});
           END IF;
           RETURN NULL;
         END $$`,
        `CREATE TRIGGER orders_ticket_search AFTER INSERT OR DELETE OR UPDATE OF status, completed_at, table_name, waiter_name
           ON orders FOR EACH ROW EXECUTE FUNCTION ticket_search_sync()`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  };
}
