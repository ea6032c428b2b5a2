import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';

type Err = { error: { code: string; message: string } };
type Who = 'anonymous' | 'admin' | 'waiter' | 'waiter2' | 'kitchen' | 'barra';
const OPEN_FAILED = 'No se pudo abrir la mesa. Intenta de nuevo.';

describe.each(testDatabaseKinds())('tables on %s', (kind) => {
  let server: TestServer;
  const api = {} as Record<Who, ApiClient>;
  let ids: Map<number, string>;

  beforeAll(async () => {
    server = await startTestServer(kind);
    api.anonymous = server.anonymous();
    for (const who of ['admin', 'waiter', 'waiter2', 'kitchen', 'barra'] as const) api[who] = await server.login(server.users[who].email);
    ids = new Map((await api.admin.get<{ tables: Table[] }>('/api/tables')).body.tables.map((t) => [t.number, t.id]));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const list = async (who: Who) => (await api[who].get<{ tables: Table[] }>('/api/tables')).body.tables;
  const open = (who: Who, number: number) => api[who].post<{ order: Order } & Err>(`/api/tables/${ids.get(number)}/open`);
  const product = async (name: string) =>
    server.ctx.db.db.selectFrom('products').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
  const count = async (table: 'orders' | 'tables' | 'audit_log' | 'order_items') =>
    Number((await server.ctx.db.db.selectFrom(table).select(server.ctx.db.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('lists the bar first, then tables in ascending order, all free at start', async () => {
    await api.admin.post('/api/tables', { number: 11 });
    const tables = await list('admin');
    expect(tables.map((t) => t.number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(tables.every((t) => t.status === 'libre' && t.order === null)).toBe(true);
  });

  it('opens a free table: an empty activo order linked to the table, with the opener as waiter', async () => {
    const events: string[] = [];
    const off = server.ctx.live.onEvent((e) => events.push(e.topic));
    const res = await open('waiter', 1);
    off();
    expect(res.status).toBe(200);
    const order = res.body.order;
    expect(order).toMatchObject({
      tableId: ids.get(1),
      tableNumber: 1,
      tableName: null,
      waiterId: server.users.waiter.id,
      waiterName: server.users.waiter.displayName,
      items: [],
      status: 'activo',
      peopleCount: 1,
      subtotal: 0,
      total: 0,
      adminComments: null,
      payments: [],
    });
    expect(events).toEqual(expect.arrayContaining(['tables', 'orders', `order:${order.id}`]));
    // The answer is built from the inserted row: field for field what a read of the order gives,
    // by its id and through its table.
    expect((await api.waiter.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order).toStrictEqual(order);
    expect((await api.waiter.get<{ order: Order }>(`/api/tables/${ids.get(1)}/order`)).body.order).toStrictEqual(order);
    const table = (await list('admin')).find((t) => t.number === 1)!;
    expect(table).toMatchObject({ status: 'ocupada', waiterId: server.users.waiter.id, currentOrderId: order.id });
    expect(table.order).toMatchObject({ id: order.id, itemCount: 0, lastItemName: null, subtotal: 0, canCharge: false, status: 'activo' });
    const audit = await server.ctx.db.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'table.opened')
      .where('entity_id', '=', ids.get(1)!)
      .execute();
    expect(audit).toHaveLength(1);
    // An occupied table cannot be opened again, not even by its own waiter or the admin.
    for (const who of ['waiter', 'waiter2', 'admin'] as const) {
      const again = await open(who, 1);
      expect(again.status).toBe(409);
      expect(again.body.error.message).toBe(OPEN_FAILED);
    }
  });

  it('summarises each active order: item quantities, last item, subtotal and the payment gate', async () => {
    const order = (await open('waiter', 2)).body.order;
    const tacos = await product('Tacos al pastor (3)');
    const beer = await product('Cerveza clara');
    const a = (await api.waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: tacos.id, quantity: 2 })).body.order;
    const b = (await api.waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: beer.id, quantity: 3 })).body.order;
    let summary = (await list('waiter')).find((t) => t.number === 2)!.order!;
    expect(summary).toMatchObject({
      itemCount: 5,
      lastItemName: 'Cerveza clara',
      subtotal: Number(tacos.price) * 2 + Number(beer.price) * 3,
      canCharge: false,
    });
    expect(summary.createdAt).toBe(order.createdAt);

    // Deleted items leave the counts; all delivered opens the gate.
    await api.waiter.post(`/api/orders/${order.id}/items/${b.items[1]!.id}/delete`, { pin: server.users.admin.pin });
    await server.ctx.db.db.updateTable('order_items').set({ status: 'entregado' }).where('id', '=', a.items[0]!.id).execute();
    summary = (await list('admin')).find((t) => t.number === 2)!.order!;
    expect(summary).toMatchObject({
      itemCount: 2,
      lastItemName: 'Tacos al pastor (3)',
      subtotal: Number(tacos.price) * 2,
      canCharge: true,
    });
  });

  it('shows a waiter the summaries of their own tables only', async () => {
    const mine = (await open('waiter2', 3)).body.order;
    const forOther = (await list('waiter')).find((t) => t.number === 3)!;
    expect(forOther).toMatchObject({ status: 'ocupada', waiterName: server.users.waiter2.displayName, order: null, currentOrderId: null });
    const forOwner = (await list('waiter2')).find((t) => t.number === 3)!;
    expect(forOwner.order?.id).toBe(mine.id);
    expect(forOwner.currentOrderId).toBe(mine.id);
    expect((await list('admin')).find((t) => t.number === 3)!.order?.id).toBe(mine.id);
  });

  it('lets exactly one of 10 simultaneous openers have a free table; the others get the spec message', async () => {
    const clients = await Promise.all(
      Array.from({ length: 10 }, (_, i) => server.login([server.users.waiter, server.users.waiter2, server.users.admin][i % 3]!.email)),
    );
    const ordersBefore = await count('orders');
    const results = await Promise.all(clients.map((c) => c.post<{ order: Order } & Err>(`/api/tables/${ids.get(4)}/open`)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.error.message).toBe(OPEN_FAILED);
    }
    expect(await count('orders')).toBe(ordersBefore + 1);
    const active = await server.ctx.db.db.selectFrom('orders').select('id').where('active_table_id', '=', ids.get(4)!).execute();
    expect(active.map((o) => o.id)).toEqual([ok[0]!.body.order.id]);
    const table = await server.ctx.db.db.selectFrom('tables').selectAll().where('id', '=', ids.get(4)!).executeTakeFirstOrThrow();
    expect(table.current_order_id).toBe(ok[0]!.body.order.id);
  });

  it('answers 404 for an unknown table and 400 for a malformed id, writing nothing', async () => {
    const before = [await count('orders'), await count('audit_log')];
    const missing = await api.admin.post<Err>('/api/tables/no-existe/open');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Mesa no encontrada');
    expect((await api.admin.post('/api/tables/a%20b/open')).status).toBe(400);
    expect([await count('orders'), await count('audit_log')]).toEqual(before);
  });

  it('lets the admin add, renumber and delete tables with the rules of numbers and active orders', async () => {
    const created = await api.admin.post<{ table: Table } & Err>('/api/tables', { number: 50 });
    expect(created.status).toBe(200);
    expect(created.body.table).toMatchObject({ number: 50, status: 'libre', order: null });
    const id = created.body.table.id;
    const dup = await api.admin.post<Err>('/api/tables', { number: 50 });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe('Ya existe una mesa con ese número');
    const renamed = await api.admin.patch<{ table: Table }>(`/api/tables/${id}`, { number: 51 });
    expect(renamed.body.table.number).toBe(51);
    expect((await api.admin.patch<Err>(`/api/tables/${id}`, { number: 1 })).status).toBe(409);
    expect((await api.admin.patch(`/api/tables/no-existe`, { number: 77 })).status).toBe(404);

    // Renumbering an occupied table relabels its active order.
    const order = (await api.waiter.post<{ order: Order }>(`/api/tables/${id}/open`)).body.order;
    await api.admin.patch(`/api/tables/${id}`, { number: 52 });
    expect((await api.admin.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order.tableNumber).toBe(52);
    const refused = await api.admin.delete<Err>(`/api/tables/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('No se puede eliminar una mesa con una orden activa');

    const spare = (await api.admin.post<{ table: Table }>('/api/tables', { number: 60 })).body.table;
    expect((await api.admin.delete(`/api/tables/${spare.id}`)).status).toBe(200);
    expect((await list('admin')).some((t) => t.id === spare.id)).toBe(false);
    expect((await api.admin.delete(`/api/tables/${spare.id}`)).status).toBe(404);
    const actions = (await server.ctx.db.db.selectFrom('audit_log').select('action').where('entity', '=', 'table').execute()).map(
      (r) => r.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['table.created', 'table.renumbered', 'table.deleted']));
  });

  it('refuses bad table bodies with a 4xx and writes nothing', async () => {
    const before = [await count('tables'), await count('audit_log')];
    for (const body of [
      {},
      { number: -1 },
      { number: 1000 },
      { number: 1.5 },
      { number: '12' },
      { number: null },
      { number: 12, status: 'ocupada' },
      [],
      'x',
    ]) {
      const res = await api.admin.post<Err>('/api/tables', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.error.message).toBe('string');
      expect((await api.admin.patch(`/api/tables/${ids.get(9)}`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect([await count('tables'), await count('audit_log')]).toEqual(before);
  });

  it('enforces the role matrix on every table route', async () => {
    const free = ids.get(8)!;
    const cases: [string, (c: ApiClient) => Promise<{ status: number }>, Record<Who, number>][] = [
      ['list', (c) => c.get('/api/tables'), { anonymous: 401, kitchen: 403, barra: 403, waiter: 200, waiter2: 200, admin: 200 }],
      [
        'create',
        (c) => c.post('/api/tables', { number: 90 }),
        { anonymous: 401, kitchen: 403, barra: 403, waiter: 403, waiter2: 403, admin: 200 },
      ],
      [
        'renumber',
        (c) => c.patch(`/api/tables/${free}`, { number: 8 }),
        { anonymous: 401, kitchen: 403, barra: 403, waiter: 403, waiter2: 403, admin: 200 },
      ],
      [
        'delete',
        (c) => c.delete(`/api/tables/${ids.get(10)}`),
        { anonymous: 401, kitchen: 403, barra: 403, waiter: 403, waiter2: 403, admin: 200 },
      ],
      [
        'open',
        (c) => c.post(`/api/tables/${free}/open`),
        { anonymous: 401, kitchen: 403, barra: 403, waiter2: 200, waiter: 409, admin: 409 },
      ],
      [
        'order',
        (c) => c.get(`/api/tables/${free}/order`),
        { anonymous: 401, kitchen: 403, barra: 403, waiter: 403, waiter2: 200, admin: 200 },
      ],
    ];
    for (const [name, call, expected] of cases) {
      for (const who of ['anonymous', 'kitchen', 'barra', 'waiter2', 'waiter', 'admin'] as const) {
        expect((await call(api[who])).status, `${name} as ${who}`).toBe(expected[who]);
      }
    }
  });
});
