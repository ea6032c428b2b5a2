import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemStatus } from '@comanda/domain';
import type { Order } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { mutate } from '../src/http/transaction.ts';
import { closeOrderInTx } from '../src/model/checkout/close-order.ts';
import { insertCardPayment, insertTable, orderItemRow, orderRow } from '../src/testing/factories.ts';
import { withoutKey } from '../src/http/request-context.ts';

type ErrorBody = { error: { code: string; message: string } };
type UserKey = 'admin' | 'waiter' | 'waiter2';

const GATE_UNDELIVERED = 'No puedes proceder al pago: la orden tiene ítems pendientes, en preparación o listos (no entregados).';
const GATE_EMPTY = 'Agrega al menos un producto para proceder';

interface ItemSpec {
  product: string;
  quantity: number;
  status?: ItemStatus;
  deleted?: boolean;
}

/**
 * Opens a table with items straight in the database, so these tests depend only on the close.
 * The rows look exactly like the ones the tables and orders routes write.
 */
let extraTables = 100;

/** A table of its own for each test (numbers from 100 up), or the given one again. */
async function freshTable(server: TestServer, reuse?: string) {
  const db = server.ctx.db.db;
  if (reuse) return db.selectFrom('tables').selectAll().where('id', '=', reuse).executeTakeFirstOrThrow();
  return insertTable(db, { number: extraTables++, created_at: server.ctx.clock.now() });
}

async function openOrder(
  server: TestServer,
  items: ItemSpec[],
  opts: { waiter?: UserKey; tableId?: string } = {},
): Promise<{ orderId: string; tableId: string }> {
  const db = server.ctx.db.db;
  const now = server.ctx.clock.now();
  const table = await freshTable(server, opts.tableId);
  const user = server.users[opts.waiter ?? 'waiter'];
  const order = orderRow(table, user, { created_at: now });
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('orders').values(order).execute();
    await trx
      .updateTable('tables')
      .set({ status: 'ocupada', waiter_id: user.id, waiter_name: user.displayName, current_order_id: order.id, updated_at: now })
      .where('id', '=', table.id)
      .execute();
    for (const spec of items) {
      const product = await trx.selectFrom('products').selectAll().where('name', '=', spec.product).executeTakeFirstOrThrow();
      const item = orderItemRow(order.id, product, {
        created_at: now,
        quantity: spec.quantity,
        status: spec.status ?? 'entregado',
        is_deleted: spec.deleted ? 1 : 0,
      });
      await trx.insertInto('order_items').values(item).execute();
    }
  });
  return { orderId: order.id, tableId: table.id };
}

const key = () => `k-${randomUUID()}`;
const close = (api: ApiClient, orderId: string, body: Record<string, unknown>, idempotencyKey: string | null = key()) =>
  api.post<{ order: Order } & ErrorBody>(
    `/api/orders/${orderId}/close`,
    body,
    idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey },
  );
const cash = (over: Record<string, unknown> = {}) => ({
  method: 'efectivo',
  pin: '1111',
  tipBps: 0,
  peopleCount: 1,
  receivedAmount: 100_000_00,
  ...over,
});

describe.each(testDatabaseKinds())('checkout close on %s', (kind) => {
  let server: TestServer;
  let waiter: ApiClient;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(kind, {
      checkInvariants: false /* fixtures insert orders with items but no stored subtotal, to prove the close recomputes */,
    });
    waiter = await server.login(server.users.waiter.email);
    admin = await server.login(server.users.admin.email);
  });
  afterAll(async () => {
    await server?.close();
  });

  const countPayments = async (orderId: string) =>
    Number(
      (
        await server.ctx.db.db
          .selectFrom('payments')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('order_id', '=', orderId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const orderRow = (orderId: string) =>
    server.ctx.db.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();

  it('refuses an empty order and one with undelivered items, writing nothing', async () => {
    const empty = await openOrder(server, []);
    const a = await close(waiter, empty.orderId, cash());
    expect(a.status).toBe(409);
    expect(a.body.error.message).toBe(GATE_EMPTY);

    const onlyDeleted = await openOrder(server, [{ product: 'Cerveza clara', quantity: 1, deleted: true }]);
    expect((await close(waiter, onlyDeleted.orderId, cash())).body.error.message).toBe(GATE_EMPTY);

    for (const status of ['pendiente', 'en_preparacion', 'listo'] as const) {
      const o = await openOrder(server, [
        { product: 'Cerveza clara', quantity: 1 },
        { product: 'Flan napolitano', quantity: 1, status },
      ]);
      const res = await close(waiter, o.orderId, cash());
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe(GATE_UNDELIVERED);
      expect((await orderRow(o.orderId)).status).toBe('activo');
      expect(await countPayments(o.orderId)).toBe(0);
    }
    // A deleted item that never left the kitchen does not block payment.
    const o = await openOrder(server, [
      { product: 'Cerveza clara', quantity: 1 },
      { product: 'Flan napolitano', quantity: 1, status: 'pendiente', deleted: true },
    ]);
    expect((await close(waiter, o.orderId, cash())).status).toBe(200);
  });

  it('needs a valid PIN and records whoever it belongs to as cashier', async () => {
    const o = await openOrder(server, [{ product: 'Michelada', quantity: 2 }]);
    const wrong = await close(waiter, o.orderId, cash({ pin: '9090' }));
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toBe('PIN incorrecto');
    expect((await close(waiter, o.orderId, cash({ pin: '12' }))).body.error.message).toBe('PIN incorrecto');
    expect(await countPayments(o.orderId)).toBe(0);

    // The waiter's session, the kitchen's PIN: the kitchen user took the money.
    const res = await close(waiter, o.orderId, cash({ pin: server.users.kitchen.pin }));
    expect(res.status).toBe(200);
    const [payment] = res.body.order.payments;
    expect(payment?.cashierId).toBe(server.users.kitchen.id);
    expect(payment?.cashierName).toBe(server.users.kitchen.displayName);
    const entry = await server.ctx.db.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', o.orderId)
      .where('action', '=', 'order.closed')
      .executeTakeFirstOrThrow();
    expect(entry.authorized_by).toBe(server.users.kitchen.id);
    expect(entry.actor_id).toBe(server.users.waiter.id);
  });

  it('recomputes every amount from the items and refuses forged fields', async () => {
    // 2 × 95.00 + 1 × 55.00 = 245.00; the deleted margarita does not count.
    const o = await openOrder(server, [
      { product: 'Tacos al pastor (3)', quantity: 2 },
      { product: 'Cerveza clara', quantity: 1 },
      { product: 'Margarita', quantity: 3, deleted: true },
    ]);
    const forged = await close(waiter, o.orderId, cash({ total: 1, subtotal: 1 }));
    expect(forged.status).toBe(400);
    expect((await close(waiter, o.orderId, cash({ method: 'tarjeta' }))).status).toBe(400);
    expect((await close(waiter, o.orderId, cash({ tipBps: 10_001 }))).status).toBe(400);
    expect((await close(waiter, o.orderId, cash({ receivedAmount: 10.5 }))).status).toBe(400);
    // A stale stored subtotal must not matter either.
    await server.ctx.db.db.updateTable('orders').set({ subtotal: 1, total: 1 }).where('id', '=', o.orderId).execute();

    const res = await close(waiter, o.orderId, cash({ tipBps: 1500, peopleCount: 3, receivedAmount: 300_00 }));
    expect(res.status).toBe(200);
    const { order } = res.body;
    expect(order).toMatchObject({
      status: 'pagado',
      paymentMethod: 'efectivo',
      subtotal: 245_00,
      tip: 36_75,
      total: 281_75,
      tax: null,
      peopleCount: 3,
    });
    expect(order.completedAt).toEqual(expect.any(Number));
    expect(order.payments).toHaveLength(1);
    expect(order.payments[0]).toMatchObject({
      method: 'efectivo',
      amount: 281_75,
      receivedAmount: 300_00,
      change: 18_25,
      tipAmount: 36_75,
      tipPercent: 0.15,
    });
    // The answer is built from the rows the close holds, not read again: it is what a read gives.
    expect((await waiter.get<{ order: Order }>(`/api/orders/${o.orderId}`)).body.order).toEqual(order);
  });

  it('rounds the tip to the centavo and refuses cash below the total', async () => {
    // 99.99 × 15 % = 14.9985 → 15.00; total 114.99
    const o = await openOrder(server, [{ product: 'Cerveza clara', quantity: 1 }]);
    await server.ctx.db.db.updateTable('order_items').set({ product_price: 99_99 }).where('order_id', '=', o.orderId).execute();
    const short = await close(waiter, o.orderId, cash({ tipBps: 1500, receivedAmount: 114_98 }));
    expect(short.status).toBe(422);
    expect(short.body.error.message).toBe('El monto recibido es menor al total');
    expect(await countPayments(o.orderId)).toBe(0);
    const exact = await close(waiter, o.orderId, cash({ tipBps: 1500, receivedAmount: 114_99 }));
    expect(exact.status).toBe(200);
    expect(exact.body.order).toMatchObject({ subtotal: 99_99, tip: 15_00, total: 114_99 });
    expect(exact.body.order.payments[0]).toMatchObject({ change: 0, receivedAmount: 114_99 });
  });

  it('answers a repeated key with the first response and refuses the key for another request', async () => {
    const o = await openOrder(server, [{ product: 'Guacamole con totopos', quantity: 1 }]);
    const k = key();
    const first = await close(waiter, o.orderId, cash({ tipBps: 1000 }), k);
    expect(first.status).toBe(200);
    const again = await close(waiter, o.orderId, cash({ tipBps: 1000 }), k);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await countPayments(o.orderId)).toBe(1);

    const changed = await close(waiter, o.orderId, cash({ tipBps: 2000 }), k);
    expect(changed.status).toBe(422);
    expect(changed.body.error.message).toBe('La clave de idempotencia ya se usó con otra solicitud');
    const otherKey = await close(waiter, o.orderId, cash({ tipBps: 1000 }));
    expect(otherKey.status).toBe(409);
    expect(otherKey.body.error.message).toBe('La orden ya fue pagada');

    for (const bad of [null, 'short', 'has spaces in it', 'x'.repeat(101)]) {
      const res = await close(waiter, o.orderId, cash(), bad);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/Idempotency-Key/);
    }
  });

  it('answers concurrent repeats of one key with the one result', async () => {
    const o = await openOrder(server, [{ product: 'Shot de mezcal', quantity: 3 }]);
    const k = key();
    const results = await Promise.all(Array.from({ length: 5 }, () => close(waiter, o.orderId, cash({ tipBps: 1000 }), k)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    for (const r of results) expect(r.body).toEqual(results[0]!.body);
    expect(await countPayments(o.orderId)).toBe(1);
  });

  it('lets exactly one of 20 concurrent closes win', async () => {
    const o = await openOrder(server, [{ product: 'Alitas BBQ (10)', quantity: 2 }]);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => close(i % 2 ? waiter : admin, o.orderId, cash({ pin: i % 2 ? '1111' : '1234', tipBps: 1000 }))),
    );
    const ok = results.filter((r) => r.status === 200);
    const conflicts = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(1);
    expect(conflicts).toHaveLength(19);
    for (const c of conflicts) expect(c.body.error.message).toBe('La orden ya fue pagada');
    expect(await countPayments(o.orderId)).toBe(1);
    const closes = await server.ctx.db.db
      .selectFrom('audit_log')
      .select('id')
      .where('entity_id', '=', o.orderId)
      .where('action', '=', 'order.closed')
      .execute();
    expect(closes).toHaveLength(1);
  });

  it('frees the table and keeps the paid order immutable', async () => {
    const o = await openOrder(server, [{ product: 'Queso fundido', quantity: 1 }]);
    expect((await close(admin, o.orderId, cash({ pin: '1234' }))).status).toBe(200);
    const t = await server.ctx.db.db.selectFrom('tables').selectAll().where('id', '=', o.tableId).executeTakeFirstOrThrow();
    expect(t).toMatchObject({ status: 'libre', waiter_id: null, waiter_name: null, current_order_id: null });
    expect((await orderRow(o.orderId)).active_table_id).toBeNull();

    const product = await server.ctx.db.db
      .selectFrom('products')
      .select('id')
      .where('name', '=', 'Cerveza clara')
      .executeTakeFirstOrThrow();
    const add = await admin.post<ErrorBody>(`/api/orders/${o.orderId}/items`, { productId: product.id, quantity: 1 });
    expect(add.status).toBe(409);
    const before = await orderRow(o.orderId);
    expect((await close(admin, o.orderId, cash({ pin: '1234', tipBps: 2000 }))).status).toBe(409);
    expect(await orderRow(o.orderId)).toEqual(before);
    // The table can be used again by a new order.
    const next = await openOrder(server, [{ product: 'Cerveza clara', quantity: 1 }], { tableId: o.tableId });
    expect((await close(waiter, next.orderId, cash())).status).toBe(200);
  });

  it('lets a waiter close only their own orders and keeps other roles out', async () => {
    const o = await openOrder(server, [{ product: 'Cerveza clara', quantity: 1 }], { waiter: 'waiter2' });
    expect((await close(waiter, o.orderId, cash())).status).toBe(403);
    const kitchen = await server.login(server.users.kitchen.email);
    expect((await close(kitchen, o.orderId, cash())).status).toBe(403);
    expect((await close(server.anonymous(), o.orderId, cash())).status).toBe(401);
    expect((await close(waiter, 'no-existe-123', cash())).status).toBe(404);
    const own = await server.login(server.users.waiter2.email);
    expect((await close(own, o.orderId, cash({ pin: server.users.waiter2.pin }))).status).toBe(200);
  });

  it('closes an order built through the tables, orders and board routes', async () => {
    const number = 7;
    const { tables } = (
      await waiter.get<{ tables: { id: string; number: number; status: string; currentOrderId: string | null }[] }>('/api/tables')
    ).body;
    const table = tables.find((t) => t.number === number)!;
    const opened = await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`);
    expect(opened.status).toBe(200);
    const orderId = opened.body.order.id;
    const { products } = (await waiter.get<{ products: { id: string; name: string }[] }>('/api/products?available=1')).body;
    const tacos = products.find((p) => p.name === 'Tacos al pastor (3)')!;
    const beer = products.find((p) => p.name === 'Cerveza clara')!;
    await waiter.post(`/api/orders/${orderId}/items`, { productId: tacos.id, quantity: 2 });
    const added = await waiter.post<{ order: Order }>(`/api/orders/${orderId}/items`, { productId: beer.id, quantity: 1 });
    expect((await close(waiter, orderId, cash())).body.error.message).toBe(GATE_UNDELIVERED);
    const kitchen = await server.login(server.users.kitchen.email);
    const barra = await server.login(server.users.barra.email);
    for (const item of added.body.order.items) {
      const who = item.station === 'cocina' ? kitchen : barra;
      expect((await who.patch(`/api/orders/${orderId}/items/${item.id}/status`, { status: 'entregado' })).status).toBe(200);
    }
    const res = await close(waiter, orderId, cash({ tipBps: 1500, peopleCount: 3, receivedAmount: 281_75 }));
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ subtotal: 245_00, tip: 36_75, total: 281_75, status: 'pagado' });
    const after = (
      await waiter.get<{ tables: { number: number; status: string; currentOrderId: string | null }[] }>('/api/tables')
    ).body.tables.find((t) => t.number === number);
    expect(after).toMatchObject({ status: 'libre', currentOrderId: null });
    expect((await waiter.get(`/api/tables/${table.id}/order`)).status).toBe(404);
    // Open again: a fresh order, the paid one untouched.
    expect((await waiter.post(`/api/tables/${table.id}/open`)).status).toBe(200);
    expect((await waiter.get<{ order: Order }>(`/api/orders/${orderId}`)).body.order.status).toBe('pagado');
  });

  it('refuses cash while a card payment for the order is still on the terminal', async () => {
    const { orderId } = await openOrder(server, [{ product: 'Cerveza clara', quantity: 2 }]);
    const now = server.ctx.clock.now();
    await insertCardPayment(server.ctx.db.db, orderId, {
      terminal_id: 'T1',
      amount: 11_000,
      idempotency_key: key(),
      provider_id: 'pi-1',
      state: 'processing',
      attempts: 1,
      created_by: server.users.waiter.id,
      created_at: now,
    });
    const res = await close(waiter, orderId, cash());
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toMatch(/cobro con tarjeta en curso/);
    expect(await countPayments(orderId)).toBe(0);
    await server.ctx.db.db.updateTable('card_payments').set({ state: 'rejected' }).where('order_id', '=', orderId).execute();
    expect((await close(waiter, orderId, cash())).status).toBe(200);
  });

  it('closes a card payment through the same command, without cash fields', async () => {
    const o = await openOrder(server, [{ product: 'Margarita', quantity: 2 }]);
    const order = await mutate(withoutKey(server.ctx), (trx, emit) =>
      closeOrderInTx(server.ctx, trx, {
        orderId: o.orderId,
        method: 'tarjeta',
        tipBps: 20_000,
        peopleCount: 0,
        receivedAmount: null,
        cashier: { id: 'mp-terminal', name: null },
        providerPaymentId: 'pay-123',
        actor: null,
        emit,
      }),
    );
    // An out-of-range rate is clamped to 100 %, a guest count below 1 becomes 1.
    expect(order).toMatchObject({
      status: 'pagado',
      paymentMethod: 'tarjeta',
      subtotal: 220_00,
      tip: 220_00,
      total: 440_00,
      peopleCount: 1,
    });
    expect(order.payments[0]).toMatchObject({
      receivedAmount: null,
      change: null,
      cashierId: 'mp-terminal',
      providerPaymentId: 'pay-123',
      tipPercent: 1,
    });
  });
});
