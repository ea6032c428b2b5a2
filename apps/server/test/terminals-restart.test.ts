import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardPayment, Order } from '@comanda/contract';
import { createServer, type RunningServer } from '../src/server.ts';
import { seedDemo } from '../src/seed/seed.ts';
import {
  createTestDatabase,
  testDatabaseKinds,
  DEMO_USERS,
  listenOnLoopback,
  loginAt,
  testServerConfig,
  type TestDatabase,
} from '../src/testing/index.ts';
import { startSimulator, type Simulator } from '../src/payments/mercadopago/simulator/server.ts';
import { cardEnv, key, openReadyOrder, providerIdOnceSent, waitFor, type Err } from './terminals-helpers.ts';

const ADMIN = DEMO_USERS[0]!.email;
const WAITER = DEMO_USERS[1]!.email;

describe.each(testDatabaseKinds())('card payment sessions across a restart on %s', (kind) => {
  let sim: Simulator;
  let database: TestDatabase;
  let server: RunningServer | null = null;

  /** A server on the same database file each time, like a process restart. */
  async function start(env: Record<string, string> = {}): Promise<{ server: RunningServer; url: string }> {
    const config = testServerConfig(database, { ...cardEnv(sim), ...env });
    const s = await createServer({ config, log: () => undefined });
    const url = await listenOnLoopback(s);
    server = s;
    return { server: s, url };
  }

  beforeAll(async () => {
    sim = await startSimulator({ token: 'TEST-restart-token', terminals: ['PAX_A910__RESTART1', 'PAX_A910__RESTART2'] });
    database = await createTestDatabase(kind);
    const first = await start();
    await seedDemo(first.server.ctx);
    await first.server.close();
  });
  afterAll(async () => {
    await server?.close().catch(() => undefined);
    await database?.drop();
    await sim?.close();
  });

  it('a payment approved while the server was down closes the order when it starts again', async () => {
    const a = await start();
    const admin = await loginAt(a.url, ADMIN);
    const waiter = await loginAt(a.url, WAITER);
    const order = await openReadyOrder(a.server, admin, waiter, 1);
    const res = await waiter.post<{ payment: CardPayment }>(
      '/api/card-payments',
      { orderId: order.id, terminalId: 'PAX_A910__RESTART1', method: 'tarjeta', tipBps: 1500, peopleCount: 3 },
      { 'idempotency-key': key() },
    );
    expect(res.body.payment.state).toBe('creating');
    await providerIdOnceSent(a.server, res.body.payment.id);
    const row = await a.server.ctx.db.db
      .selectFrom('card_payments')
      .selectAll()
      .where('id', '=', res.body.payment.id)
      .executeTakeFirstOrThrow();
    await a.server.close();

    sim.store.apply(row.provider_id!, 'tap');
    sim.store.apply(row.provider_id!, 'approve');

    const b = await start();
    const waiterB = await loginAt(b.url, WAITER);
    const done = await waitFor(
      async () => (await waiterB.get<{ payment: CardPayment }>(`/api/card-payments/${res.body.payment.id}`)).body.payment,
      (p) => p.state === 'approved',
    );
    expect(done.dialogState).toBe('success');
    const paid = (await waiterB.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order;
    expect(paid).toMatchObject({ status: 'pagado', peopleCount: 3 });
    expect(paid.payments).toHaveLength(1);
    expect(paid.payments[0]?.cashierId).toBe('mp-terminal');
    await b.server.close();
  });

  it('a create the provider did not answer is retried after a restart with the same key: one payment', async () => {
    // Slow polling on the first run so the retry does not happen before the restart.
    const a = await start({ MP_POLL_MS: '60000' });
    const admin = await loginAt(a.url, ADMIN);
    const waiter = await loginAt(a.url, WAITER);
    const order = await openReadyOrder(a.server, admin, waiter, 2);
    sim.control.addFault({ status: 503, count: 1, path: '/point/integration-api/devices' });
    const res = await waiter.post<{ payment: CardPayment } & Err>(
      '/api/card-payments',
      { orderId: order.id, terminalId: 'PAX_A910__RESTART2', method: 'tarjeta', tipBps: 0, peopleCount: 1 },
      { 'idempotency-key': key() },
    );
    expect(res.body.payment).toMatchObject({ state: 'creating', dialogState: 'sending' });
    await a.server.close();

    const b = await start();
    const waiterB = await loginAt(b.url, WAITER);
    await waitFor(
      async () => (await waiterB.get<{ payment: CardPayment }>(`/api/card-payments/${res.body.payment.id}`)).body.payment,
      (p) => p.state === 'pending',
    );
    const atProvider = [...sim.store.payments.values()].filter((p) => p.externalReference === res.body.payment.id);
    expect(atProvider).toHaveLength(1);
    sim.store.apply(atProvider[0]!.id, 'approve');
    await waitFor(
      async () => (await waiterB.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order,
      (o) => o.status === 'pagado',
    );
    await b.server.close();
  });
});
