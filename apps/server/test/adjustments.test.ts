import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdjustmentsSummary, CardPayment, Order, Table } from '@comanda/contract';
import { assertInvariants, startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { businessDate, zonedToUtc } from '@comanda/domain';
import { startSimulator, type Simulator } from '../src/payments/mercadopago/simulator/server.ts';
import { cardEnv, key, providerIdOnceSent, waitFor, type Err } from './terminals-helpers.ts';

type Res = { order: Order } & Err;

const BEER = 5_500; // Cerveza clara
const TACOS = 9_500; // Tacos al pastor (3)

describe.each(testDatabaseKinds())('discounts and comps on %s', (kind) => {
  let sim: Simulator;
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let waiter2: ApiClient;
  let products: Record<string, string>;
  const TERMINAL = 'NEWLAND_N950__N950NCB801293399';
  let nextTable = 1;
  // The server's clock runs at 20:00 of today's business date in Mexico City, whatever the hour of
  // the run: payments between 03:00 and 17:00 belong to no shift, so the cash close below reads the
  // shift the orders were really paid in.
  const tz = 'America/Mexico_City';
  const shiftDate = businessDate(new Date(), tz);
  const offset = zonedToUtc(shiftDate, 20, 0, tz).getTime() - Date.now();

  beforeAll(async () => {
    sim = await startSimulator({ token: 'APP_USR-77-adjust-token', terminals: [TERMINAL] });
    server = await startTestServer(kind, { env: cardEnv(sim), clock: { now: () => Date.now() + offset } });
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    waiter2 = await server.login(server.users.waiter2.email);
    const rows = await server.ctx.db.db.selectFrom('products').select(['id', 'name']).execute();
    products = Object.fromEntries(rows.map((r) => [r.name, r.id]));
  });
  afterAll(async () => {
    await server?.close();
    await sim?.close();
  });

  /** The waiter opens the next table and orders `beers` beers and `tacos` tacos. */
  async function openOrder(beers: number, tacos = 0, who = waiter): Promise<Order> {
    const list = await who.get<{ tables: Table[] }>('/api/tables');
    if (list.status !== 200) throw new Error(`tables: ${list.status} ${JSON.stringify(list.body)}`);
    const tables = list.body.tables;
    const number = nextTable++;
    const table = tables.find((t) => t.number === number)!;
    const opened = await who.post<Res>(`/api/tables/${table.id}/open`);
    if (opened.status !== 200) throw new Error(`open ${table.number}: ${opened.status} ${JSON.stringify(opened.body)}`);
    let order = opened.body.order;
    if (beers)
      order = (await who.post<Res>(`/api/orders/${order.id}/items`, { productId: products['Cerveza clara'], quantity: beers })).body.order;
    if (tacos)
      order = (await who.post<Res>(`/api/orders/${order.id}/items`, { productId: products['Tacos al pastor (3)'], quantity: tacos })).body
        .order;
    return order;
  }
  const deliverAll = async (order: Order) => {
    for (const item of order.items.filter((i) => !i.isDeleted)) {
      const res = await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' });
      expect(res.status).toBe(200);
    }
  };
  const adjust = (order: Order, body: Record<string, unknown>, who = waiter) =>
    who.post<Res>(`/api/orders/${order.id}/adjustments`, { reason: 'Cliente frecuente', pin: server.users.admin.pin, ...body });
  const line = (order: Order, productName: string) => order.items.find((i) => i.productName === productName && !i.isDeleted)!;
  const stored = (orderId: string) => server.ctx.db.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();

  it('comps a beer and discounts the check 10 %, audited with the PIN user and the reason', async () => {
    const order = await openOrder(3, 2); // 3 × 55 + 2 × 95 = 355.00
    const comp = await adjust(order, {
      kind: 'comp',
      scope: 'item',
      itemId: line(order, 'Cerveza clara').id,
      units: 1,
      reason: 'Cortesía de la casa',
    });
    expect(comp.status).toBe(200);
    expect(comp.body.order).toMatchObject({ subtotal: 35_500, comp: BEER, discount: 0, total: 30_000 });
    const disc = await adjust(order, { kind: 'discount', scope: 'order', percentBps: 1000, reason: 'Otro', note: 'Cumpleaños' });
    expect(disc.status).toBe(200);
    expect(disc.body.order).toMatchObject({ subtotal: 35_500, comp: BEER, discount: 3000, total: 27_000 });
    expect(disc.body.order.adjustments).toEqual([
      expect.objectContaining({
        kind: 'comp',
        units: 1,
        amount: BEER,
        reason: 'Cortesía de la casa',
        authorizedByName: 'Ana Administradora',
        createdByName: 'Mario Mesero',
      }),
      expect.objectContaining({ kind: 'discount', itemId: null, percentBps: 1000, amount: 3000, reason: 'Otro', note: 'Cumpleaños' }),
    ]);
    const audits = await server.ctx.db.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', order.id)
      .where('action', 'in', ['order.comp-added', 'order.discount-added'])
      .orderBy('seq')
      .execute();
    expect(audits.map((a) => a.action)).toEqual(['order.comp-added', 'order.discount-added']);
    expect(audits.every((a) => a.authorized_by === server.users.admin.id && a.actor_id === server.users.waiter.id)).toBe(true);
    expect(JSON.parse(audits[1]!.data!)).toMatchObject({ reason: 'Otro', note: 'Cumpleaños', amount: 3000 });
    await assertInvariants(server.ctx.db);
  });

  it('a line discount by amount clamps to the line, and every figure follows item changes', async () => {
    const order = await openOrder(1, 1); // 55 + 95
    const tacos = line(order, 'Tacos al pastor (3)');
    const res = await adjust(order, { kind: 'discount', scope: 'item', itemId: tacos.id, amount: 15_000 });
    expect(res.body.order).toMatchObject({ discount: TACOS, total: BEER });
    expect(res.body.order.adjustments![0]).toMatchObject({ requestedAmount: 15_000, amount: TACOS });
    // Two more tacos come as a new line: the line discount stays on its own line.
    const more = await waiter.post<Res>(`/api/orders/${order.id}/items/${tacos.id}/units`, { quantity: 2 });
    expect(more.body.order).toMatchObject({ subtotal: BEER + 3 * TACOS, discount: TACOS, total: BEER + 2 * TACOS });
    // A 50 % check discount on what is left, re-applied whenever the items change.
    const half = await adjust(order, { kind: 'discount', scope: 'order', percentBps: 5000 });
    expect(half.body.order.discount).toBe(TACOS + (BEER + 2 * TACOS) / 2);
    const pin = { pin: server.users.admin.pin };
    const beer = line(half.body.order, 'Cerveza clara');
    const noBeer = await waiter.post<Res>(`/api/orders/${order.id}/items/${beer.id}/delete`, pin);
    expect(noBeer.status).toBe(200);
    expect(noBeer.body.order).toMatchObject({ subtotal: 3 * TACOS, discount: TACOS + TACOS, total: TACOS });
    // The discounted line is deleted: its discount is removed with it (decision 0022), audited.
    const noLine = await waiter.post<Res>(`/api/orders/${order.id}/items/${tacos.id}/delete`, pin);
    expect(noLine.body.order).toMatchObject({ subtotal: 2 * TACOS, discount: TACOS, total: TACOS });
    expect(noLine.body.order.adjustments!.map((a) => a.amount)).toEqual([TACOS]);
    const removed = await server.ctx.db.db
      .selectFrom('order_adjustments')
      .select(['id', 'removed_by'])
      .where('order_id', '=', order.id)
      .where('removed_at', 'is not', null)
      .execute();
    expect(removed).toHaveLength(1);
    const why = await server.ctx.db.db
      .selectFrom('audit_log')
      .select('data')
      .where('action', '=', 'order.discount-removed')
      .where('entity_id', '=', order.id)
      .execute();
    expect(why.map((r) => JSON.parse(r.data!).removedBecause)).toEqual(['item-deleted']);
    await assertInvariants(server.ctx.db);
  });

  it('never comps more units than the line has, nor discounts what is left at 0', async () => {
    const order = await openOrder(2);
    const beer = line(order, 'Cerveza clara');
    expect((await adjust(order, { kind: 'comp', scope: 'item', itemId: beer.id, units: 3 })).status).toBe(409);
    expect((await adjust(order, { kind: 'comp', scope: 'item', itemId: beer.id, units: 2 })).status).toBe(200);
    const again = await adjust(order, { kind: 'comp', scope: 'item', itemId: beer.id, units: 1 });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('No hay tantas unidades sin cortesía en esta línea');
    const nothing = await adjust(order, { kind: 'discount', scope: 'order', amount: 100 });
    expect(nothing.status).toBe(409);
    expect(nothing.body.error.message).toBe('No queda nada por descontar en esta orden');
    // Malformed requests are refused by the contract.
    expect((await adjust(order, { kind: 'discount', scope: 'order', amount: 100, percentBps: 100 })).status).toBe(400);
    expect((await adjust(order, { kind: 'discount', scope: 'order', percentBps: 10_001 })).status).toBe(400);
    expect((await adjust(order, { kind: 'comp', scope: 'order', units: 1 })).status).toBe(400);
    expect((await adjust(order, { kind: 'discount', scope: 'order', amount: 100, reason: 'Otro' })).status).toBe(400);
    expect((await adjust(order, { kind: 'discount', scope: 'order', amount: 100, reason: 'Porque sí' })).status).toBe(400);
  });

  it('an amount off the check larger than what is left is refused in Spanish, not clamped; nothing is written', async () => {
    const order = await openOrder(2); // 110.00
    const beer = line(order, 'Cerveza clara');
    expect((await adjust(order, { kind: 'comp', scope: 'item', itemId: beer.id, units: 1 })).status).toBe(200);
    const over = await adjust(order, { kind: 'discount', scope: 'order', amount: 10_000 });
    expect(over.status).toBe(409);
    expect(over.body.error).toEqual({
      code: 'discount_over_bill',
      message: 'El descuento es mayor a lo que queda por pagar en esta orden. Quedan $55.00.',
    });
    const written = await server.ctx.db.db
      .selectFrom('order_adjustments')
      .select('kind')
      .where('order_id', '=', order.id)
      .where('kind', '=', 'discount')
      .execute();
    expect(written).toEqual([]);
    const audits = await server.ctx.db.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', order.id)
      .where('action', '=', 'order.discount-added')
      .execute();
    expect(audits).toEqual([]);
    expect(Number((await stored(order.id)).discount)).toBe(0);
    // Exactly what is left is a discount like any other.
    const exact = await adjust(order, { kind: 'discount', scope: 'order', amount: BEER });
    expect(exact.status).toBe(200);
    expect(exact.body.order).toMatchObject({ discount: BEER, comp: BEER, total: 0 });
  });

  it('needs an admin PIN; a waiter works only their own orders; removal is audited', async () => {
    const order = await openOrder(2);
    const wrong = await adjust(order, { kind: 'discount', scope: 'order', percentBps: 1000, pin: '9090' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toBe('PIN incorrecto');
    const own = await adjust(order, { kind: 'discount', scope: 'order', percentBps: 1000, pin: server.users.waiter.pin });
    expect(own.status).toBe(403);
    const otherWaiter = await adjust(order, { kind: 'discount', scope: 'order', percentBps: 1000 }, waiter2);
    expect(otherWaiter.status).toBe(403);
    expect((await stored(order.id)).discount).toBe(0);

    const byAdmin = await adjust(order, { kind: 'discount', scope: 'order', percentBps: 1000 }, admin);
    expect(byAdmin.status).toBe(200);
    const adj = byAdmin.body.order.adjustments![0]!;
    const removeWrong = await waiter.delete<Res>(`/api/orders/${order.id}/adjustments/${adj.id}`, { pin: '9090' });
    expect(removeWrong.status).toBe(403);
    const removed = await waiter.delete<Res>(`/api/orders/${order.id}/adjustments/${adj.id}`, { pin: server.users.admin.pin });
    expect(removed.status).toBe(200);
    expect(removed.body.order).toMatchObject({ discount: 0, total: 2 * BEER, adjustments: [] });
    const twice = await waiter.delete<Res>(`/api/orders/${order.id}/adjustments/${adj.id}`, { pin: server.users.admin.pin });
    expect(twice.status).toBe(409);
    const row = await server.ctx.db.db.selectFrom('order_adjustments').selectAll().where('id', '=', adj.id).executeTakeFirstOrThrow();
    expect(row.removed_by).toBe(server.users.admin.id);
    expect(row.removed_at).not.toBeNull();
    await assertInvariants(server.ctx.db);
  });

  it('closes with a discount: the payment is what is owed plus the tip on it; paid orders refuse adjustments', async () => {
    const order = await openOrder(2, 1); // 110 + 95 = 205.00
    await adjust(order, { kind: 'comp', scope: 'item', itemId: line(order, 'Cerveza clara').id, units: 1 });
    await adjust(order, { kind: 'discount', scope: 'order', percentBps: 1000 }); // 10 % of 150.00
    await deliverAll(order);
    const res = await waiter.post<Res>(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 1000, peopleCount: 2, receivedAmount: 20_000 },
      { 'idempotency-key': key() },
    );
    expect(res.status).toBe(200);
    // owed 135.00, tip 13.50, total 148.50
    expect(res.body.order).toMatchObject({ status: 'pagado', subtotal: 20_500, comp: BEER, discount: 1500, tip: 1350, total: 14_850 });
    expect(res.body.order.payments[0]).toMatchObject({ amount: 14_850, tipAmount: 1350, change: 20_000 - 14_850 });
    // Built from the rows the close holds (the adjustments' amounts as it recomputed them): what a read gives.
    expect((await admin.get<Res>(`/api/orders/${order.id}`)).body.order).toEqual(res.body.order);
    const late = await adjust(order, { kind: 'discount', scope: 'order', percentBps: 1000 });
    expect(late.status).toBe(409);
    const adj = res.body.order.adjustments![0]!;
    expect((await waiter.delete<Res>(`/api/orders/${order.id}/adjustments/${adj.id}`, { pin: server.users.admin.pin })).status).toBe(409);
    await assertInvariants(server.ctx.db);
  });

  it('an entirely comped order closes with total 0', async () => {
    const order = await openOrder(1, 1);
    expect((await adjust(order, { kind: 'comp', scope: 'order', reason: 'Compensación por demora' })).body.order).toMatchObject({
      comp: BEER + TACOS,
      total: 0,
    });
    await deliverAll(order);
    const res = await waiter.post<Res>(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 1500, peopleCount: 1, receivedAmount: 0 },
      { 'idempotency-key': key() },
    );
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ status: 'pagado', comp: BEER + TACOS, tip: 0, total: 0 });
    expect((await admin.get<Res>(`/api/orders/${order.id}`)).body.order).toEqual(res.body.order);
    await assertInvariants(server.ctx.db);
  });

  it('the card is charged what is owed; adjustments wait while the terminal is charging', async () => {
    const order = await openOrder(2, 1); // 205.00
    await adjust(order, { kind: 'discount', scope: 'order', amount: 5_000 });
    await deliverAll(order);
    const started = await waiter.post<{ payment: CardPayment }>(
      '/api/card-payments',
      { orderId: order.id, terminalId: TERMINAL, method: 'tarjeta', tipBps: 1000, peopleCount: 1 },
      { 'idempotency-key': key() },
    );
    expect([200, 201]).toContain(started.status);
    expect(started.body.payment.amount).toBe(15_500 + 1_550);
    const frozen = await adjust(order, { kind: 'discount', scope: 'order', percentBps: 1000 });
    expect(frozen.status).toBe(409);
    expect(frozen.body.error.message).toBe('Hay un cobro con tarjeta en curso para esta orden. Espera a que termine o cancélalo.');
    const remote = sim.store.payments.get(await providerIdOnceSent(server, started.body.payment.id))!;
    sim.store.apply(remote.id, 'approve');
    await waitFor(
      async () => (await waiter.get<{ payment: CardPayment }>(`/api/card-payments/${started.body.payment.id}`)).body.payment,
      (p) => p.state === 'approved',
    );
    const paid = (await admin.get<Res>(`/api/orders/${order.id}`)).body.order;
    expect(paid).toMatchObject({ status: 'pagado', discount: 5_000, tip: 1_550, total: 17_050 });
    expect(paid.payments[0]!.amount).toBe(17_050);
    await assertInvariants(server.ctx.db);
  });

  it("the cash close sums the paid orders' discounts and comps by reason and by user", async () => {
    const res = await admin.get<AdjustmentsSummary>(`/api/cash-close/adjustments?date=${shiftDate}`);
    expect(res.status).toBe(200);
    // Paid above: comp 55.00 + 10 % (15.00) "Cliente frecuente"; a whole comp of 150.00 "Compensación
    // por demora"; 50.00 off "Cliente frecuente" paid by card. Open orders and removed ones do not count.
    expect(res.body.byReason).toEqual([
      { key: 'Compensación por demora', discountCount: 0, discountAmount: 0, compCount: 1, compAmount: BEER + TACOS },
      { key: 'Cliente frecuente', discountCount: 2, discountAmount: 6_500, compCount: 1, compAmount: BEER },
    ]);
    expect(res.body.byUser).toEqual([
      { key: 'Mario Mesero', discountCount: 2, discountAmount: 6_500, compCount: 2, compAmount: 2 * BEER + TACOS },
    ]);
    expect(res.body).toMatchObject({ totalDiscounts: 6_500, totalComps: 2 * BEER + TACOS });
  });
});
