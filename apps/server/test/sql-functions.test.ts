import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { reportDataSteps } from '../src/model/reports/rollup-backfill.ts';
import { applySqlFunctions, FUNCTIONS_TABLE, SQL_FUNCTIONS } from '../src/db/functions/index.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../src/testing/index.ts';

/**
 * PostgreSQL's functions live in db/functions and are made by the migrator after the migrations,
 * whenever a function's text is not the one recorded: a new database, one the earlier migrations
 * made the functions in, a changed text, and several processes starting at once.
 */
const onPostgres = testDatabaseKinds().includes('postgres');
/** PostgreSQL only (declared and skipped without TEST_DATABASE_URL: Vitest fails a file that declares none). */
const kinds = ['postgres'] as const;

describe.skipIf(!onPostgres).each(kinds)('the server functions on %s', (kind) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });
  const fresh = async (): Promise<{ database: TestDatabase; db: Db }> => {
    const database = await createTestDatabase(kind);
    cleanup.push(() => database.drop());
    const db = connect(database.url);
    cleanup.push(() => db.close());
    return { database, db };
  };
  /** Every version of each function in the database: its name and its parameters. */
  const versions = async (db: Db) =>
    (
      await sql<{ name: string; args: string }>`SELECT proname AS name, pg_get_function_identity_arguments(oid) AS args FROM pg_proc
        WHERE proname LIKE 'comanda\\_%' AND pronamespace = current_schema()::regnamespace ORDER BY proname`.execute(db.db)
    ).rows;
  const recorded = async (db: Db) =>
    (await sql<{ name: string }>`SELECT name FROM ${sql.table(FUNCTIONS_TABLE)} ORDER BY name`.execute(db.db)).rows.map((r) => r.name);

  it('makes every function once on a new database, records it, and leaves it alone while its text is the same', async () => {
    const { db } = await fresh();
    await migrateToLatest(db, reportDataSteps);
    const made = await versions(db);
    expect(made.map((v) => v.name)).toEqual(SQL_FUNCTIONS.map((f) => f.name).sort());
    expect(await recorded(db)).toEqual(SQL_FUNCTIONS.map((f) => f.name).sort());
    expect(await applySqlFunctions(db)).toEqual([]);
    await migrateToLatest(db, reportDataSteps);
    expect(await versions(db)).toEqual(made);
  });

  it('replaces a function made by an earlier version, whatever its parameters, and a changed text', async () => {
    const { db } = await fresh();
    await migrateToLatest(db, reportDataSteps);
    // As the earlier migrations left a database: no record, and the delete with other parameters.
    await sql`DROP TABLE ${sql.table(FUNCTIONS_TABLE)}`.execute(db.db);
    await sql`DROP FUNCTION comanda_quick_delete`.execute(db.db);
    await sql`CREATE FUNCTION comanda_quick_delete(p_key text, p_any_order boolean) RETURNS json LANGUAGE sql AS $$ SELECT NULL::json $$`.execute(
      db.db,
    );
    await migrateToLatest(db, reportDataSteps);
    const deletes = (await versions(db)).filter((v) => v.name === 'comanda_quick_delete');
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.args).toContain('p_role text');
    expect(await recorded(db)).toHaveLength(SQL_FUNCTIONS.length);

    // A text changed in a later version is made again, and only that one.
    const label = SQL_FUNCTIONS.find((f) => f.name === 'comanda_table_label')!;
    const changed = { ...label, text: label.text.replace("'Barra'", "'La barra'") };
    expect(await applySqlFunctions(db, [changed])).toEqual(['comanda_table_label']);
    const { rows } = await sql<{ label: string }>`SELECT comanda_table_label(NULL, 0, 0) AS label`.execute(db.db);
    expect(rows[0]!.label).toBe('La barra');
    expect(await applySqlFunctions(db)).toEqual(['comanda_table_label']);
  });

  it('applies each function once when several processes start on a new database at once', async () => {
    const { database } = await fresh();
    const processes = Array.from({ length: 4 }, () => connect(database.url));
    try {
      await Promise.all(processes.map((db) => migrateToLatest(db, reportDataSteps)));
      const made = await Promise.all(processes.map((db) => applySqlFunctions(db)));
      expect(made.flat()).toEqual([]);
      expect((await versions(processes[0]!)).map((v) => v.name)).toEqual(SQL_FUNCTIONS.map((f) => f.name).sort());
    } finally {
      await Promise.all(processes.map((db) => db.close()));
    }
  });

  it('inlines its SQL-language helpers into the plans that call them', async () => {
    const { db } = await fresh();
    await migrateToLatest(db, reportDataSteps);
    // A helper PostgreSQL cannot inline (one with a STABLE operator in an IMMUTABLE body, say) runs
    // as a function call of its own, executor and all, on every call.
    const { rows } = await sql<{ name: string; types: string[] }>`SELECT p.proname AS name,
        array(SELECT format_type(t, NULL) FROM unnest(p.proargtypes) AS t) AS types
      FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
      WHERE l.lanname = 'sql' AND p.proname LIKE 'comanda\\_%' AND p.pronamespace = current_schema()::regnamespace
      ORDER BY p.proname`.execute(db.db);
    expect(rows.map((r) => r.name)).toEqual(['comanda_may_work_order', 'comanda_table_label']);
    for (const { name, types } of rows) {
      // The arguments are columns of a materialized row, not constants, which would be folded away anyway.
      const columns = types.map((type, i) => `NULL::${type} AS a${i}`).join(', ');
      const call = `${name}(${types.map((_, i) => `a${i}`).join(', ')})`;
      const plan = await sql
        .raw<{ 'QUERY PLAN': string }>(`EXPLAIN VERBOSE WITH args AS MATERIALIZED (SELECT ${columns}) SELECT ${call} FROM args`)
        .execute(db.db);
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text, `${name} is not inlined:\n${text}`).not.toContain(name);
    }
  });

  it('answers who may work an order as the domain does', async () => {
    const { db } = await fresh();
    await migrateToLatest(db, reportDataSteps);
    const may = async (role: string, waiterId: string | null) =>
      (await sql<{ may: boolean }>`SELECT comanda_may_work_order(${role}, 'w1', ${waiterId}) AS may`.execute(db.db)).rows[0]!.may;
    expect(await may('admin', null)).toBe(true);
    expect(await may('admin', 'w2')).toBe(true);
    expect(await may('waiter', 'w1')).toBe(true);
    expect(await may('waiter', 'w2')).toBe(false);
    expect(await may('waiter', null)).toBe(false);
    expect(await may('kitchen', 'w1')).toBe(false);
  });
});
