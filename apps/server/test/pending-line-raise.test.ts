import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { insertProduct, insertStationPrinters } from '../src/testing/factories.ts';

/**
 * Units of what a pending line already holds raise that line (the domain's mayRaisePendingLine):
 * one line, its quantity up, the comanda carrying only the new units. On PostgreSQL the
 * one-statement add hands such an add over to the TypeScript write, so both answer the same.
 */
describe.each(testDatabaseKinds())('units onto a pending line on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let kitchen: ApiClient;
  let tacos: string;
  let nextTable = 760;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    kitchen = await server.login(server.users.kitchen.email);
    await insertStationPrinters(server.ctx.db.db, Date.now());
    tacos = (
      await insertProduct(server.ctx.db.db, {
        name: 'Tacos de suadero',
        category: 'Comida',
        price: 9_500,
        available: 1,
        created_at: Date.now(),
      })
    ).id;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.ctx.db.db;
  const openOrder = async (): Promise<Order> => {
    const table = (await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ })).body.table;
    return (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`)).body.order;
  };
  const add = async (orderId: string, body: Record<string, unknown>) => {
    const res = await waiter.post<{ order: Order }>(`/api/orders/${orderId}/items`, { productId: tacos, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.order;
  };
  const lines = (orderId: string) =>
    db().selectFrom('order_items').selectAll().where('order_id', '=', orderId).where('is_deleted', '=', 0).orderBy('created_at').execute();
  /** The quantities the kitchen's comandas printed, one entry per comanda (the first kitchen printer's). */
  const printed = async (orderId: string) => {
    const jobs = await db()
      .selectFrom('print_jobs')
      .select(['document', 'printer_id'])
      .where('order_id', '=', orderId)
      .orderBy('seq')
      .execute();
    const first = jobs[0]?.printer_id;
    return jobs
      .filter((j) => j.printer_id === first)
      .map((j) => (JSON.parse(j.document) as { lines: { quantity: number }[] }).lines.map((l) => l.quantity));
  };

  it('the same product and notes on a pending line: one line of 3, the second comanda prints 2', async () => {
    const order = await openOrder();
    await add(order.id, { quantity: 1, notes: 'sin cebolla' });
    const after = await add(order.id, { quantity: 2, notes: '  sin cebolla ' });
    const rows = await lines(order.id);
    expect(rows.map((r) => [r.quantity, r.notes])).toEqual([[3, 'sin cebolla']]);
    expect(Number(after.subtotal)).toBe(3 * 9_500);
    expect(after.items.filter((i) => !i.isDeleted).map((i) => i.quantity)).toEqual([3]);
    expect(await printed(order.id)).toEqual([[1], [2]]);
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'data'])
      .where('entity_id', '=', order.id)
      .where('action', '=', 'order.item-added')
      .execute();
    expect(audit).toHaveLength(2);
  });

  it('other notes, or a line the kitchen has started, get a line of their own', async () => {
    const order = await openOrder();
    await add(order.id, { quantity: 1 });
    await add(order.id, { quantity: 1, notes: 'bien dorados' });
    expect((await lines(order.id)).map((r) => r.quantity)).toEqual([1, 1]);
    const first = (await lines(order.id))[0]!;
    expect((await kitchen.patch(`/api/orders/${order.id}/items/${first.id}/status`, { status: 'listo' })).status).toBe(200);
    await add(order.id, { quantity: 2 });
    expect((await lines(order.id)).map((r) => [r.quantity, r.status])).toEqual([
      [1, 'listo'],
      [1, 'pendiente'],
      [2, 'pendiente'],
    ]);
  });

  it('"+ unidad" raises a pending line and adds a new one beside a started line', async () => {
    const order = await openOrder();
    await add(order.id, { quantity: 1 });
    const line = (await lines(order.id))[0]!;
    const raised = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items/${line.id}/units`, { quantity: 2 });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect((await lines(order.id)).map((r) => [r.id, r.quantity])).toEqual([[line.id, 3]]);
    expect(await printed(order.id)).toEqual([[1], [2]]);
    expect((await kitchen.patch(`/api/orders/${order.id}/items/${line.id}/status`, { status: 'listo' })).status).toBe(200);
    expect((await waiter.post(`/api/orders/${order.id}/items/${line.id}/units`, { quantity: 1 })).status).toBe(200);
    expect((await lines(order.id)).map((r) => r.quantity)).toEqual([3, 1]);
  });

  it('a line at the most units a line may hold is not raised past it', async () => {
    const order = await openOrder();
    await add(order.id, { quantity: 98 });
    await add(order.id, { quantity: 2 });
    expect((await lines(order.id)).map((r) => r.quantity)).toEqual([98, 2]);
  });
});
