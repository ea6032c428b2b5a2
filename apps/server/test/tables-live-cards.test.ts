import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchTablesFromEvent, type LiveEvent, type LiveEventOf, type Order, type Table } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { openReadyOrder } from './terminals-helpers.ts';

type Who = 'admin' | 'waiter' | 'waiter2';

/**
 * A table-level event carries the table's public state, and a waiter who is not involved patches
 * their list from it to exactly what GET /api/tables would answer them: no read needed. The waiter
 * whose work it is, and the admin, are told to read again.
 */
describe.each(testDatabaseKinds())('tables: live cards on %s', (kind) => {
  let server: TestServer;
  const api = {} as Record<Who, ApiClient>;
  let ids: Map<number, string>;

  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const who of ['admin', 'waiter', 'waiter2'] as const) api[who] = await server.login(server.users[who].email);
    ids = new Map((await api.admin.get<{ tables: Table[] }>('/api/tables')).body.tables.map((t) => [t.number, t.id]));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const list = async (who: Who) => (await api[who].get<{ tables: Table[] }>('/api/tables')).body.tables;
  const me = (who: Who) => ({ id: server.users[who].id, role: who === 'admin' ? 'admin' : 'waiter' });

  /**
   * Runs `action`, then replays the 'tables' events it published on each viewer's list from before:
   * a viewer who patched every event must hold exactly their list from after.
   */
  async function expectPatched(action: () => Promise<unknown>, expected: { patches: Who[]; reads: Who[] }) {
    const before = { admin: await list('admin'), waiter: await list('waiter'), waiter2: await list('waiter2') };
    const events: LiveEvent[] = [];
    const off = server.ctx.live.onEvent((e) => void (e.topic === 'tables' && events.push(e)));
    await action();
    off();
    if (process.env.DEBUG_CARDS) console.log(JSON.stringify(events));
    const tableLevel = events.filter((e) => e.type !== 'card-payment.review') as LiveEventOf<'tables'>[];
    expect(tableLevel.length).toBeGreaterThan(0);
    for (const who of [...expected.patches, ...expected.reads]) {
      let cached: Table[] | null = before[who];
      // The hub hands an order's own events (those with an owner) only to its waiter and admins: a
      // bystander never hears them, so they are replayed only for the ones who would.
      for (const e of tableLevel) {
        if (cached === null) break;
        const heard = e.table !== undefined || e.type === 'table.deleted' || who !== 'waiter2';
        if (heard) cached = patchTablesFromEvent(cached, e, me(who));
      }
      if (expected.patches.includes(who)) expect(cached, who).toEqual(await list(who));
      else expect(cached, who).toBeNull();
    }
    return tableLevel;
  }

  it('a table opened by one waiter: the other patches it to occupied, the opener and the admin read again', async () => {
    let order: Order | undefined;
    const events = await expectPatched(
      async () => (order = (await api.waiter.post<{ order: Order }>(`/api/tables/${ids.get(1)}/open`)).body.order),
      { patches: ['waiter2'], reads: ['waiter', 'admin'] },
    );
    const card = events.find((e) => e.table)?.table;
    expect(card).toMatchObject({
      id: ids.get(1),
      number: 1,
      status: 'ocupada',
      waiterId: server.users.waiter.id,
      orderWaiters: [server.users.waiter.id],
    });
    // An order's own event (for its waiter's card) carries no public card.
    expect(events.filter((e) => e.id === order!.id).every((e) => e.table === undefined)).toBe(true);
  });

  it('a transfer to another table and a cancel that frees it: the other waiter patches both tables', async () => {
    const order = (await api.waiter.post<{ order: Order }>(`/api/tables/${ids.get(2)}/open`)).body.order;
    await expectPatched(() => api.waiter.post(`/api/orders/${order.id}/transfer`, { tableId: ids.get(3) }), {
      patches: ['waiter2'],
      reads: ['waiter'],
    });
    const events = await expectPatched(() => api.waiter.post(`/api/orders/${order.id}/cancel`, {}), {
      patches: ['waiter2'],
      reads: ['waiter'],
    });
    expect(events.find((e) => e.table)?.table).toMatchObject({ id: ids.get(3), status: 'libre', waiterId: null, orderWaiters: [] });
  });

  it("a tab at the bar: a waiter with a tab of their own there patches another waiter's tab, and reads again for their own or the bar they hold", async () => {
    const bar = ids.get(0)!;
    await expectPatched(() => api.waiter.post(`/api/tables/${bar}/tabs`, { name: 'Cuenta de Ana' }), {
      patches: ['waiter2'],
      reads: ['waiter'],
    });
    // The first tab linked the bar to its waiter: the bar's card is theirs, read again.
    await expectPatched(() => api.waiter2.post(`/api/tables/${bar}/tabs`, { name: 'Cuenta de Beto' }), {
      patches: [],
      reads: ['waiter', 'waiter2'],
    });
    // Another waiter's tab opened, then cancelled: Beto's own tab at the bar is untouched, kept as held.
    let carla = '';
    const opened = await expectPatched(
      async () => (carla = (await api.waiter.post<{ order: Order }>(`/api/tables/${bar}/tabs`, { name: 'Cuenta de Carla' })).body.order.id),
      { patches: ['waiter2'], reads: ['waiter'] },
    );
    expect(opened.find((e) => e.table)?.table).toMatchObject({ id: bar, changedOrdersOf: server.users.waiter.id });
    await expectPatched(() => api.waiter.post(`/api/orders/${carla}/cancel`, {}), { patches: ['waiter2'], reads: ['waiter'] });
  });

  it('a table added and removed by the admin: every waiter patches the list', async () => {
    let id = '';
    await expectPatched(async () => (id = (await api.admin.post<{ table: Table }>('/api/tables', { number: 40 })).body.table.id), {
      patches: ['waiter', 'waiter2'],
      reads: ['admin'],
    });
    await expectPatched(() => api.admin.delete(`/api/tables/${id}`), { patches: ['waiter', 'waiter2'], reads: ['admin'] });
  });

  it('a check paid while another stays open hands the table over, the last one paid frees it: the other waiter patches both closes', async () => {
    const order = await openReadyOrder(server, api.admin, api.waiter, 7);
    const beer = order.items.find((i) => i.productName === 'Cerveza clara')!;
    const split = await api.waiter.post<{ orders: Order[] }>(`/api/orders/${order.id}/checks`, {
      checks: [{ lines: [{ itemId: beer.id, quantity: 1 }] }],
    });
    expect(split.status, JSON.stringify(split.body)).toBe(200);
    const [first, second] = split.body.orders;
    const close = async (id: string) => {
      const res = await api.waiter.post(
        `/api/orders/${id}/close`,
        { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 0, peopleCount: 1, receivedAmount: 100_000 },
        { 'idempotency-key': crypto.randomUUID() },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    // The table links the first check: paying it hands the table to the second, still ocupada.
    const handed = await expectPatched(() => close(first!.id), { patches: ['waiter2'], reads: ['waiter', 'admin'] });
    expect(handed.find((e) => e.table)?.table).toMatchObject({
      id: ids.get(7),
      status: 'ocupada',
      waiterId: server.users.waiter.id,
      orderWaiters: [server.users.waiter.id],
      changedOrdersOf: server.users.waiter.id,
    });
    const freed = await expectPatched(() => close(second!.id), { patches: ['waiter2'], reads: ['waiter', 'admin'] });
    expect(freed.find((e) => e.table)?.table).toMatchObject({ id: ids.get(7), status: 'libre', waiterId: null, orderWaiters: [] });
  });
});
