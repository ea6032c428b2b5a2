import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { ORDER_LIMITS } from '@comanda/domain';
import { insertOrderItems, orderItemRow } from '../src/testing/factories.ts';
import { assertInvariants, startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { orderItemRowCount } from '../src/testing/reads.ts';

type Err = { error: { code: string; message: string } };

/**
 * Issue 13, defect 4: an order grown past what the API can present. The limits (units per line,
 * lines per order, amount per order) are checked inside the add's transaction with a clear 4xx,
 * nothing refused is saved, and the tables and the order keep answering 200.
 */
describe.each(testDatabaseKinds())('order limits on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let bottle: { id: string; price: number };
  let cheapest: { id: string; price: number };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    const products = await server.ctx.db.db.selectFrom('products').select(['id', 'price']).orderBy('price', 'desc').execute();
    bottle = { id: products[0]!.id, price: Number(products[0]!.price) };
    cheapest = { id: products.at(-1)!.id, price: Number(products.at(-1)!.price) };
  });
  afterAll(async () => {
    await server?.close();
  });

  const open = async (number: number): Promise<Order> => {
    const table = (await admin.get<{ tables: Table[] }>('/api/tables')).body.tables.find((t) => t.number === number)!;
    const res = await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`);
    expect(res.status).toBe(200);
    return res.body.order;
  };
  const add = (orderId: string, productId: string, quantity: number) =>
    waiter.post<{ order: Order } & Err>(`/api/orders/${orderId}/items`, { productId, quantity });
  const linesOf = (orderId: string) => orderItemRowCount(server.ctx.db.db, orderId);
  const tablesAnswer = async () => {
    for (const api of [admin, waiter]) expect((await api.get('/api/tables')).status).toBe(200);
  };

  it('the attack sequence (the most expensive bottle, again and again) stops with a 4xx before the limit', async () => {
    const order = await open(1);
    const huge = await add(order.id, bottle.id, 999);
    expect(huge.status).toBe(400);
    expect(huge.body.error.message).toMatch(/La cantidad máxima por línea es 99$/);

    let accepted = 0;
    let refused: Awaited<ReturnType<typeof add>> | null = null;
    for (let i = 0; i < 56 && !refused; i++) {
      const res = await add(order.id, bottle.id, ORDER_LIMITS.maxLineQuantity);
      if (res.status === 200) accepted++;
      else refused = res;
      await tablesAnswer();
    }
    expect(accepted).toBe(Math.floor(ORDER_LIMITS.maxOrderAmount / (bottle.price * ORDER_LIMITS.maxLineQuantity)));
    expect(refused?.status).toBe(422);
    expect(refused?.body.error.code).toBe('order_amount_limit');
    expect(refused?.body.error.message).toMatch(/^La orden no puede pasar de \$1,000,000\.00 MXN/);
    // The refused add saved nothing.
    const after = (await waiter.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order;
    expect(after.items).toHaveLength(accepted);
    expect(after.subtotal).toBe(accepted * bottle.price * ORDER_LIMITS.maxLineQuantity);
    expect(after.subtotal).toBeLessThanOrEqual(ORDER_LIMITS.maxOrderAmount);
    // '+ unidad' is held to the same limit.
    const units = await waiter.post<Err>(`/api/orders/${order.id}/items/${after.items[0]!.id}/units`, {
      quantity: ORDER_LIMITS.maxLineQuantity,
    });
    expect(units.status).toBe(422);
    expect(await linesOf(order.id)).toBe(accepted);
    await tablesAnswer();
    await assertInvariants(server.ctx.db);
  });

  it('an order holds at most the line limit, deleted lines included', async () => {
    const order = await open(2);
    const now = Date.now();
    const rows = Array.from({ length: ORDER_LIMITS.maxLines - 1 }, (_, i) =>
      orderItemRow(
        order.id,
        { ...cheapest, name: 'Relleno', category: 'Comida' },
        // Started lines: a pending one of the product would take the adds' units instead of a new line.
        { created_at: now, status: 'listo', is_deleted: i % 2, deleted_at: null },
      ),
    );
    await insertOrderItems(server.ctx.db.db, rows);
    const last = await add(order.id, cheapest.id, 1);
    expect(last.status).toBe(200);
    // Other notes: a line of its own (the same would raise the pending line just added).
    const over = await waiter.post<{ order: Order } & Err>(`/api/orders/${order.id}/items`, {
      productId: cheapest.id,
      quantity: 1,
      notes: 'otra',
    });
    expect(over.status).toBe(422);
    expect(over.body.error).toEqual({
      code: 'order_too_many_lines',
      message: 'La orden llegó al máximo de 1000 líneas. Cobra esta orden y abre otra para seguir.',
    });
    expect(await linesOf(order.id)).toBe(ORDER_LIMITS.maxLines);
    await tablesAnswer();
  });

  it('concurrent adds cannot jump the amount limit together', async () => {
    const order = await open(3);
    const results = await Promise.all(Array.from({ length: 10 }, () => add(order.id, bottle.id, ORDER_LIMITS.maxLineQuantity)));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(Math.floor(ORDER_LIMITS.maxOrderAmount / (bottle.price * ORDER_LIMITS.maxLineQuantity)));
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 422)).toBe(true);
    await assertInvariants(server.ctx.db);
  });

  it('an order stored before the limits, far past them, is still presented', async () => {
    const order = await open(4);
    const now = Date.now();
    const price = 100_000_000_00; // the highest catalogue price
    await insertOrderItems(server.ctx.db.db, [
      orderItemRow(
        order.id,
        { ...bottle, name: 'Botella heredada', price, category: 'Botella' },
        { created_at: now, quantity: 999, status: 'pendiente' },
      ),
    ]);
    await server.ctx.db.db
      .updateTable('orders')
      .set({ subtotal: price * 999, total: price * 999 })
      .where('id', '=', order.id)
      .execute();
    await tablesAnswer();
    const table = (await admin.get<{ tables: Table[] }>('/api/tables')).body.tables.find((t) => t.number === 4)!;
    expect(table.order?.subtotal).toBe(price * 999);
    expect((await waiter.get(`/api/orders/${order.id}`)).status).toBe(200);
    // And it cannot grow further.
    expect((await add(order.id, cheapest.id, 1)).status).toBe(422);
  });
});
