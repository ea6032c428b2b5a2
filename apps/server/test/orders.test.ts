import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { ORDER_CHANGE_PREFER } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';

type Err = { error: { code: string; message: string } };
/** The answer the web asks for (decision 0029): the 1,000-add race checks statuses, not whole orders. */
const LIGHT = { prefer: ORDER_CHANGE_PREFER };
type Who = 'anonymous' | 'admin' | 'waiter' | 'waiter2' | 'kitchen' | 'barra';

describe.each(testDatabaseKinds())('orders on %s', (kind) => {
  let server: TestServer;
  const api = {} as Record<Who, ApiClient>;
  let products: { id: string; name: string; price: number; category: string }[];
  let tableIds: Map<number, string>;

  beforeAll(async () => {
    server = await startTestServer(kind, {
      checkInvariants: false /* paid and cancelled orders are forced directly to prove they refuse changes */,
    });
    api.anonymous = server.anonymous();
    for (const who of ['admin', 'waiter', 'waiter2', 'kitchen', 'barra'] as const) api[who] = await server.login(server.users[who].email);
    products = (await server.ctx.db.db.selectFrom('products').select(['id', 'name', 'price', 'category']).orderBy('name').execute()).map(
      (p) => ({ ...p, price: Number(p.price) }),
    );
    const tables = await api.admin.get<{ tables: Table[] }>('/api/tables');
    tableIds = new Map(tables.body.tables.map((t) => [t.number, t.id]));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const product = (name: string) => products.find((p) => p.name === name)!;
  const open = async (who: Who, number: number): Promise<Order> => {
    const res = await api[who].post<{ order: Order }>(`/api/tables/${tableIds.get(number)}/open`);
    expect(res.status).toBe(200);
    return res.body.order;
  };
  /** Each test gets a fresh table so the tests stay independent. */
  let nextNumber = 200;
  const freshTable = async (who: Who = 'waiter'): Promise<Order> => {
    const number = nextNumber++;
    const created = await api.admin.post<{ table: Table }>('/api/tables', { number });
    expect(created.status).toBe(200);
    tableIds.set(number, created.body.table.id);
    return open(who, number);
  };
  const add = (who: Who, orderId: string, body: unknown) => api[who].post<{ order: Order } & Err>(`/api/orders/${orderId}/items`, body);
  const snapshot = async (orderId: string) => {
    const db = server.ctx.db.db;
    const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    const items = await db.selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
    const audit = await db.selectFrom('audit_log').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { order, items, audit: Number(audit.n) };
  };

  it('adds an item with the product name, price, category and station copied onto it', async () => {
    const order = await freshTable();
    const events: string[] = [];
    const off = server.ctx.live.onEvent((e) => events.push(e.topic));
    const tacos = product('Tacos al pastor (3)');
    const res = await add('waiter', order.id, { productId: tacos.id, quantity: 2, notes: '  sin cebolla  ' });
    off();
    expect(res.status).toBe(200);
    const item = res.body.order.items[0]!;
    expect(item).toMatchObject({
      productId: tacos.id,
      productName: tacos.name,
      productPrice: tacos.price,
      quantity: 2,
      status: 'pendiente',
      category: 'Comida',
      station: 'cocina',
      notes: 'sin cebolla',
      isDeleted: false,
    });
    expect(res.body.order.subtotal).toBe(tacos.price * 2);
    expect(res.body.order.version).toBe(order.version + 1);
    expect(events).toEqual(expect.arrayContaining([`order:${order.id}`, 'orders', 'tables', 'board']));

    // A later price change does not touch what was ordered.
    await server.ctx.db.db.updateTable('products').set({ price: 1 }).where('id', '=', tacos.id).execute();
    const again = await api.waiter.get<{ order: Order }>(`/api/orders/${order.id}`);
    expect(again.body.order.items[0]!.productPrice).toBe(tacos.price);
    await server.ctx.db.db.updateTable('products').set({ price: tacos.price }).where('id', '=', tacos.id).execute();

    const beer = await add('waiter', order.id, { productId: product('Cerveza clara').id, quantity: 1, notes: '   ' });
    expect(beer.body.order.items[1]).toMatchObject({ station: 'barra', category: 'Bebida', notes: null });
    const audit = await server.ctx.db.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', order.id)
      .where('action', '=', 'order.item-added')
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit[0]!.actor_id).toBe(server.users.waiter.id);
  });

  it('refuses an unknown product with Producto no encontrado and one marked agotado by name', async () => {
    const order = await freshTable();
    const before = await snapshot(order.id);
    const unknown = await add('waiter', order.id, { productId: 'no-existe', quantity: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Producto no encontrado');
    const flan = product('Flan napolitano');
    await server.ctx.db.db.updateTable('products').set({ available: 0 }).where('id', '=', flan.id).execute();
    const unavailable = await add('waiter', order.id, { productId: flan.id, quantity: 1 });
    await server.ctx.db.db.updateTable('products').set({ available: 1 }).where('id', '=', flan.id).execute();
    expect(unavailable.status).toBe(409);
    expect(unavailable.body.error).toMatchObject({
      code: 'product_unavailable',
      message: 'Flan napolitano está agotado. Elige otro producto.',
    });
    expect(await snapshot(order.id)).toEqual(before);
  });

  it('refuses bad bodies with a 4xx and writes nothing', async () => {
    const order = await freshTable();
    const first = await add('waiter', order.id, { productId: product('Margarita').id, quantity: 1 });
    const itemId = first.body.order.items[0]!.id;
    const before = await snapshot(order.id);
    const productId = product('Margarita').id;
    const bodies: unknown[] = [
      { productId, quantity: 0 },
      { productId, quantity: -1 },
      { productId, quantity: 1.5 },
      { productId, quantity: '2' },
      { productId, quantity: 1000 },
      { productId },
      { quantity: 1 },
      { productId, quantity: 1, price: 1 },
      { productId, quantity: 1, status: 'entregado' },
      { productId, quantity: 1, total: 0 },
      { productId, quantity: 1, notes: 'x'.repeat(5000) },
      { productId: 'a b', quantity: 1 },
      JSON.parse('{"productId":"x","quantity":1,"__proto__":{"admin":true}}'),
      null,
      'texto',
      [],
    ];
    for (const body of bodies) {
      const res = await add('waiter', order.id, body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(typeof res.body.error.message).toBe('string');
    }
    const zero = await add('waiter', order.id, { productId, quantity: 0 });
    expect(zero.body.error.message).toContain('La cantidad debe ser mayor a 0');

    for (const body of [{ quantity: 0 }, { quantity: 2.5 }, { quantity: 1, productId }, {}]) {
      const res = await api.waiter.post<Err>(`/api/orders/${order.id}/items/${itemId}/units`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    for (const body of [
      {},
      { peopleCount: 0 },
      { peopleCount: -2 },
      { peopleCount: 1.5 },
      { peopleCount: '3' },
      { tableName: 'x'.repeat(200) },
      { status: 'pagado' },
      { subtotal: 0 },
      { waiterId: server.users.waiter2.id },
    ]) {
      const res = await api.admin.patch<Err>(`/api/orders/${order.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    for (const body of [{}, { pin: 1234 }, { pin: '1234', extra: 1 }]) {
      const res = await api.admin.post<Err>(`/api/orders/${order.id}/items/${itemId}/delete`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.waiter.post(`/api/orders/${order.id}/items/no-existe/units`, { quantity: 1 })).status).toBe(404);
    expect((await api.admin.post(`/api/orders/no-existe/items`, { productId, quantity: 1 })).status).toBe(404);
    expect(await snapshot(order.id)).toEqual(before);
  });

  it('adds units as a new pending row with the same product, notes and the current price', async () => {
    const order = await freshTable();
    const michelada = product('Michelada');
    const first = await add('waiter', order.id, { productId: michelada.id, quantity: 1, notes: 'con clamato' });
    const source = first.body.order.items[0]!;
    // The bar already delivered the first one; the extra units must be prepared anew.
    await server.ctx.db.db.updateTable('order_items').set({ status: 'entregado' }).where('id', '=', source.id).execute();
    await server.ctx.db.db
      .updateTable('products')
      .set({ price: michelada.price + 500 })
      .where('id', '=', michelada.id)
      .execute();
    const res = await api.waiter.post<{ order: Order }>(`/api/orders/${order.id}/items/${source.id}/units`, { quantity: 3 });
    await server.ctx.db.db.updateTable('products').set({ price: michelada.price }).where('id', '=', michelada.id).execute();
    expect(res.status).toBe(200);
    const items = res.body.order.items;
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ id: source.id, quantity: 1, status: 'entregado' });
    expect(items[1]).toMatchObject({
      productId: michelada.id,
      quantity: 3,
      status: 'pendiente',
      notes: 'con clamato',
      productPrice: michelada.price + 500,
      station: 'barra',
    });
    expect(res.body.order.subtotal).toBe(michelada.price + 3 * (michelada.price + 500));
  });

  it('deletes an item with an admin PIN only, softly, with who and when', async () => {
    const order = await freshTable();
    const a = await add('waiter', order.id, { productId: product('Queso fundido').id, quantity: 2 });
    const b = await add('waiter', order.id, { productId: product('Shot de mezcal').id, quantity: 1 });
    const itemId = a.body.order.items[0]!.id;
    const url = `/api/orders/${order.id}/items/${itemId}/delete`;
    const before = await snapshot(order.id);

    const wrong = await api.waiter.post<Err>(url, { pin: '9999' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toBe('PIN incorrecto');
    const short = await api.waiter.post<Err>(url, { pin: '12' });
    expect(short.body.error.message).toBe('PIN incorrecto');
    const waiterPin = await api.waiter.post<Err>(url, { pin: server.users.waiter.pin });
    expect(waiterPin.status).toBe(403);
    expect(waiterPin.body.error.message).toBe('PIN válido, pero el usuario no tiene permisos. Solo administradores pueden eliminar items.');
    // Someone else's PIN is answered exactly like a wrong one: only the caller's own gets the message above.
    const kitchenPin = await api.admin.post<Err>(url, { pin: server.users.kitchen.pin });
    expect(kitchenPin).toEqual(wrong);
    const after = await snapshot(order.id);
    expect(after.order).toEqual(before.order);
    expect(after.items).toEqual(before.items);
    // Wrong PINs are audited.
    expect(after.audit).toBeGreaterThan(before.audit);

    // A waiter may delete on their own table when an admin types the PIN.
    const ok = await api.waiter.post<{ order: Order }>(url, { pin: server.users.admin.pin });
    expect(ok.status).toBe(200);
    const deleted = ok.body.order.items.find((i) => i.id === itemId)!;
    expect(deleted).toMatchObject({ isDeleted: true, deletedBy: server.users.admin.id, deletedByName: server.users.admin.displayName });
    expect(deleted.deletedAt).toBeTypeOf('number');
    expect(ok.body.order.subtotal).toBe(b.body.order.subtotal - 2 * product('Queso fundido').price);
    const audit = await server.ctx.db.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'order.item-deleted')
      .where('entity_id', '=', order.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: server.users.waiter.id, authorized_by: server.users.admin.id });

    const twice = await api.admin.post<Err>(url, { pin: server.users.admin.pin });
    expect(twice.status).toBe(409);
    // A deleted item cannot be the source of more units.
    expect((await api.waiter.post(`/api/orders/${order.id}/items/${itemId}/units`, { quantity: 1 })).status).toBe(404);
  });

  it('deletes a line once when two phones send the delete at the same moment, and tells an unknown line from a deleted one', async () => {
    const order = await freshTable();
    const added = await add('waiter', order.id, { productId: product('Queso fundido').id, quantity: 1 });
    const itemId = added.body.order.items[0]!.id;
    const url = `/api/orders/${order.id}/items/${itemId}/delete`;
    const both = await Promise.all([
      api.waiter.post<Err>(url, { pin: server.users.admin.pin }),
      api.admin.post<Err>(url, { pin: server.users.admin.pin }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.body.error.code).toBe('item_deleted');
    const db = server.ctx.db.db;
    const entries = await db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'order.item-deleted')
      .where('entity_id', '=', order.id)
      .execute();
    expect(entries).toHaveLength(1);
    const row = await db.selectFrom('order_items').select(['is_deleted', 'deleted_by']).where('id', '=', itemId).executeTakeFirstOrThrow();
    expect(row).toEqual({ is_deleted: 1, deleted_by: server.users.admin.id });
    const unknown = await api.waiter.post<Err>(`/api/orders/${order.id}/items/${crypto.randomUUID()}/delete`, {
      pin: server.users.admin.pin,
    });
    expect(unknown.status).toBe(404);
  });

  it('updates guest count, table name and admin comments, trimmed and blank as null', async () => {
    const order = await freshTable();
    const url = `/api/orders/${order.id}`;
    const res = await api.waiter.patch<{ order: Order }>(url, { peopleCount: 4, tableName: '  Cumpleaños  ' });
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ peopleCount: 4, tableName: 'Cumpleaños' });
    const tables = await api.admin.get<{ tables: Table[] }>('/api/tables');
    expect(tables.body.tables.find((t) => t.order?.id === order.id)?.order?.tableName).toBe('Cumpleaños');
    expect((await api.waiter.patch<{ order: Order }>(url, { tableName: '   ' })).body.order.tableName).toBeNull();
    expect((await api.waiter.patch<{ order: Order }>(url, { tableName: null })).body.order.tableName).toBeNull();

    const waiterComments = await api.waiter.patch<Err>(url, { adminComments: 'hola' });
    expect(waiterComments.status).toBe(403);
    const comments = await api.admin.patch<{ order: Order }>(url, { adminComments: '  cliente frecuente ' });
    expect(comments.body.order.adminComments).toBe('cliente frecuente');
    expect((await api.admin.patch<{ order: Order }>(url, { adminComments: '' })).body.order.adminComments).toBeNull();
    const audit = await server.ctx.db.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'order.updated')
      .where('entity_id', '=', order.id)
      .execute();
    expect(audit.length).toBe(5);
  });

  it('never changes a paid or cancelled order', async () => {
    for (const status of ['pagado', 'cancelado'] as const) {
      const order = await freshTable();
      const item = (await add('waiter', order.id, { productId: product('Flan napolitano').id, quantity: 1 })).body.order.items[0]!;
      await server.ctx.db.db.updateTable('orders').set({ status, active_table_id: null }).where('id', '=', order.id).execute();
      const before = await snapshot(order.id);
      const calls = [
        add('admin', order.id, { productId: product('Flan napolitano').id, quantity: 1 }),
        api.admin.post(`/api/orders/${order.id}/items/${item.id}/units`, { quantity: 1 }),
        api.admin.post(`/api/orders/${order.id}/items/${item.id}/delete`, { pin: server.users.admin.pin }),
        api.admin.patch(`/api/orders/${order.id}`, { peopleCount: 3 }),
        api.waiter.patch(`/api/orders/${order.id}`, { tableName: 'x' }),
      ];
      for (const res of await Promise.all(calls)) expect(res.status).toBe(409);
      expect(await snapshot(order.id)).toEqual(before);
      // Still readable, e.g. by the checkout screen of its waiter.
      expect((await api.waiter.get(`/api/orders/${order.id}`)).status).toBe(200);
    }
  });

  it('enforces the role matrix on every order route', async () => {
    const order = await freshTable('waiter');
    const item = (await add('waiter', order.id, { productId: product('Cerveza clara').id, quantity: 1 })).body.order.items[0]!;
    const productId = product('Cerveza clara').id;
    const routes: [string, (c: ApiClient) => Promise<{ status: number; body: unknown }>][] = [
      ['get', (c) => c.get(`/api/orders/${order.id}`)],
      ['add', (c) => c.post(`/api/orders/${order.id}/items`, { productId, quantity: 1 })],
      ['units', (c) => c.post(`/api/orders/${order.id}/items/${item.id}/units`, { quantity: 1 })],
      ['patch', (c) => c.patch(`/api/orders/${order.id}`, { peopleCount: 2 })],
    ];
    const expected: Record<Who, number> = { anonymous: 401, kitchen: 403, barra: 403, waiter2: 403, waiter: 200, admin: 200 };
    for (const [name, call] of routes) {
      for (const who of Object.keys(expected) as Who[]) {
        const res = await call(api[who]);
        expect(res.status, `${name} as ${who}`).toBe(expected[who]);
        if (who === 'waiter2') expect((res.body as Err).error.message).toMatch(/otro mesero/);
      }
    }
    const del = (c: ApiClient) => c.post(`/api/orders/${order.id}/items/${item.id}/delete`, { pin: server.users.admin.pin });
    for (const who of ['anonymous', 'kitchen', 'barra', 'waiter2'] as const) expect((await del(api[who])).status, who).toBe(expected[who]);
    expect((await del(api.admin)).status).toBe(200);
    const final = await api.admin.get<{ order: Order }>(`/api/orders/${order.id}`);
    // waiter and admin each added one item and one unit of the same beer onto its pending line:
    // one line of 1 + 2 + 2, the one deleted.
    expect(final.body.order.items).toHaveLength(1);
    expect(final.body.order.items[0]).toMatchObject({ quantity: 5, isDeleted: true });
    expect(final.body.order.peopleCount).toBe(2);
  });

  it('keeps every one of 1,000 concurrent adds from 20 clients and the exact total', async () => {
    const order = await freshTable('waiter');
    const clients = await Promise.all(
      Array.from({ length: 20 }, (_, i) => server.login(i % 2 ? server.users.admin.email : server.users.waiter.email)),
    );
    let expected = 0;
    const plan = clients.map((_, c) =>
      Array.from({ length: 50 }, (_, i) => {
        const p = products[(c * 50 + i) % products.length]!;
        const quantity = (i % 3) + 1;
        expected += p.price * quantity;
        // Each its own line (the same product and notes on a pending line would raise that line).
        return { productId: p.id, quantity, notes: `${c}-${i}` };
      }),
    );
    // All 20 clients at once, each sending its 50 adds one after another as a phone would.
    const statuses: number[] = [];
    await Promise.all(
      clients.map(async (client, c) => {
        for (const body of plan[c]!) statuses.push((await client.post(`/api/orders/${order.id}/items`, body, LIGHT)).status);
      }),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const final = await api.admin.get<{ order: Order }>(`/api/orders/${order.id}`);
    expect(final.body.order.items).toHaveLength(1000);
    expect(final.body.order.subtotal).toBe(expected);
    expect(final.body.order.version).toBe(order.version + 1000);
    const rows = await server.ctx.db.db
      .selectFrom('order_items')
      .select(server.ctx.db.db.fn.countAll<number>().as('n'))
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(1000);
  }, 300_000);

  it('serves the active order of a table only to its waiter and the admin', async () => {
    const order = await open('waiter', 1);
    const url = `/api/tables/${tableIds.get(1)}/order`;
    expect((await api.waiter.get<{ order: Order }>(url)).body.order.id).toBe(order.id);
    expect((await api.admin.get<{ order: Order }>(url)).body.order.id).toBe(order.id);
    const other = await api.waiter2.get<Err>(url);
    expect(other.status).toBe(403);
    expect(other.body.error.message).toMatch(/otro mesero/);
    expect((await api.kitchen.get(url)).status).toBe(403);
    expect((await api.anonymous.get(url)).status).toBe(401);
    const none = await api.admin.get<Err>(`/api/tables/${tableIds.get(2)}/order`);
    expect(none.status).toBe(404);
    expect(none.body.error.message).toBe('Orden no encontrada');
  });
});
