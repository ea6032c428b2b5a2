import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../connect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Drawer sessions (turnos de caja), their cash movements and the cash payments each one holds.
 * `open_drawer_id` equals `drawer_id` while the session is open and is null once closed: unique,
 * so a drawer has at most one open session (the same rule as one active order per table).
 * A closed session, and everything that belongs to it, can never change: triggers refuse it.
 */
export function drawer(kind: DbKind) {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('drawer_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('drawer_id', 'text', (c) => c.notNull())
        .addColumn('open_drawer_id', 'text', (c) => c.unique())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('float_amount', 'bigint', (c) => c.notNull())
        .addColumn('float_count', 'text', (c) => c.notNull())
        .addColumn('opened_by', 'text', (c) => c.notNull())
        .addColumn('opened_by_name', 'text', (c) => c.notNull())
        .addColumn('opened_at', 'bigint', (c) => c.notNull())
        .addColumn('closed_at', 'bigint')
        .addColumn('counted_amount', 'bigint')
        .addColumn('counted_count', 'text')
        .addColumn('expected_amount', 'bigint')
        .addColumn('difference', 'bigint')
        .addColumn('figures', 'text')
        .addColumn('comment', 'text')
        .addColumn('cashier_id', 'text')
        .addColumn('cashier_name', 'text')
        .addColumn('admin_id', 'text')
        .addColumn('admin_name', 'text')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.createIndex('drawer_sessions_closed_at').on('drawer_sessions').column('closed_at').execute();

      await db.schema
        .createTable('drawer_movements')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull().references('drawer_sessions.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('authorized_by', 'text', (c) => c.notNull())
        .addColumn('authorized_by_name', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_by_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('drawer_movements_session').on('drawer_movements').column('session_id').execute();

      await db.schema
        .createTable('drawer_payments')
        .addColumn('payment_id', 'text', (c) => c.primaryKey().references('payments.id'))
        .addColumn('session_id', 'text', (c) => c.notNull().references('drawer_sessions.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('drawer_payments_session').on('drawer_payments').column('session_id').execute();

      if (kind === 'postgres') {
        await sql`CREATE FUNCTION drawer_session_closed() RETURNS trigger AS $$
          BEGIN
            IF TG_TABLE_NAME = 'drawer_sessions' THEN
              IF OLD.status = 'cerrada' THEN RAISE EXCEPTION 'drawer session is closed'; END IF;
              IF TG_OP = 'DELETE' THEN RAISE EXCEPTION 'drawer sessions are never deleted'; END IF;
              RETURN NEW;
            END IF;
            IF TG_OP <> 'INSERT' THEN RAISE EXCEPTION 'drawer records are append-only'; END IF;
            IF (SELECT status FROM drawer_sessions WHERE id = NEW.session_id) = 'cerrada' THEN
              RAISE EXCEPTION 'drawer session is closed';
            END IF;
            RETURN NEW;
          END; $$ LANGUAGE plpgsql`.execute(db);
        await sql`CREATE TRIGGER drawer_sessions_closed BEFORE UPDATE OR DELETE ON drawer_sessions
          FOR EACH ROW EXECUTE FUNCTION drawer_session_closed()`.execute(db);
        for (const table of ['drawer_movements', 'drawer_payments']) {
          await sql`CREATE TRIGGER ${sql.raw(`${table}_closed`)} BEFORE INSERT OR UPDATE OR DELETE ON ${sql.table(table)}
            FOR EACH ROW EXECUTE FUNCTION drawer_session_closed()`.execute(db);
        }
      } else {
        await sql`CREATE TRIGGER drawer_sessions_no_update BEFORE UPDATE ON drawer_sessions WHEN OLD.status = 'cerrada'
          BEGIN SELECT RAISE(ABORT, 'drawer session is closed'); END`.execute(db);
        await sql`CREATE TRIGGER drawer_sessions_no_delete BEFORE DELETE ON drawer_sessions
          BEGIN SELECT RAISE(ABORT, 'drawer sessions are never deleted'); END`.execute(db);
        for (const table of ['drawer_movements', 'drawer_payments']) {
          await sql`CREATE TRIGGER ${sql.raw(`${table}_closed`)} BEFORE INSERT ON ${sql.table(table)}
            WHEN (SELECT status FROM drawer_sessions WHERE id = NEW.session_id) = 'cerrada'
            BEGIN SELECT RAISE(ABORT, 'drawer session is closed'); END`.execute(db);
          await sql`CREATE TRIGGER ${sql.raw(`${table}_no_update`)} BEFORE UPDATE ON ${sql.table(table)}
            BEGIN SELECT RAISE(ABORT, 'drawer records are append-only'); END`.execute(db);
          await sql`CREATE TRIGGER ${sql.raw(`${table}_no_delete`)} BEFORE DELETE ON ${sql.table(table)}
            BEGIN SELECT RAISE(ABORT, 'drawer records are append-only'); END`.execute(db);
        }
      }
    },
  };
}
