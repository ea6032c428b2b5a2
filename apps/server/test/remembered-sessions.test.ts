import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { startTestServer, statementsDuring, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { openReadyOrder } from './terminals-helpers.ts';
import { sessionChanges, sessionHashOf } from './sessions-changed.ts';

const onPostgres = testDatabaseKinds().includes('postgres');
const kinds = ['postgres'] as const;

/**
 * On PostgreSQL the cash close and a board's move take a session this process resolved lately
 * without reading it: their first statement checks it (comanda_session_ok), and a session that no
 * longer holds is read again before anything else is done, so it is refused as any request would be.
 */
describe.skipIf(!onPostgres).each(kinds)('a remembered session checked by the cash close and the board move on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let now = Date.UTC(2026, 11, 4, 21, 0);
  const clock = { now: () => now };
  let nextTable = 860;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
    admin = await server.login(server.users.admin.email);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.ctx.db.db;
  const hashOf = sessionHashOf;
  /** A waiter signed in afresh, with a ready order of their own (its items delivered). */
  const waiterWithReadyOrder = async () => {
    const waiter = await server.login(server.users.waiter.email);
    const number = nextTable++;
    await admin.post<{ table: Table }>('/api/tables', { number });
    return { waiter, order: await openReadyOrder(server, admin, waiter, number) };
  };
  const close = (api: ApiClient, order: Order) =>
    api.post<{ order: Order; error?: { code: string } }>(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 1000, peopleCount: 2, receivedAmount: 100_000 },
      { 'idempotency-key': randomUUID() },
    );
  /** What a close leaves: the order's status and payments, and the keys of the whole database. */
  const left = async (orderId: string) => ({
    status: (await db().selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status,
    payments: (await db().selectFrom('payments').select('id').where('order_id', '=', orderId).execute()).length,
    keys: Number((await db().selectFrom('idempotency_keys').select(db().fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
  });

  it('does not read a session this process resolved lately: the PIN’s statement checks it, and marks it seen', async () => {
    const { waiter, order } = await waiterWithReadyOrder();
    now += 2 * 60_000; // past the once-a-minute touch
    const seen = await statementsDuring(server.ctx.db, async () => expect((await close(waiter, order)).status).toBe(200));
    expect(seen.filter((s) => /from "sessions"/.test(s))).toEqual([]);
    expect(seen.filter((s) => /comanda_session_ok\(/.test(s))).toHaveLength(1);
    const row = await db().selectFrom('sessions').select('last_seen_at').where('token_hash', '=', hashOf(waiter)).executeTakeFirstOrThrow();
    expect(Number(row.last_seen_at)).toBe(now);
    expect(await left(order.id)).toMatchObject({ status: 'pagado', payments: 1 });
  });

  it('refuses, and writes nothing, when another process ended the session or changed its user', async () => {
    const cases = sessionChanges(db, { id: server.users.waiter.id, role: 'waiter' }, { role: 'kitchen', name: 'a cook' });
    for (const [name, change, status, undo] of cases) {
      const { waiter, order } = await waiterWithReadyOrder();
      const before = await left(order.id);
      const attempts = await db().selectFrom('throttle_hits').selectAll().execute();
      await change(waiter);
      const res = await close(waiter, order);
      await undo();
      expect(res.status, name).toBe(status);
      expect(await left(order.id), name).toEqual(before);
      expect(await db().selectFrom('throttle_hits').selectAll().execute(), name).toEqual(attempts);
      // The same waiter signed in again closes it.
      expect((await close(await server.login(server.users.waiter.email), order)).status, name).toBe(200);
    }
  });

  it('refuses a session idle past its limit, and closes under a renamed user with the new name', async () => {
    const idle = await waiterWithReadyOrder();
    now += 12 * 60 * 60_000 + 1;
    expect((await close(idle.waiter, idle.order)).status).toBe(401);
    expect(await left(idle.order.id)).toMatchObject({ status: 'activo', payments: 0 });

    admin = await server.login(server.users.admin.email); // idle as long: signed in again
    const { waiter, order } = await waiterWithReadyOrder();
    const name = (await db().selectFrom('users').select('display_name').where('id', '=', server.users.waiter.id).executeTakeFirstOrThrow())
      .display_name;
    await db().updateTable('users').set({ display_name: 'Mesero Renombrado' }).where('id', '=', server.users.waiter.id).execute();
    try {
      expect((await close(waiter, order)).status).toBe(200);
      const entry = await db()
        .selectFrom('audit_log')
        .select('actor_name')
        .where('entity_id', '=', order.id)
        .where('action', '=', 'order.closed')
        .executeTakeFirstOrThrow();
      expect(entry.actor_name).toBe('Mesero Renombrado');
    } finally {
      await db().updateTable('users').set({ display_name: name }).where('id', '=', server.users.waiter.id).execute();
    }
  });

  /** A line of a fresh waiter's open order, and the bar's device signed in afresh. */
  const barWithLine = async () => {
    const { waiter } = await waiterWithReadyOrder();
    const number = nextTable++;
    await admin.post<{ table: Table }>('/api/tables', { number });
    const order = await openReadyOrder(server, admin, waiter, number, undefined, false);
    const line = order.items.find((i) => i.station === 'barra')!;
    return { barra: await server.login(server.users.barra.email), order, line };
  };
  const move = (api: ApiClient, order: Order, lineId: string, status: string) =>
    api.patch(`/api/orders/${order.id}/items/${lineId}/status`, { status }, { 'idempotency-key': randomUUID() });
  const statusOf = async (lineId: string) =>
    (await db().selectFrom('order_items').select('status').where('id', '=', lineId).executeTakeFirstOrThrow()).status;

  it('a board move checks a remembered session in its first read, and refuses, writing nothing, one that no longer holds', async () => {
    const { barra, order, line } = await barWithLine();
    expect((await move(barra, order, line.id, 'en_preparacion')).status).toBe(200);
    const seen = await statementsDuring(server.ctx.db, async () => expect((await move(barra, order, line.id, 'listo')).status).toBe(200));
    expect(seen.filter((s) => /from "sessions"/.test(s))).toEqual([]);
    expect(seen.filter((s) => /comanda_session_ok\(/.test(s))).toHaveLength(1);

    const cases = sessionChanges(db, { id: server.users.barra.id, role: 'barra' }, { role: 'waiter', name: 'a waiter' }, false);
    for (const [name, change, status, undo] of cases) {
      const fresh = await server.login(server.users.barra.email);
      expect((await move(fresh, order, line.id, 'en_preparacion')).status, name).toBe(200);
      const keys = (await left(order.id)).keys;
      await change(fresh);
      const res = await move(fresh, order, line.id, 'listo');
      await undo();
      expect(res.status, name).toBe(status);
      expect(await statusOf(line.id), name).toBe('en_preparacion');
      expect((await left(order.id)).keys, name).toBe(keys);
    }
  });

  it('a board move under a renamed user is audited with the new name; the same key again answers once', async () => {
    const { barra, order, line } = await barWithLine();
    expect((await move(barra, order, line.id, 'en_preparacion')).status).toBe(200);
    const name = (await db().selectFrom('users').select('display_name').where('id', '=', server.users.barra.id).executeTakeFirstOrThrow())
      .display_name;
    await db().updateTable('users').set({ display_name: 'Barra Renombrada' }).where('id', '=', server.users.barra.id).execute();
    try {
      const key = randomUUID();
      const first = await barra.patch(`/api/orders/${order.id}/items/${line.id}/status`, { status: 'listo' }, { 'idempotency-key': key });
      const again = await barra.patch(`/api/orders/${order.id}/items/${line.id}/status`, { status: 'listo' }, { 'idempotency-key': key });
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.body).toEqual(first.body);
      const entries = await db()
        .selectFrom('audit_log')
        .select('actor_name')
        .where('entity_id', '=', line.id)
        .where('action', '=', 'item.status_changed')
        .where('actor_name', '=', 'Barra Renombrada')
        .execute();
      expect(entries).toHaveLength(1);
    } finally {
      await db().updateTable('users').set({ display_name: name }).where('id', '=', server.users.barra.id).execute();
    }
  });

  it('the phones’ table list refuses a remembered session that no longer holds, and lists again for one signed in afresh', async () => {
    const waiter = await server.login(server.users.waiter.email);
    expect((await waiter.get('/api/tables')).status).toBe(200);
    await db().deleteFrom('sessions').where('token_hash', '=', hashOf(waiter)).execute();
    expect((await waiter.get('/api/tables')).status).toBe(401);
    const cook = await server.login(server.users.waiter.email);
    expect((await cook.get('/api/tables')).status).toBe(200); // remembered
    await db().updateTable('users').set({ role: 'kitchen' }).where('id', '=', server.users.waiter.id).execute();
    try {
      expect((await cook.get('/api/tables')).status).toBe(403);
    } finally {
      await db().updateTable('users').set({ role: 'waiter' }).where('id', '=', server.users.waiter.id).execute();
    }
    const again = await server.login(server.users.waiter.email);
    expect((await again.get<{ tables: Table[] }>('/api/tables')).body.tables.length).toBeGreaterThan(0);
  });
});
