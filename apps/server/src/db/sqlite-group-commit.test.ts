import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect, type Db } from './connect.ts';
import { GROUP_MAX_MEMBERS } from './sqlite-group-commit.ts';
import { durably, transact } from './transact.ts';

/**
 * Group commit on SQLite, checked against a second, independent connection to the same file:
 * what that connection sees is what is on disk (committed), whatever the server's connection holds.
 */
describe('SQLite group commit', () => {
  let dir: string;
  let file: string;
  let db: Db;
  let outside: SQLite.Database;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-group-'));
    file = join(dir, 'group.db');
    db = connect(`sqlite:${file}`);
    await sql`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL UNIQUE)`.execute(db.db);
    outside = new SQLite(file, { readonly: true });
  });
  afterEach(async () => {
    outside.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const committed = () => (outside.prepare('SELECT body FROM notes ORDER BY id').all() as { body: string }[]).map((r) => r.body);
  const insert = (body: string) => (trx: Parameters<Parameters<typeof transact>[1]>[0]) =>
    sql`INSERT INTO notes (body) VALUES (${body})`.execute(trx);

  it('transactions waiting for the connection share one COMMIT, and each is on disk before it returns', async () => {
    const bodies = Array.from({ length: 10 }, (_, i) => `n${i}`);
    const seenOnReturn = await Promise.all(
      bodies.map(async (body) => {
        await transact(db, async (trx) => {
          await insert(body)(trx);
          await Promise.resolve(); // a mutation awaits between its statements
          await insert(`${body}-b`)(trx);
        });
        return committed();
      }),
    );
    // Every transaction found its own rows on disk when it returned.
    bodies.forEach((body, i) => expect(seenOnReturn[i]).toEqual(expect.arrayContaining([body, `${body}-b`])));
    expect(committed()).toHaveLength(20);
    const stats = db.groupCommits!;
    expect(stats.members).toBe(10);
    expect(stats.groups).toBeLessThan(10); // shared commits, not one each
    expect(stats.largest).toBeGreaterThan(1);
  });

  it('one at a time, every transaction commits alone', async () => {
    for (const body of ['a', 'b', 'c']) {
      await transact(db, insert(body));
      expect(committed()).toContain(body);
    }
    expect(db.groupCommits).toMatchObject({ groups: 3, members: 3, largest: 1 });
  });

  it('a failing transaction undoes only its own work; the others of its group commit', async () => {
    await transact(db, insert('taken'));
    const results = await Promise.allSettled([
      transact(db, insert('first')),
      transact(db, async (trx) => {
        await insert('lost')(trx);
        await insert('taken')(trx); // UNIQUE: fails after a first write
      }),
      transact(db, insert('third')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committed().sort()).toEqual(['first', 'taken', 'third']);
    expect(db.groupCommits!.largest).toBeGreaterThan(1);
  });

  it('a read between members may see the group; settled() resolves once what it saw is on disk', async () => {
    const before = Array.from({ length: 4 }, (_, i) => transact(db, insert(`w${i}`)));
    const read = db.db
      .selectFrom('notes' as never)
      .selectAll()
      .execute()
      .then(async (rows) => {
        const saw = (rows as { body: string }[]).map((r) => r.body);
        await db.settled?.();
        return { saw, onDisk: committed() };
      });
    const after = Array.from({ length: 4 }, (_, i) => transact(db, insert(`v${i}`)));
    const [{ saw, onDisk }] = await Promise.all([read, ...before, ...after]);
    expect(saw).toEqual(['w0', 'w1', 'w2', 'w3']);
    expect(onDisk).toEqual(expect.arrayContaining(saw));
    expect(committed()).toHaveLength(8);
    // One group when the eight arrive within GROUP_MAX_AGE_MS; a busy machine may pass that age
    // and commit the first members apart. The read itself never commits a group: at most two.
    expect(db.groupCommits!.groups).toBeLessThanOrEqual(2);
  });

  it('a write outside a transaction commits the open group first, then itself', async () => {
    const alone = db.groupCommits!.alone; // the table's CREATE
    const members = Array.from({ length: 3 }, (_, i) => transact(db, insert(`g${i}`)));
    const autocommit = sql`INSERT INTO notes (body) VALUES ('alone')`.execute(db.db).then(() => committed());
    const [seen] = await Promise.all([autocommit, ...members]);
    expect(seen).toEqual(['g0', 'g1', 'g2', 'alone']);
    expect(db.groupCommits!.alone - alone).toBe(1);
  });

  it('a write with RETURNING outside a transaction is a write too: the group first, then itself, on disk when it answers', async () => {
    const alone = db.groupCommits!.alone;
    const members = Array.from({ length: 3 }, (_, i) => transact(db, insert(`r${i}`)));
    const returning = sql<{ id: number }>`INSERT INTO notes (body) VALUES ('returned') RETURNING id`
      .execute(db.db)
      .then((result) => ({ rows: result.rows.length, onDisk: committed() }));
    const [seen] = await Promise.all([returning, ...members]);
    expect(seen).toEqual({ rows: 1, onDisk: ['r0', 'r1', 'r2', 'returned'] });
    expect(db.groupCommits!.alone - alone).toBe(1);
  });

  it('durably() joins the open group instead of cutting it short: one COMMIT for all, each on disk when it returns', async () => {
    const alone = db.groupCommits!.alone;
    const members = Array.from({ length: 3 }, (_, i) => transact(db, insert(`d${i}`)));
    const write = durably(db, (trx) => sql`INSERT INTO notes (body) VALUES ('joined')`.execute(trx)).then(() => committed());
    const [seen] = await Promise.all([write, ...members]);
    expect(seen).toEqual(expect.arrayContaining(['d0', 'd1', 'd2', 'joined']));
    expect(db.groupCommits).toMatchObject({ groups: 1, members: 4 });
    expect(db.groupCommits!.alone).toBe(alone);
  });

  it('a COMMIT that fails fails every transaction of its group, and the next one starts clean', async () => {
    await sql`CREATE TABLE parents (id INTEGER PRIMARY KEY)`.execute(db.db);
    await sql`CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)`.execute(
      db.db,
    );
    const results = await Promise.allSettled([
      transact(db, insert('x')),
      transact(db, (trx) => sql`INSERT INTO children (parent) VALUES (42)`.execute(trx)), // checked at COMMIT
      transact(db, insert('y')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(committed()).toEqual([]);
    await transact(db, insert('after'));
    expect(committed()).toEqual(['after']);
  });

  it(`a group holds at most ${GROUP_MAX_MEMBERS} transactions`, async () => {
    await Promise.all(Array.from({ length: GROUP_MAX_MEMBERS * 3 }, (_, i) => transact(db, insert(`m${i}`))));
    expect(committed()).toHaveLength(GROUP_MAX_MEMBERS * 3);
    expect(db.groupCommits!.largest).toBeLessThanOrEqual(GROUP_MAX_MEMBERS);
    expect(db.groupCommits!.groups).toBeGreaterThanOrEqual(3);
  });

  it('gives rows as the same plain objects better-sqlite3 makes: duplicate names, a __proto__ column, IN lists of any length', async () => {
    await sql`INSERT INTO notes (body) VALUES ('a'), ('b'), ('c')`.execute(db.db);
    const texts = [
      "SELECT id, body, NULL AS empty, 1.5 AS half, x'00ff' AS bytes FROM notes ORDER BY id",
      'SELECT id, body AS id, body AS "__proto__", body AS "a b" FROM notes ORDER BY id',
      'SELECT id FROM notes WHERE id IN (1, 2) ORDER BY id',
      'SELECT id FROM notes WHERE id IN (1, 2, 3) ORDER BY id',
      'SELECT id FROM notes WHERE 0',
    ];
    for (const text of texts) {
      const expected = outside.prepare(text).all();
      for (let call = 0; call < 2; call++) {
        const { rows } = await sql.raw(text).execute(db.db);
        expect(rows).toEqual(expected);
        for (const [i, row] of rows.entries()) {
          expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
          expect(Object.keys(row as object)).toEqual(Object.keys(expected[i] as object));
        }
      }
    }
    // Streamed rows are built the same way.
    const streamed: unknown[] = [];
    for await (const row of db.db
      .selectFrom('notes' as never)
      .selectAll()
      .orderBy('id' as never)
      .stream())
      streamed.push(row);
    expect(streamed).toEqual(outside.prepare('SELECT * FROM notes ORDER BY id').all());
  });
});
