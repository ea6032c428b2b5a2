import { randomUUID } from 'node:crypto';
import type { CardPayment, Order, Table } from '@comanda/contract';
import { startTestServer, type ApiClient, type TestServer } from '../src/testing/index.ts';
import type { TestDbKind } from '../src/testing/databases.ts';
import type { RunningServer } from '../src/server.ts';
import { startSimulator, type Simulator } from '../src/payments/mercadopago/simulator/server.ts';
import type { SimAction } from '../src/payments/mercadopago/simulator/store.ts';

export type Err = { error: { message: string; code: string } };

export const key = () => `k-${randomUUID()}`;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Points a server at a test-owned simulator, with polling shortened to 20 ms. */
export function cardEnv(sim: Simulator, extra: Record<string, string> = {}): Record<string, string> {
  return { MP_ACCESS_TOKEN: sim.token, MP_BASE_URL: sim.url, MP_POLL_MS: '20', ...extra };
}

export async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 8000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > until) throw new Error(`waitFor timed out; last value: ${JSON.stringify(last)}`);
    await sleep(15);
    last = await read();
  }
  return last;
}

/** The waiter opens table N, orders two products, and (unless told not to) the kitchen delivers them. */
export async function openReadyOrder(
  server: Pick<RunningServer, 'ctx'>,
  admin: ApiClient,
  waiter: ApiClient,
  number: number,
  productId?: string,
  deliver = true,
): Promise<Order> {
  const tables = (await waiter.get<{ tables: Table[] }>('/api/tables')).body.tables;
  const table = tables.find((t) => t.number === number);
  if (!table) throw new Error(`no table ${number}`);
  const opened = await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`);
  if (opened.status !== 200) throw new Error(`open table ${number}: ${opened.status} ${JSON.stringify(opened.body)}`);
  const products = await server.ctx.db.db
    .selectFrom('products')
    .select(['id'])
    .where('name', 'in', ['Tacos al pastor (3)', 'Cerveza clara'])
    .execute();
  const ids = productId ? [productId] : products.map((p) => p.id);
  let order = opened.body.order;
  for (const id of ids)
    order = (await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: id, quantity: 1 })).body.order;
  if (deliver) {
    for (const item of order.items) {
      const res = await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' });
      if (res.status !== 200) throw new Error(`deliver: ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
  return (await admin.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order;
}

/** A test server on a simulator of its own (cardEnv), with the admin and the waiter signed in. */
export interface CardServer {
  sim: Simulator;
  server: TestServer;
  admin: ApiClient;
  waiter: ApiClient;
  close(): Promise<void>;
}

export async function startCardServer(kind: TestDbKind, token: string): Promise<CardServer> {
  const sim = await startSimulator({ token });
  let server: TestServer | undefined;
  try {
    server = await startTestServer(kind, { env: cardEnv(sim) });
    const admin = await server.login(server.users.admin.email);
    const waiter = await server.login(server.users.waiter.email);
    const started = server;
    return {
      sim,
      server,
      admin,
      waiter,
      close: async () => {
        await started.close();
        await sim.close();
      },
    };
  } catch (error) {
    await server?.close();
    await sim.close();
    throw error;
  }
}

/**
 * The simulated terminal approves a card payment already sent to it; resolves with the payment
 * once the server has settled it in one of `states` (by default: approved).
 */
export async function approveOnTerminal(
  card: Pick<CardServer, 'sim' | 'server'>,
  api: ApiClient,
  paymentId: string,
  states: CardPayment['state'][] = ['approved'],
): Promise<CardPayment> {
  card.sim.store.apply(await providerIdOnceSent(card.server, paymentId), 'approve');
  return waitFor(
    async () => (await api.get<{ payment: CardPayment }>(`/api/card-payments/${paymentId}`)).body.payment,
    (p) => states.includes(p.state),
  );
}

/**
 * The attempt's id at the provider, once the server has sent it there: a new attempt is answered
 * as 'creating' and sent to the terminal right after (decision 0039).
 */
export async function providerIdOnceSent(server: Pick<RunningServer, 'ctx'>, paymentId: string): Promise<string> {
  const sent = await waitFor(
    async () =>
      (await server.ctx.db.db.selectFrom('card_payments').select('provider_id').where('id', '=', paymentId).executeTakeFirstOrThrow())
        .provider_id,
    (id) => id !== null,
  );
  return sent!;
}

/** What a card test suite holds once its beforeAll has run. */
export interface CardSuite {
  sim: Simulator;
  server: Pick<RunningServer, 'ctx'>;
  admin: ApiClient;
  /** Who reads card payments back (the admin, or the waiter who charged). */
  reader: ApiClient;
}

/**
 * The verbs card suites share, over a suite whose parts are set later (read at each call): a
 * terminal of its own per test (the provider allows one queued payment per terminal), the
 * simulated terminal's actions, a charge under an idempotency key, and reads until a state.
 */
export function cardVerbs(suite: () => CardSuite, terminalPrefix: string) {
  let terminalN = 0;
  const getPayment = async (id: string) => (await suite().reader.get<{ payment: CardPayment }>(`/api/card-payments/${id}`)).body.payment;
  return {
    newTerminal: () => suite().sim.store.addTerminal(`PAX_A910__${terminalPrefix}${++terminalN}`).id,
    act: (providerId: string, ...actions: SimAction[]) => actions.forEach((a) => suite().sim.store.apply(providerId, a)),
    pay: (api: ApiClient, body: Record<string, unknown>, idem = key()) =>
      api.post<{ payment: CardPayment } & Err>('/api/card-payments', body, { 'idempotency-key': idem }),
    getPayment,
    untilState: (id: string, ...states: CardPayment['state'][]) =>
      waitFor(
        () => getPayment(id),
        (p) => states.includes(p.state),
      ),
    getOrder: async (id: string) => (await suite().admin.get<{ order: Order }>(`/api/orders/${id}`)).body.order,
    providerIdOf: (paymentId: string) => providerIdOnceSent(suite().server, paymentId),
  };
}
