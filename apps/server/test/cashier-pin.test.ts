import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { openReadyOrder } from './terminals-helpers.ts';

/**
 * A cash close's cashier PIN (features/checkout/cashier.ts): the order's owner is checked before
 * anything of the PIN is tried, so another waiter's table, or an order that does not exist, spends
 * no guess and leaves no row. On PostgreSQL the owner's read and the attempt are one statement.
 */
describe.each(testDatabaseKinds())('the cashier’s PIN on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let waiter2: ApiClient;
  let nextTable = 610;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    waiter2 = await server.login(server.users.waiter2.email);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.ctx.db.db;
  const rows = async () => ({
    hits: Number((await db().selectFrom('throttle_hits').select(db().fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    failed: Number(
      (
        await db()
          .selectFrom('audit_log')
          .select(db().fn.countAll<number>().as('n'))
          .where('action', '=', 'pin.failed')
          .executeTakeFirstOrThrow()
      ).n,
    ),
    keys: Number((await db().selectFrom('idempotency_keys').select(db().fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
  });
  const ready = async (who: ApiClient): Promise<Order> => {
    const number = nextTable++;
    expect((await admin.post<{ table: Table }>('/api/tables', { number })).status).toBe(200);
    return openReadyOrder(server, admin, who, number);
  };
  const close = (who: ApiClient, orderId: string, pin: string) =>
    who.post<{ order?: Order; error?: { code: string; message: string } }>(
      `/api/orders/${orderId}/close`,
      { method: 'efectivo', pin, tipBps: 0, peopleCount: 1, receivedAmount: 100_000 },
      { 'idempotency-key': randomUUID() },
    );

  it('refuses another waiter’s table before the PIN: no guess spent, no audit entry, no key', async () => {
    const theirs = await ready(waiter2);
    const before = await rows();
    for (const pin of ['0000', server.users.waiter.pin]) {
      const res = await close(waiter, theirs.id, pin);
      expect(res.status).toBe(403);
      expect(res.body.error?.code).toBe('forbidden');
    }
    expect(await rows()).toEqual(before);
    // The order is untouched and still payable by its waiter.
    expect((await close(waiter2, theirs.id, server.users.waiter2.pin)).status).toBe(200);
  });

  it('answers an order that does not exist with 404, nothing tried', async () => {
    const before = await rows();
    const res = await close(waiter, randomUUID(), '0000');
    expect(res.status).toBe(404);
    expect(await rows()).toEqual(before);
  });

  it('counts a wrong PIN on the waiter’s own table once per budget, audits it, and closes nothing', async () => {
    const mine = await ready(waiter);
    const before = await rows();
    const res = await close(waiter, mine.id, '0000');
    expect(res.status).toBe(403);
    expect(res.body.error?.code).toBe('wrong_pin');
    const after = await rows();
    // Four budgets: the signed-in user, the purpose, the address and the session.
    expect(after).toEqual({ hits: before.hits + 4, failed: before.failed + 1, keys: before.keys });
    expect((await db().selectFrom('orders').select('status').where('id', '=', mine.id).executeTakeFirstOrThrow()).status).toBe('activo');
  });

  it('closes with any active user’s PIN, naming them the cashier; an admin closes a waiter’s table', async () => {
    const mine = await ready(waiter);
    const before = await rows();
    const res = await close(waiter, mine.id, server.users.admin.pin);
    expect(res.status).toBe(200);
    const payment = await db().selectFrom('payments').selectAll().where('order_id', '=', mine.id).executeTakeFirstOrThrow();
    const adminRow = await db()
      .selectFrom('users')
      .select(['id', 'display_name'])
      .where('email', '=', server.users.admin.email)
      .executeTakeFirstOrThrow();
    expect([payment.cashier_id, payment.cashier_name]).toEqual([adminRow.id, adminRow.display_name]);
    expect(await rows()).toEqual({ ...before, keys: before.keys + 1 });
    const theirs = await ready(waiter2);
    expect((await close(admin, theirs.id, server.users.waiter2.pin)).status).toBe(200);
  });
});
