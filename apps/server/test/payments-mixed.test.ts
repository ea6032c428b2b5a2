import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddPaymentResponse, CardPayment, Order, TicketsPage } from '@comanda/contract';
import { testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { assertInvariants } from '../src/testing/invariants.ts';
import { type Simulator } from '../src/payments/mercadopago/simulator/server.ts';
import { shiftSummary } from '../src/features/cash-close/summary.query.ts';
import { findSession, sessionFigures } from '../src/model/drawer/drawer-store.ts';
import { approveOnTerminal, type CardServer, startCardServer, key, openReadyOrder, type Err } from './terminals-helpers.ts';
import { auditEntryCount } from '../src/testing/reads.ts';

type PayBody = Record<string, unknown>;

describe.each(testDatabaseKinds())('mixed payments and folios on %s', (kind) => {
  let sim: Simulator;
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let terminalN = 0;
  const newTerminal = () => sim.store.addTerminal(`PAX_A910__SMARTPOSMIX${kind.toUpperCase()}${++terminalN}`).id;

  const pay = (api: ApiClient, orderId: string, body: PayBody, idem = key()) =>
    api.post<AddPaymentResponse & Err>(`/api/orders/${orderId}/payments`, { pin: '1111', ...body }, { 'idempotency-key': idem });
  const cash = (amount: number, over: PayBody = {}) => ({ method: 'efectivo', amount, receivedAmount: 1_000_000, ...over });
  const transfer = (amount: number, over: PayBody = {}) => ({ method: 'transferencia', amount, ...over });
  const getOrder = async (id: string) => (await admin.get<{ order: Order }>(`/api/orders/${id}`)).body.order;
  const paymentRows = async (orderId: string) =>
    server.ctx.db.db.selectFrom('payments').selectAll().where('order_id', '=', orderId).execute();
  const auditCount = (action: string, entityId: string) => auditEntryCount(server.ctx.db.db, action, entityId);
  const cardPay = async (orderId: string, amount?: number, tipBps = 0) => {
    const res = await waiter.post<{ payment: CardPayment } & Err>(
      '/api/card-payments',
      { orderId, terminalId: newTerminal(), method: 'tarjeta', tipBps, peopleCount: 1, ...(amount === undefined ? {} : { amount }) },
      { 'idempotency-key': key() },
    );
    return res;
  };
  const approve = (paymentId: string) => approveOnTerminal({ sim, server }, waiter, paymentId, ['approved', 'needs_review']);

  let card: CardServer | undefined;
  beforeAll(async () => {
    card = await startCardServer(kind, 'TEST-7731-mixed-token');
    ({ sim, server, admin, waiter } = card);
  });
  afterAll(() => card?.close());

  it('cash + transfer + card parts close the order exactly once, with a folio and each method counted', async () => {
    const order = await openReadyOrder(server, admin, waiter, 1);
    const owed = order.subtotal;
    expect(order.balance).toBe(owed);
    expect(order.folio).toBeNull();
    const cashPart = 5000;
    const first = await pay(waiter, order.id, cash(cashPart, { tipBps: 1000, receivedAmount: 6000 }));
    expect(first.status).toBe(200);
    expect(first.body.closed).toBe(false);
    expect(first.body.payment).toMatchObject({ method: 'efectivo', amount: 5500, tipAmount: 500, receivedAmount: 6000, change: 500 });
    expect(first.body.order).toMatchObject({ status: 'activo', balance: owed - cashPart, folio: null });

    const chargesBefore = sim.store.payments.size;
    const second = await pay(waiter, order.id, transfer(3000, { tipAmount: 250, reference: 'SPEI 12345' }));
    expect(second.status).toBe(200);
    expect(second.body.payment).toMatchObject({ method: 'transferencia', amount: 3250, tipAmount: 250, reference: 'SPEI 12345' });
    // A transfer is only recorded: nothing reaches the card terminal.
    expect(sim.store.payments.size).toBe(chargesBefore);

    const rest = owed - cashPart - 3000;
    const card = await cardPay(order.id, rest, 1000);
    expect(card.status).toBe(201);
    expect(card.body.payment.amount).toBe(rest + Math.round(rest * 0.1));
    const done = await approve(card.body.payment.id);
    expect(done.state).toBe('approved');

    const paid = await getOrder(order.id);
    expect(paid.status).toBe('pagado');
    expect(paid.balance).toBe(0);
    expect(paid.folio).toEqual(expect.any(Number));
    expect(paid.payments.map((p) => p.method)).toEqual(['efectivo', 'transferencia', 'tarjeta']);
    const tips = paid.payments.reduce((s, p) => s + p.tipAmount, 0);
    expect(paid.tip).toBe(tips);
    expect(paid.total).toBe(owed + tips);
    expect(paid.payments.reduce((s, p) => s + p.amount, 0)).toBe(paid.total);
    expect(await auditCount('order.closed', order.id)).toBe(1);
    expect(await auditCount('order.payment_added', order.id)).toBe(3);

    // The cash close counts each payment under its own method, exactly.
    const summary = await shiftSummary(server.ctx.db.db, { start: 0, end: Number.MAX_SAFE_INTEGER });
    const own = await paymentRows(order.id);
    const byMethod = (m: string) => own.filter((p) => p.method === m).reduce((s, p) => s + Number(p.amount), 0);
    expect(summary.paymentMethods.efectivo).toBeGreaterThanOrEqual(byMethod('efectivo'));
    expect(summary.paymentMethods.transferencia).toBeGreaterThanOrEqual(byMethod('transferencia'));
    expect(summary.paymentMethods.efectivo + summary.paymentMethods.tarjeta + summary.paymentMethods.transferencia).toBe(
      summary.totalSales,
    );
    expect(summary.mixedOrders).toBeGreaterThanOrEqual(1);
    expect(summary.folios?.last).toBeGreaterThanOrEqual(paid.folio!);

    // The tickets history lists all three payments and finds the ticket by its folio.
    const found = await admin.get<TicketsPage>(`/api/tickets?search=${paid.folio}`);
    const ticket = found.body.tickets.find((t) => t.id === order.id);
    expect(ticket).toMatchObject({ folio: paid.folio });
    expect(ticket?.payments.map((p) => p.method)).toEqual(['efectivo', 'transferencia', 'tarjeta']);
    await assertInvariants(server.ctx.db);
  });

  it('refuses an overpayment, a zero part and a part of a paid order, writing no row', async () => {
    const order = await openReadyOrder(server, admin, waiter, 2);
    const over = await pay(waiter, order.id, cash(order.subtotal + 1));
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('payment_over_balance');
    expect(over.body.error.message).toMatch(/excede el saldo pendiente/);
    expect((await pay(waiter, order.id, cash(0))).status).toBe(400);
    const short = await pay(waiter, order.id, cash(1000, { receivedAmount: 999 }));
    expect(short.status).toBe(422);
    expect(await paymentRows(order.id)).toHaveLength(0);
    const all = await pay(waiter, order.id, transfer(order.subtotal));
    expect(all.body).toMatchObject({ closed: true, order: { status: 'pagado' } });
    const after = await pay(waiter, order.id, cash(100));
    expect(after.status).toBe(409);
    expect(await paymentRows(order.id)).toHaveLength(1);
  });

  it('a payment racing an item added reads the balance inside its transaction', async () => {
    const order = await openReadyOrder(server, admin, waiter, 3);
    const product = await server.ctx.db.db
      .selectFrom('products')
      .select(['id', 'price'])
      .where('name', '=', 'Cerveza clara')
      .executeTakeFirstOrThrow();
    const [paid, added] = await Promise.all([
      pay(waiter, order.id, cash(order.subtotal)),
      waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: product.id, quantity: 1 }),
    ]);
    const now = await getOrder(order.id);
    if (now.status === 'pagado') {
      // The payment won: the add was refused, nothing was added to a paid order.
      expect(paid.body.closed).toBe(true);
      expect(added.status).toBe(409);
      expect(now.subtotal).toBe(order.subtotal);
    } else {
      // The add won: the payment read the new item inside its transaction; it is not delivered
      // yet, so the SPEC gate refuses the payment and nothing is written.
      expect(added.status).toBe(200);
      expect(paid.status).toBe(409);
      expect(paid.body.error.code).toBe('items_undelivered');
      expect(await paymentRows(order.id)).toHaveLength(0);
      for (const item of now.items) await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' });
      // Paying what was owed before the add no longer settles it: the new item is still owed.
      const again = await pay(waiter, order.id, cash(order.subtotal));
      expect(again.body.closed).toBe(false);
      expect(again.body.order.balance).toBe(Number(product.price));
    }
    await assertInvariants(server.ctx.db);
  });

  it('an item cannot be removed below the parts already paid', async () => {
    const order = await openReadyOrder(server, admin, waiter, 9);
    await pay(waiter, order.id, cash(order.subtotal - 100));
    const item = order.items[0]!;
    const removed = await admin.post<Err>(`/api/orders/${order.id}/items/${item.id}/delete`, { pin: server.users.admin.pin });
    expect(removed.status).toBe(409);
    expect(removed.body.error.code).toBe('paid_parts_exceed');
    expect((await getOrder(order.id)).items.every((i) => !i.isDeleted)).toBe(true);
  });

  it('two devices paying the last part at once: exactly one closes, the other gets a 409 and no row', async () => {
    const order = await openReadyOrder(server, admin, waiter, 4);
    await pay(waiter, order.id, cash(1000));
    const balance = (await getOrder(order.id)).balance;
    const results = await Promise.all([
      pay(waiter, order.id, cash(balance)),
      pay(admin, order.id, transfer(balance, { pin: server.users.admin.pin })),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.body.error.message).toMatch(/ya fue pagada|no tiene saldo/);
    expect(await paymentRows(order.id)).toHaveLength(2);
    expect(await auditCount('order.closed', order.id)).toBe(1);
  });

  it('a partial card charge leaves the order open; the rest in cash closes it, the drawer counts the cash rows', async () => {
    expect((await admin.post('/api/drawer/open', { count: { b10000: 1 } })).status).toBe(200);
    const order = await openReadyOrder(server, admin, waiter, 5);
    const card = await cardPay(order.id, 2000);
    expect(card.body.payment.amount).toBe(2000);
    expect((await approve(card.body.payment.id)).state).toBe('approved');
    const open = await getOrder(order.id);
    expect(open).toMatchObject({ status: 'activo', balance: order.subtotal - 2000, folio: null });
    expect(open.payments).toHaveLength(1);
    // A second charge above the balance is refused before reaching the terminal.
    expect((await cardPay(order.id, open.balance + 1)).status).toBe(409);
    const a = await pay(waiter, order.id, cash(1000, { receivedAmount: 1000 }));
    const b = await pay(waiter, order.id, cash(open.balance - 1000, { receivedAmount: open.balance }));
    expect(a.body.closed).toBe(false);
    expect(b.body.closed).toBe(true);
    const session = await server.ctx.db.db
      .selectFrom('drawer_sessions')
      .selectAll()
      .where('status', '=', 'abierta')
      .executeTakeFirstOrThrow();
    const figures = await sessionFigures(server.ctx.db.db, (await findSession(server.ctx.db.db, session.id))!, server.ctx.clock.now() + 1);
    expect(figures.cashSales).toBe(open.balance);
    expect(figures.cashCount).toBe(2);
    await assertInvariants(server.ctx.db);
  });

  it('folios are consecutive; a close that fails after taking a folio gives it back', async () => {
    const folioOf = async (id: string) => (await getOrder(id)).folio!;
    const a = await openReadyOrder(server, admin, waiter, 6);
    await pay(waiter, a.id, cash(a.subtotal));
    const first = await folioOf(a.id);

    // With drawer control on and no open session, the cash close fails after the folio was taken.
    const open = await server.ctx.db.db.selectFrom('drawer_sessions').select('id').where('status', '=', 'abierta').execute();
    for (const s of open) {
      const res = await admin.post(`/api/drawer/sessions/${s.id}/corte-z`, {
        count: { b10000: 1 },
        comment: 'cierre de prueba',
        cashierPin: server.users.waiter.pin,
        adminPin: server.users.admin.pin,
      });
      if (res.status !== 200) throw new Error(`corte z: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect((await admin.put('/api/drawer/settings', { enabled: true })).status).toBe(200);
    const b = await openReadyOrder(server, admin, waiter, 7);
    const refused = await waiter.post<Err>(
      `/api/orders/${b.id}/close`,
      { method: 'efectivo', pin: '1111', tipBps: 0, peopleCount: 1, receivedAmount: b.subtotal },
      { 'idempotency-key': key() },
    );
    expect(refused.status).toBe(409);
    const refusedPart = await pay(waiter, b.id, cash(b.subtotal));
    expect(refusedPart.status).toBe(409);
    expect((await getOrder(b.id)).folio).toBeNull();
    await admin.put('/api/drawer/settings', { enabled: false });

    // A transfer needs no drawer: it closes with the very next folio.
    await pay(waiter, b.id, transfer(b.subtotal));
    expect(await folioOf(b.id)).toBe(first + 1);
    const c = await openReadyOrder(server, admin, waiter, 8);
    await waiter.post(
      `/api/orders/${c.id}/close`,
      { method: 'efectivo', pin: '1111', tipBps: 1500, peopleCount: 1, receivedAmount: c.subtotal * 2 },
      { 'idempotency-key': key() },
    );
    expect(await folioOf(c.id)).toBe(first + 2);
    await assertInvariants(server.ctx.db);
  });
});
