import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/databases.ts';
import { preparedNames, preparingPool } from './pg-prepared.ts';

describe('prepared statement names', () => {
  it('names a text on its second use, and the same name every time after', () => {
    const names = preparedNames();
    expect(names.nameFor('select $1')).toBeUndefined();
    const name = names.nameFor('select $1');
    expect(name).toMatch(/^comanda_/);
    expect(names.nameFor('select $1')).toBe(name);
    expect(names.nameFor('select $2')).toBeUndefined();
    expect(names.nameFor('select $2')).not.toBe(name);
    expect(names.named).toBe(2);
  });

  it('stops naming at its limit, and stops watching new texts past its watch size', () => {
    const names = preparedNames(2, 3);
    for (const text of ['a', 'b', 'c']) names.nameFor(text);
    expect(names.nameFor('d')).toBeUndefined(); // watched set full: d is not remembered
    expect(names.nameFor('d')).toBeUndefined();
    expect(names.nameFor('a')).toBeDefined();
    expect(names.nameFor('b')).toBeDefined();
    expect(names.nameFor('c')).toBeUndefined(); // two names given: the limit
    expect(names.named).toBe(2);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('named statements on PostgreSQL', () => {
  let database: TestDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // One connection, so that pg_prepared_statements (per session) shows what this client prepared.
    pool = new pg.Pool({ connectionString: database.url, max: 1 });
    await pool.query(`CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)`);
    await pool.query(`INSERT INTO notes SELECT g, 'nota ' || g FROM generate_series(1, 20) g`);
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  const prepared = async (client: { query: (sql: string, values: unknown[]) => Promise<{ rows: unknown[] }> }) =>
    (await client.query('select name, statement from pg_prepared_statements order by name', [])).rows as {
      name: string;
      statement: string;
    }[];

  it('runs a repeated parameterised query as one named statement on the connection, with the same rows', async () => {
    const names = preparedNames();
    const preparing = preparingPool(pool, names);
    const client = await preparing.connect();
    try {
      const text = 'select id, body from notes where id = $1 or id = $2 order by id';
      const answers = [];
      for (const [a, b] of [
        [1, 2],
        [3, 4],
        [5, 20],
      ])
        answers.push((await client.query(text, [a, b])).rows);
      expect(answers).toEqual([
        [
          { id: 1, body: 'nota 1' },
          { id: 2, body: 'nota 2' },
        ],
        [
          { id: 3, body: 'nota 3' },
          { id: 4, body: 'nota 4' },
        ],
        [
          { id: 5, body: 'nota 5' },
          { id: 20, body: 'nota 20' },
        ],
      ]);
      const statements = await prepared(client);
      // The first use went unnamed; the second prepared it once; the third reused it.
      expect(statements).toEqual([{ name: names.nameFor(text), statement: text }]);
      // Statements without parameters (BEGIN, COMMIT, this catalogue read) are never named.
      await client.query('select count(*)::int as n from notes', []);
      await client.query('select count(*)::int as n from notes', []);
      expect(await prepared(client)).toHaveLength(1);
    } finally {
      client.release();
    }
  });

  it('keeps an error on a named statement to that query: the next one on the connection works', async () => {
    const preparing = preparingPool(pool, preparedNames());
    const client = await preparing.connect();
    try {
      const insert = 'insert into notes (id, body) values ($1, $2)';
      await client.query(insert, [100, 'uno']);
      await client.query(insert, [101, 'dos']);
      await expect(client.query(insert, [100, 'repetida'])).rejects.toThrow(/duplicate key/);
      await client.query(insert, [102, 'tres']);
      expect((await client.query('select body from notes where id >= $1 order by id', [100])).rows).toEqual([
        { body: 'uno' },
        { body: 'dos' },
        { body: 'tres' },
      ]);
    } finally {
      client.release();
    }
  });

  it('closes a connection whose prepared statement outlived a change to its table, and the next connection works', async () => {
    const preparing = preparingPool(pool, preparedNames());
    const text = 'select * from notes where id = $1';
    const first = await preparing.connect();
    const pid = (await first.query('select pg_backend_pid() as pid', [])).rows[0];
    await first.query(text, [1]);
    expect((await first.query(text, [1])).rows).toEqual([{ id: 1, body: 'nota 1' }]);
    // Another process migrates: the table gains a column under the prepared `select *`.
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    await other.query('alter table notes add column price int not null default 0');
    await other.end();
    await expect(first.query(text, [2])).rejects.toThrow(/cached plan must not change result type/);
    first.release();
    const second = await preparing.connect();
    try {
      expect((await second.query('select pg_backend_pid() as pid', [])).rows[0]).not.toEqual(pid);
      await second.query(text, [2]);
      expect((await second.query(text, [2])).rows).toEqual([{ id: 2, body: 'nota 2', price: 0 }]);
    } finally {
      second.release();
    }
  });
});
