import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table, TableCheck } from '@comanda/contract';
import { assertInvariants, startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { newId } from '../src/http/ids.ts';
import { insertCardPayment } from '../src/testing/factories.ts';

type Err = { error: { code: string; message: string } };
type Who = 'admin' | 'waiter' | 'waiter2' | 'kitchen' | 'barra';

describe.each(testDatabaseKinds())('separate checks and bar tabs on %s', (kind) => {
  let server: TestServer;
  const api = {} as Record<Who, ApiClient>;
  let products: { id: string; name: string; price: number }[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const who of ['admin', 'waiter', 'waiter2', 'kitchen', 'barra'] as const) api[who] = await server.login(server.users[who].email);
    products = (await api.admin.get<{ products: typeof products }>('/api/products?available=1')).body.products;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.ctx.db.db;
  const product = (name: string) => products.find((p) => p.name === name)!;
  const tables = async (who: Who = 'admin') => (await api[who].get<{ tables: Table[] }>('/api/tables')).body.tables;
  const tableOf = async (number: number, who: Who = 'admin') => (await tables(who)).find((t) => t.number === number)!;
  const check = () => assertInvariants(server.ctx.db);

  async function newTable(number: number): Promise<Table> {
    const res = await api.admin.post<{ table: Table }>('/api/tables', { number });
    expect(res.status).toBe(200);
    return res.body.table;
  }

  /** Adds the lines and has them delivered, so the order can be charged. */
  async function addDelivered(orderId: string, lines: [string, number][], who: Who = 'waiter'): Promise<Order> {
    let order: Order | undefined;
    for (const [name, quantity] of lines) {
      const res = await api[who].post<{ order: Order }>(`/api/orders/${orderId}/items`, { productId: product(name).id, quantity });
      expect(res.status).toBe(200);
      order = res.body.order;
    }
    for (const item of order!.items) {
      const board = item.station === 'cocina' ? api.kitchen : api.barra;
      expect((await board.patch(`/api/orders/${orderId}/items/${item.id}/status`, { status: 'entregado' })).status).toBe(200);
    }
    return (await api.admin.get<{ order: Order }>(`/api/orders/${orderId}`)).body.order;
  }

  /** A table of its own with an order of 2 tacos (95), 3 beers (55) and 1 michelada (85): 440.00. */
  async function tableWithOrder(number: number): Promise<{ table: Table; order: Order }> {
    const table = await newTable(number);
    const opened = await api.waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`);
    expect(opened.status).toBe(200);
    const order = await addDelivered(opened.body.order.id, [
      ['Tacos al pastor (3)', 2],
      ['Cerveza clara', 3],
      ['Michelada', 1],
    ]);
    expect(order.subtotal).toBe(440_00);
    return { table, order };
  }

  const lineOf = (order: Order, name: string) => order.items.find((i) => i.productName === name && !i.isDeleted)!;
  const split = (who: Who, orderId: string, checks: { lines: { itemId: string; quantity: number }[] }[]) =>
    api[who].post<{ orders: Order[] } & Err>(`/api/orders/${orderId}/checks`, { checks });
  const payCash = (who: Who, orderId: string, receivedAmount: number) =>
    api[who].post<{ order: Order } & Err>(
      `/api/orders/${orderId}/close`,
      { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 0, peopleCount: 1, receivedAmount },
      { 'idempotency-key': newId() },
    );
  const units = (orders: Order[]) => orders.flatMap((o) => o.items.filter((i) => !i.isDeleted)).reduce((acc, i) => acc + i.quantity, 0);
  const openOrdersOf = (tableId: string) =>
    db().selectFrom('orders').selectAll().where('table_id', '=', tableId).where('status', '=', 'activo').execute();

  it('splits by item into new checks on the same table, to the centavo, and frees the table after the last is paid', async () => {
    const { table, order } = await tableWithOrder(201);
    const beer = lineOf(order, 'Cerveza clara');
    const tacos = lineOf(order, 'Tacos al pastor (3)');
    const res = await split('waiter', order.id, [
      { lines: [{ itemId: beer.id, quantity: 2 }] },
      {
        lines: [
          { itemId: tacos.id, quantity: 1 },
          { itemId: beer.id, quantity: 1 },
        ],
      },
    ]);
    expect(res.status).toBe(200);
    const [a, b, c] = res.body.orders;
    expect(res.body.orders).toHaveLength(3);
    expect(a).toMatchObject({ id: order.id, tabName: 'Cuenta A', parentOrderId: null, status: 'activo', subtotal: 95_00 + 85_00 });
    expect(b).toMatchObject({
      tabName: 'Cuenta B',
      parentOrderId: order.id,
      tableId: table.id,
      status: 'activo',
      peopleCount: 1,
      subtotal: 110_00,
    });
    expect(c).toMatchObject({ tabName: 'Cuenta C', parentOrderId: order.id, waiterId: server.users.waiter.id, subtotal: 95_00 + 55_00 });
    expect(a!.subtotal + b!.subtotal + c!.subtotal).toBe(order.subtotal);
    expect(units([a!, b!, c!])).toBe(6);
    // The whole beer line (3) went 2 + 1 into B and C: B got a copy of the row, C the row itself.
    expect(b!.items).toHaveLength(1);
    const copied = b!.items[0]!;
    expect(copied).toMatchObject({
      quantity: 2,
      productPrice: beer.productPrice,
      status: beer.status,
      notes: beer.notes,
      createdAt: beer.createdAt,
    });
    expect(copied.id).not.toBe(beer.id);
    expect(lineOf(c!, 'Cerveza clara')).toMatchObject({ id: beer.id, quantity: 1 });
    // The tacos line was cut in two rows of the same product and time.
    expect(lineOf(a!, 'Tacos al pastor (3)')).toMatchObject({ id: tacos.id, quantity: 1 });
    expect(lineOf(c!, 'Tacos al pastor (3)')).toMatchObject({ quantity: 1, createdAt: tacos.createdAt, status: tacos.status });
    const audits = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'order.split')
      .where('entity_id', '=', order.id)
      .execute();
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actor_id).toBe(server.users.waiter.id);
    await check();

    // The table lists its checks; the tables list carries the extra ones.
    const listed = (await api.waiter.get<{ checks: TableCheck[] }>(`/api/tables/${table.id}/checks`)).body.checks;
    expect(listed.map((x) => [x.tabName, x.subtotal, x.current])).toEqual([
      ['Cuenta A', 180_00, true],
      ['Cuenta B', 110_00, false],
      ['Cuenta C', 150_00, false],
    ]);
    const card = await tableOf(201, 'waiter');
    expect(card.order).toMatchObject({ id: order.id, tabName: 'Cuenta A' });
    expect(card.extraOrders?.map((o) => o.tabName)).toEqual(['Cuenta B', 'Cuenta C']);
    expect((await api.waiter2.get(`/api/tables/${table.id}/checks`)).status).toBe(403);

    // B first: the table keeps A.
    expect((await payCash('waiter', b!.id, 110_00)).status).toBe(200);
    expect(await tableOf(201)).toMatchObject({ status: 'ocupada', currentOrderId: order.id });
    await check();
    // A, the order the table links: the link moves to C, the table stays ocupada.
    const paidA = await payCash('waiter', a!.id, 200_00);
    expect(paidA.status).toBe(200);
    expect(paidA.body.order).toMatchObject({ status: 'pagado', total: 180_00 });
    expect(await tableOf(201)).toMatchObject({ status: 'ocupada', currentOrderId: c!.id, waiterId: server.users.waiter.id });
    expect((await api.waiter.get<{ order: Order }>(`/api/tables/${table.id}/order`)).body.order.id).toBe(c!.id);
    await check();
    // The last one frees the table.
    expect((await payCash('waiter', c!.id, 150_00)).status).toBe(200);
    expect(await tableOf(201)).toMatchObject({ status: 'libre', currentOrderId: null, waiterId: null });
    const paid = await db().selectFrom('payments').select(['order_id', 'amount']).where('order_id', 'in', [a!.id, b!.id, c!.id]).execute();
    expect(paid.reduce((acc, p) => acc + Number(p.amount), 0)).toBe(440_00);
    await check();
  });

  it('names further checks on from the ones the table already had', async () => {
    const { order } = await tableWithOrder(202);
    const first = await split('waiter', order.id, [{ lines: [{ itemId: lineOf(order, 'Michelada').id, quantity: 1 }] }]);
    expect(first.body.orders.map((o) => o.tabName)).toEqual(['Cuenta A', 'Cuenta B']);
    const b = first.body.orders[1]!;
    // B is split again: the new check is C, a sibling of the first order.
    const tacosLeft = lineOf(first.body.orders[0]!, 'Tacos al pastor (3)');
    const again = await split('waiter', order.id, [{ lines: [{ itemId: tacosLeft.id, quantity: 2 }] }]);
    expect(again.status).toBe(200);
    expect(again.body.orders[1]).toMatchObject({ tabName: 'Cuenta C', parentOrderId: order.id });
    // A check with one unit cannot give it all away.
    const none = await split('waiter', b.id, [{ lines: [{ itemId: b.items[0]!.id, quantity: 1 }] }]);
    expect(none.status).toBe(422);
    expect(none.body.error.message).toBe('Deja al menos un producto en la cuenta original');
    await check();
  });

  it('refuses what it must: other waiters, unknown or too many units, closed orders, a card payment in progress', async () => {
    const { order } = await tableWithOrder(203);
    const beer = lineOf(order, 'Cerveza clara');
    const other = await split('waiter2', order.id, [{ lines: [{ itemId: beer.id, quantity: 1 }] }]);
    expect(other.status).toBe(403);
    const tooMany = await split('waiter', order.id, [{ lines: [{ itemId: beer.id, quantity: 4 }] }]);
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.message).toBe('Elegiste más unidades de las que tiene la cuenta. Revisa la orden e intenta de nuevo.');
    const twice = await split('waiter', order.id, [
      { lines: [{ itemId: beer.id, quantity: 2 }] },
      { lines: [{ itemId: beer.id, quantity: 2 }] },
    ]);
    expect(twice.status).toBe(409);
    const unknown = await split('waiter', order.id, [{ lines: [{ itemId: newId(), quantity: 1 }] }]);
    expect(unknown.status).toBe(409);
    const empty = await split('waiter', order.id, [{ lines: [] }]);
    expect(empty.status).toBe(400);

    // A card payment on the terminal freezes the order.
    const now = server.ctx.clock.now();
    const cardId = newId();
    await insertCardPayment(db(), order.id, {
      id: cardId,
      idempotency_key: newId(),
      amount: order.subtotal,
      created_by: server.users.waiter.id,
      created_at: now,
    });
    const frozen = await split('waiter', order.id, [{ lines: [{ itemId: beer.id, quantity: 1 }] }]);
    expect(frozen.status).toBe(409);
    expect(frozen.body.error.message).toBe('Hay un cobro con tarjeta en curso para esta orden. Espera a que termine o cancélalo.');
    await db().updateTable('card_payments').set({ state: 'cancelled' }).where('id', '=', cardId).execute();

    expect((await payCash('waiter', order.id, 525_00)).status).toBe(200);
    const paid = await split('waiter', order.id, [{ lines: [{ itemId: beer.id, quantity: 1 }] }]);
    expect(paid.status).toBe(409);
    expect(paid.body.error.message).toBe('La orden ya fue cerrada y no se puede modificar');
    expect(await db().selectFrom('orders').select('id').where('parent_order_id', '=', order.id).execute()).toEqual([]);
    await check();
  });

  it('two devices splitting the same order at once: one wins, nothing duplicated or lost', async () => {
    const { table, order } = await tableWithOrder(204);
    const beer = lineOf(order, 'Cerveza clara');
    const tacos = lineOf(order, 'Tacos al pastor (3)');
    const results = await Promise.all([
      split('waiter', order.id, [
        {
          lines: [
            { itemId: beer.id, quantity: 3 },
            { itemId: tacos.id, quantity: 1 },
          ],
        },
      ]),
      split('admin', order.id, [
        {
          lines: [
            { itemId: beer.id, quantity: 2 },
            { itemId: tacos.id, quantity: 2 },
          ],
        },
      ]),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const open = await openOrdersOf(table.id);
    expect(open).toHaveLength(2);
    const loaded = await Promise.all(open.map(async (o) => (await api.admin.get<{ order: Order }>(`/api/orders/${o.id}`)).body.order));
    expect(units(loaded)).toBe(6);
    expect(loaded.reduce((acc, o) => acc + o.subtotal, 0)).toBe(440_00);
    await check();
  });

  it('bar tabs: several named open orders on the Barra, each worked and paid on its own', async () => {
    const bar = await tableOf(0);
    expect(bar.status).toBe('libre');
    const open = (who: Who, tableId: string, name: unknown) =>
      api[who].post<{ order: Order } & Err>(`/api/tables/${tableId}/tabs`, { name });
    const juan = await open('waiter', bar.id, '  Cuenta de   Juan ');
    expect(juan.status).toBe(200);
    expect(juan.body.order).toMatchObject({
      tabName: 'Cuenta de Juan',
      tableNumber: 0,
      waiterId: server.users.waiter.id,
      status: 'activo',
    });
    // A free Barra is opened by its first tab, which it links.
    expect(await tableOf(0)).toMatchObject({ status: 'ocupada', currentOrderId: juan.body.order.id });
    const ana = await open('waiter2', bar.id, 'Cuenta de Ana');
    expect(ana.status).toBe(200);
    await check();

    const taken = await open('waiter2', bar.id, 'cuenta de JUAN');
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe('Ya hay una cuenta abierta con ese nombre en la Barra');
    expect((await open('waiter', bar.id, '   ')).status).toBe(400);
    expect((await open('waiter', bar.id, 'x'.repeat(41))).status).toBe(400);
    const table = await newTable(205);
    const notBar = await open('waiter', table.id, 'Cuenta de Pepe');
    expect(notBar.status).toBe(409);
    expect(notBar.body.error.message).toBe('Solo la Barra admite varias cuentas abiertas a la vez');
    // The ordinary open still refuses an ocupada Barra.
    expect((await api.waiter.post(`/api/tables/${bar.id}/open`)).status).toBe(409);

    // Each waiter sees and works their own tab only; the admin sees both.
    const adminBar = await tableOf(0);
    expect([adminBar.order?.tabName, ...(adminBar.extraOrders ?? []).map((o) => o.tabName)]).toEqual(['Cuenta de Juan', 'Cuenta de Ana']);
    const ana2 = await tableOf(0, 'waiter2');
    expect(ana2.order).toBeNull();
    expect(ana2.extraOrders?.map((o) => o.id)).toEqual([ana.body.order.id]);
    expect(
      (await api.waiter.post(`/api/orders/${ana.body.order.id}/items`, { productId: product('Cerveza clara').id, quantity: 1 })).status,
    ).toBe(403);

    await addDelivered(juan.body.order.id, [['Cerveza clara', 2]]);
    await addDelivered(ana.body.order.id, [['Michelada', 1]], 'waiter2');
    // Juan pays first: Ana's tab keeps the Barra, now under her name.
    expect((await payCash('waiter', juan.body.order.id, 110_00)).status).toBe(200);
    expect(await tableOf(0)).toMatchObject({ status: 'ocupada', currentOrderId: ana.body.order.id, waiterId: server.users.waiter2.id });
    // The name is free again once Juan's tab is paid.
    const juanAgain = await open('waiter', bar.id, 'Cuenta de Juan');
    expect(juanAgain.status).toBe(200);
    await check();
    expect((await payCash('waiter2', ana.body.order.id, 85_00)).status).toBe(200);
    expect(await tableOf(0)).toMatchObject({ status: 'ocupada', currentOrderId: juanAgain.body.order.id });
    await addDelivered(juanAgain.body.order.id, [['Cerveza clara', 1]]);
    expect((await payCash('waiter', juanAgain.body.order.id, 55_00)).status).toBe(200);
    expect(await tableOf(0)).toMatchObject({ status: 'libre', currentOrderId: null });
    await check();
  });

  it('two tabs of the same name opened at once: one opens', async () => {
    const bar = await tableOf(0);
    const results = await Promise.all(
      ['waiter', 'waiter2'].map((who) => api[who as Who].post<{ order: Order }>(`/api/tables/${bar.id}/tabs`, { name: 'Cuenta de Luis' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await openOrdersOf(bar.id)).filter((o) => o.tab_name === 'Cuenta de Luis')).toHaveLength(1);
    await check();
  });
});
