import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveServerMessage, Order, OrderChangeResponse, Table } from '@comanda/contract';
import { applyOrderChange, ORDER_CHANGE_PREFER } from '@comanda/contract';
import { connectLive, startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { insertOrderItems, orderItemRow } from '../src/testing/factories.ts';

/**
 * Item writes answer with what changed when asked (`Prefer: return=minimal`, decision 0029), and
 * a station's board topic hears only its station's items.
 */
describe.each(testDatabaseKinds())('light answers of item writes on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let products: { id: string; name: string; price: number; category: string }[];
  const minimal = { prefer: ORDER_CHANGE_PREFER };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    products = (await server.ctx.db.db.selectFrom('products').select(['id', 'name', 'price', 'category']).orderBy('name').execute()).map(
      (p) => ({ ...p, price: Number(p.price) }),
    );
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const product = (name: string) => products.find((p) => p.name === name)!;
  let nextNumber = 330;
  const freshOrder = async (): Promise<Order> => {
    const created = await admin.post<{ table: Table }>('/api/tables', { number: nextNumber++ });
    expect(created.status).toBe(200);
    const opened = await waiter.post<{ order: Order }>(`/api/tables/${created.body.table.id}/open`);
    expect(opened.status).toBe(200);
    return opened.body.order;
  };
  const read = async (orderId: string) => (await waiter.get<{ order: Order }>(`/api/orders/${orderId}`)).body.order;

  it('answers an add, + unidad and a delete with the header and the changed row, which patch the order exactly', async () => {
    const order = await freshOrder();
    let cached = order;
    const tacos = product('Tacos al pastor (3)');

    const added = await waiter.post<OrderChangeResponse>(`/api/orders/${order.id}/items`, { productId: tacos.id, quantity: 2 }, minimal);
    expect(added.status).toBe(200);
    expect(added.body).not.toHaveProperty('order');
    expect(added.body.change.items).toHaveLength(1);
    expect(added.body.change.items[0]).toMatchObject({ productId: tacos.id, quantity: 2, station: 'cocina', status: 'pendiente' });
    expect(added.body.change.order).not.toHaveProperty('items');
    expect(added.body.change.order).toMatchObject({ id: order.id, version: order.version + 1, subtotal: tacos.price * 2 });
    cached = applyOrderChange(cached, added.body.change)!;
    expect(cached).toEqual(await read(order.id));

    const itemId = added.body.change.items[0]!.id;
    const units = await waiter.post<OrderChangeResponse>(`/api/orders/${order.id}/items/${itemId}/units`, { quantity: 1 }, minimal);
    expect(units.status).toBe(200);
    expect(units.body.change.items).toHaveLength(1);
    // The line is still pending: "+ unidad" raises it, and the answer carries it with its new quantity.
    expect(units.body.change.items[0]).toMatchObject({ id: itemId, quantity: 3 });
    cached = applyOrderChange(cached, units.body.change)!;
    expect(cached).toEqual(await read(order.id));

    const deleted = await waiter.post<OrderChangeResponse>(
      `/api/orders/${order.id}/items/${itemId}/delete`,
      { pin: server.users.admin.pin },
      minimal,
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body.change.items).toEqual([expect.objectContaining({ id: itemId, isDeleted: true })]);
    cached = applyOrderChange(cached, deleted.body.change)!;
    expect(cached).toEqual(await read(order.id));
    expect(cached.subtotal).toBe(0);
  });

  it('still answers the whole order to a client that does not ask for the light answer', async () => {
    const order = await freshOrder();
    const res = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, {
      productId: product('Cerveza clara').id,
      quantity: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body.order.items).toHaveLength(1);
    expect(res.body.order).toEqual(await read(order.id));
  });

  it('answers an add with the same few bytes at 5 lines and at 500 lines', async () => {
    const beer = product('Cerveza clara');
    const sizeAt = async (lines: number) => {
      const order = await freshOrder();
      const now = server.ctx.clock.now();
      const rows = Array.from({ length: lines - 1 }, (_, k) =>
        // Started lines: the second add raises the first add's pending line, not one of these.
        orderItemRow(order.id, beer, { created_at: now - 1000 + k, status: 'listo' }),
      );
      for (let k = 0; k < rows.length; k += 100) await insertOrderItems(server.ctx.db.db, rows.slice(k, k + 100));
      // One add through the route recomputes the stored subtotal over the rows written directly.
      expect((await waiter.post(`/api/orders/${order.id}/items`, { productId: beer.id, quantity: 1 }, minimal)).status).toBe(200);
      const whole = await read(order.id);
      expect(whole.items).toHaveLength(lines);
      const res = await waiter.post<OrderChangeResponse>(`/api/orders/${order.id}/items`, { productId: beer.id, quantity: 1 }, minimal);
      expect(res.status).toBe(200);
      expect(res.body.change.order.subtotal).toBe(beer.price * (lines + 1));
      return { light: JSON.stringify(res.body).length, whole: JSON.stringify({ order: whole }).length };
    };
    const small = await sizeAt(5);
    const big = await sizeAt(500);
    // Only the digits of the totals may differ; the whole order grows ~100× over the same range.
    expect(big.light).toBeLessThanOrEqual(small.light + 16);
    expect(big.whole).toBeGreaterThan(50 * small.whole);
  });

  it('tells the bar board of a beer and the kitchen board of tacos, not the other way round', async () => {
    const order = await freshOrder();
    const kitchenUser = await server.login(server.users.kitchen.email);
    const kitchen = await connectLive(server.url, kitchenUser.cookie);
    const bar = await connectLive(server.url, kitchenUser.cookie);
    try {
      kitchen.ws.send(JSON.stringify({ op: 'subscribe', topics: ['board:cocina'] }));
      bar.ws.send(JSON.stringify({ op: 'subscribe', topics: ['board:barra'] }));
      expect(await kitchen.next((m) => m.op === 'subscribed')).toEqual({ op: 'subscribed', topics: ['board:cocina'] });
      expect(await bar.next((m) => m.op === 'subscribed')).toEqual({ op: 'subscribed', topics: ['board:barra'] });
      const isBoardEvent = (m: LiveServerMessage) => m.op === 'event' && m.event.id === order.id;

      const beer = await waiter.post<OrderChangeResponse>(
        `/api/orders/${order.id}/items`,
        { productId: product('Cerveza clara').id, quantity: 1 },
        minimal,
      );
      expect(await bar.next(isBoardEvent)).toMatchObject({ event: { topic: 'board:barra', version: beer.body.change.order.version } });
      const tacos = await waiter.post<OrderChangeResponse>(
        `/api/orders/${order.id}/items`,
        { productId: product('Tacos al pastor (3)').id, quantity: 1 },
        minimal,
      );
      // The kitchen's first event is the tacos': the beer before it never reached the kitchen.
      expect(await kitchen.next(isBoardEvent)).toMatchObject({
        event: { topic: 'board:cocina', version: tacos.body.change.order.version },
      });
      expect(kitchen.messages.filter(isBoardEvent)).toHaveLength(1);
      expect(bar.messages.filter(isBoardEvent)).toHaveLength(1);
    } finally {
      kitchen.ws.close();
      bar.ws.close();
    }
  });

  it('keeps the station topics to the board roles', async () => {
    const live = await connectLive(server.url, waiter.cookie);
    try {
      live.ws.send(JSON.stringify({ op: 'subscribe', topics: ['board:cocina', 'board:barra'] }));
      await live.next((m) => m.op === 'subscribed');
      expect(live.messages).toContainEqual({ op: 'denied', topic: 'board:cocina' });
      expect(live.messages).toContainEqual({ op: 'denied', topic: 'board:barra' });
    } finally {
      live.ws.close();
    }
  });
});
