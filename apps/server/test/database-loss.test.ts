import { createServer as createTcpServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { connect, type Db } from '../src/db/connect.ts';
import { connectionLost } from '../src/db/unavailable.ts';
import { transact } from '../src/db/transact.ts';
import { MESSAGES } from '../src/http/messages.ts';
import { createTestDatabase, freePort, startTestServer, type ApiClient, type TestDatabase, type TestServer } from '../src/testing/index.ts';

/**
 * A PostgreSQL connection lost under a request (a restart, a backend terminated, a network cut)
 * answers 503 "Servicio no disponible", never 500 "error inesperado", and the server recovers by
 * itself. Every error below is the real one the driver raises; only this suite's own database has
 * its backends terminated (other suites share the PostgreSQL server).
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** What `work` rejects with (or an Error saying it did not). */
const failure = (work: Promise<unknown>): Promise<unknown> =>
  work.then(
    () => new Error('no error'),
    (error: unknown) => error,
  );
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ends every other backend of the database `client` is connected to (and only that database). */
async function terminateOthers(client: pg.Client): Promise<number> {
  const res = await client.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  return res.rowCount ?? 0;
}

/** A TCP relay to PostgreSQL whose connections the test can cut, gracefully (FIN) or by reset (RST). */
async function relayTo(url: string): Promise<{ url: string; cut(how: 'end' | 'reset'): void; close(): Promise<void> }> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  const server: Server = createTcpServer((inbound) => {
    const outbound = tcpConnect(Number(target.port || 5432), target.hostname);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(port);
  return {
    url: relayed.toString(),
    cut(how) {
      for (const s of sockets) {
        if (how === 'reset') s.resetAndDestroy();
        else s.end();
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!onPostgres)('the errors of a lost PostgreSQL connection, as the driver raises them', () => {
  let database: TestDatabase;
  let db: Db;
  let killer: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    db = connect(database.url);
    killer = new pg.Client({ connectionString: database.url });
    await killer.connect();
  });
  afterAll(async () => {
    await killer?.end();
    await db?.close();
    await database?.drop();
  });

  it('a terminated backend (57P01), then the same client asked again ("not queryable")', async () => {
    const client = new pg.Client({ connectionString: database.url });
    client.on('error', () => undefined);
    await client.connect();
    const ended = new Promise((resolve) => client.once('end', resolve));
    const waiting = failure(client.query('select pg_sleep(5)'));
    await pause(200);
    await terminateOthers(killer);
    const terminated = (await waiting) as pg.DatabaseError;
    expect(terminated).toBeInstanceOf(pg.DatabaseError);
    expect(terminated.code).toBe('57P01');
    expect(connectionLost(terminated)).toBe(true);
    await ended; // the socket is closed: the client now refuses before sending anything
    const again = (await failure(client.query('select 1'))) as Error;
    expect(again.message).toBe('Client has encountered a connection error and is not queryable');
    expect(connectionLost(again)).toBe(true);
    const closed = new pg.Client({ connectionString: database.url });
    await closed.connect();
    await closed.end();
    const afterEnd = (await failure(closed.query('select 1'))) as Error;
    expect(afterEnd.message).toBe('Client was closed and is not queryable');
    expect(connectionLost(afterEnd)).toBe(true);
  });

  it('a transaction whose backend is terminated midway: the error Kysely gives back after its failed ROLLBACK', async () => {
    // The test waits for the transaction to be inside, and the transaction for the test to have
    // terminated its backend: no timing, whatever the machine's load.
    let inside!: () => void;
    let terminated!: () => void;
    const started = new Promise<void>((resolve) => (inside = resolve));
    const killed = new Promise<void>((resolve) => (terminated = resolve));
    const inTransaction = failure(
      transact(db, async (trx) => {
        await sql`select pg_sleep(0.01)`.execute(trx);
        inside();
        await killed;
        // Terminated here, between two statements of the transaction.
        await sql`select 1`.execute(trx);
      }),
    );
    await started;
    await terminateOthers(killer);
    terminated();
    const error = (await inTransaction) as Error;
    expect(connectionLost(error)).toBe(true);
    // The pool hands out a working connection afterwards.
    expect((await sql<{ n: number }>`select 1 as n`.execute(db.db)).rows[0]!.n).toBe(1);
  });

  it('a connection cut under a query: closed ("Connection terminated unexpectedly") or reset (ECONNRESET)', async () => {
    const relay = await relayTo(database.url);
    try {
      for (const how of ['end', 'reset'] as const) {
        const client = new pg.Client({ connectionString: relay.url });
        client.on('error', () => undefined);
        await client.connect();
        const waiting = failure(client.query('select pg_sleep(5)'));
        await pause(150);
        relay.cut(how);
        const error = (await waiting) as Error & { code?: string };
        if (how === 'end') expect(error.message).toBe('Connection terminated unexpectedly');
        else expect(error.code ?? error.message).toMatch(/ECONNRESET|Connection terminated unexpectedly/);
        expect(connectionLost(error)).toBe(true);
        await client.end().catch(() => undefined);
      }
    } finally {
      await relay.close();
    }
  });

  it('no connection to be had: refused (ECONNREFUSED), no answer in time, the pool waiting too long', async () => {
    const port = await freePort();
    const refused = await failure(new pg.Client({ host: '127.0.0.1', port, user: 'x', database: 'x' }).connect());
    expect((refused as { code?: string }).code).toBe('ECONNREFUSED');
    expect(connectionLost(refused)).toBe(true);

    // A server that accepts the socket and never answers.
    const silent = createTcpServer(() => undefined);
    const silentPort = await freePort();
    await new Promise<void>((resolve) => silent.listen(silentPort, '127.0.0.1', resolve));
    try {
      const client = new pg.Client({ host: '127.0.0.1', port: silentPort, user: 'x', database: 'x', connectionTimeoutMillis: 300 });
      client.on('error', () => undefined);
      const timedOut = (await failure(client.connect())) as Error;
      expect(timedOut.message).toBe('timeout expired');
      expect(connectionLost(timedOut)).toBe(true);
    } finally {
      silent.close();
    }

    const pool = new pg.Pool({ connectionString: database.url, max: 1, connectionTimeoutMillis: 300 });
    const held = await pool.connect();
    try {
      const waited = (await failure(pool.connect())) as Error;
      expect(waited.message).toBe('timeout exceeded when trying to connect');
      expect(connectionLost(waited)).toBe(true);
    } finally {
      held.release();
      await pool.end();
    }
    const ended = (await failure(pool.query('select 1'))) as Error;
    expect(ended.message).toBe('Cannot use a pool after calling end on the pool');
    expect(connectionLost(ended)).toBe(true);
  });

  it('errors of the statement itself are not a lost connection', async () => {
    const byZero = await failure(sql`select 1 / 0`.execute(db.db));
    expect((byZero as { code?: string }).code).toBe('22012');
    expect(connectionLost(byZero)).toBe(false);
    const missing = await failure(sql`select * from no_such_table`.execute(db.db));
    expect((missing as { code?: string }).code).toBe('42P01');
    expect(connectionLost(missing)).toBe(false);
    await sql`create table twice (id int primary key)`.execute(db.db);
    await sql`insert into twice values (1)`.execute(db.db);
    const duplicate = await failure(sql`insert into twice values (1)`.execute(db.db));
    expect((duplicate as { code?: string }).code).toBe('23505');
    expect(connectionLost(duplicate)).toBe(false);
  });
});

describe.skipIf(!onPostgres)("the server while its database's backends are terminated under load (PostgreSQL)", () => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let killer: pg.Client;
  const orders: Order[] = [];
  let productId = '';

  beforeAll(async () => {
    server = await startTestServer('postgres');
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    killer = new pg.Client({ connectionString: server.ctx.db.url });
    await killer.connect();
    productId = (await server.ctx.db.db.selectFrom('products').select('id').where('available', '=', 1).executeTakeFirstOrThrow()).id;
    for (let n = 0; n < 4; n++) {
      const table = (await admin.post<{ table: Table }>('/api/tables', { number: 800 + n })).body.table;
      orders.push((await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`)).body.order);
    }
  }, 60_000);
  afterAll(async () => {
    await killer?.end();
    await server?.close();
  });

  it('every answer is 2xx or 503 "Servicio no disponible", never 500; then every request succeeds again', async () => {
    const answers: { status: number; body: unknown }[] = [];
    let running = true;
    let n = 0;
    const requests = [
      () => waiter.get('/api/tables'),
      () => waiter.post(`/api/orders/${orders[n % orders.length]!.id}/items`, { productId, quantity: 1 }),
      () => admin.post('/api/products', { name: `Platillo ${n}`, price: 5_000 + n, category: 'Comida' }),
      () => waiter.get(`/api/orders/${orders[n % orders.length]!.id}`),
    ];
    const worker = async (w: number) => {
      while (running) {
        n++;
        answers.push(await requests[(n + w) % requests.length]!());
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    let terminated = 0;
    for (let round = 0; round < 6; round++) {
      await pause(300);
      terminated += await terminateOthers(killer);
    }
    await pause(300);
    running = false;
    await Promise.all(workers);

    expect(terminated).toBeGreaterThan(0);
    const unavailable = answers.filter((a) => a.status === 503);
    const others = answers.filter((a) => a.status >= 300 && a.status !== 503);
    expect(others).toEqual([]);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const a of unavailable) expect(a.body).toEqual({ error: { code: 'unavailable', message: MESSAGES.http.unavailable } });

    // Recovered: the pool replaced its connections; every request of each kind succeeds.
    await pause(200);
    for (let i = 0; i < 20; i++) {
      n++;
      const res = await requests[i % requests.length]!();
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    }
    const health = await server.anonymous().get<{ ok: boolean; databaseReachable: boolean }>('/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ ok: true, databaseReachable: true });
  }, 60_000);
});
