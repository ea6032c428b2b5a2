import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardPayment, CardTerminal, TestCharge } from '@comanda/contract';
import {
  fewestStatements,
  startTestServer,
  statementsDuring,
  testDatabaseKinds,
  type ApiClient,
  type TestServer,
} from '../src/testing/index.ts';
import { startSimulator, type Simulator } from '../src/payments/mercadopago/simulator/server.ts';
import { signWebhook } from '../src/payments/mercadopago/webhook-signature.ts';
import { cardEnv, cardVerbs, key, openReadyOrder, sleep, waitFor, type Err } from './terminals-helpers.ts';
import { auditEntryCount, orderItemRowCount } from '../src/testing/reads.ts';

const WEBHOOK_SECRET = 'whsec-test-0123456789';

describe.each(testDatabaseKinds())('card terminal payments on %s', (kind) => {
  let sim: Simulator;
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  const { newTerminal, act, pay, untilState, getOrder, providerIdOf } = cardVerbs(
    () => ({ sim, server, admin, reader: waiter }),
    `SMARTPOS${kind.toUpperCase()}`,
  );
  const auditCount = (action: string, entityId: string) => auditEntryCount(server.ctx.db.db, action, entityId);

  beforeAll(async () => {
    sim = await startSimulator({ token: 'TEST-4821-integration-token' });
    // The inventory's and receipts' workers held still: the card start's count sees none of theirs.
    server = await startTestServer(kind, { env: cardEnv(sim, { MP_WEBHOOK_SECRET: WEBHOOK_SECRET }), backgroundWorkers: false });
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
  });
  afterAll(async () => {
    await server?.close();
    await sim?.close();
  });

  it('approved: the server closes the order once, with cashier mp-terminal and the tip', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 1);
    const res = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 1000, peopleCount: 2 });
    expect(res.status).toBe(201);
    // Answered as committed, before the provider is called (decision 0039); on the terminal right after.
    expect(res.body.payment).toMatchObject({
      state: 'creating',
      dialogState: 'sending',
      amount: Math.round(order.subtotal * 1.1),
      tipAmount: Math.round(order.subtotal * 0.1),
    });
    expect(await untilState(res.body.payment.id, 'pending')).toMatchObject({ dialogState: 'processing' });
    const providerId = await providerIdOf(res.body.payment.id);
    expect(sim.store.payments.get(providerId)).toMatchObject({
      amountCents: res.body.payment.amount,
      externalReference: res.body.payment.id,
    });
    act(providerId, 'tap');
    await untilState(res.body.payment.id, 'processing');
    act(providerId, 'approve');
    const done = await untilState(res.body.payment.id, 'approved');
    expect(done).toMatchObject({ dialogState: 'success', message: null, providerPaymentId: sim.store.payments.get(providerId)?.paymentId });
    const paid = await getOrder(order.id);
    expect(paid).toMatchObject({ status: 'pagado', paymentMethod: 'tarjeta', peopleCount: 2, total: res.body.payment.amount });
    expect(paid.payments).toHaveLength(1);
    expect(paid.payments[0]).toMatchObject({
      cashierId: 'mp-terminal',
      method: 'tarjeta',
      amount: res.body.payment.amount,
      tipPercent: 0.1,
      receivedAmount: null,
    });
    await sleep(100); // the poller keeps reading for a moment: still one payment
    expect((await getOrder(order.id)).payments).toHaveLength(1);
    expect(await auditCount('order.closed', order.id)).toBe(1);
  });

  it('rejected: the order stays open and a retry with a new key makes a new attempt', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 2);
    const first = await pay(waiter, { orderId: order.id, terminalId, method: 'transferencia', tipBps: 0, peopleCount: 1 });
    act(await providerIdOf(first.body.payment.id), 'tap', 'reject');
    expect(await untilState(first.body.payment.id, 'rejected')).toMatchObject({ dialogState: 'rejected', message: 'Pago rechazado' });
    expect((await getOrder(order.id)).status).toBe('activo');
    expect((await waiter.get<{ payment: CardPayment | null }>(`/api/card-payments?orderId=${order.id}`)).body.payment).toBeNull();

    const retry = await pay(waiter, { orderId: order.id, terminalId, method: 'transferencia', tipBps: 0, peopleCount: 1 });
    expect(retry.status).toBe(201);
    expect(retry.body.payment.id).not.toBe(first.body.payment.id);
    act(await providerIdOf(retry.body.payment.id), 'approve');
    await untilState(retry.body.payment.id, 'approved');
    const paid = await getOrder(order.id);
    expect(paid).toMatchObject({ status: 'pagado', paymentMethod: 'transferencia' });
    expect(paid.payments).toHaveLength(1);
  });

  it('a cancel at the terminal reads as cancelled; the order stays open', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 3);
    const res = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    act(await providerIdOf(res.body.payment.id), 'tap', 'cancel');
    expect(await untilState(res.body.payment.id, 'cancelled')).toMatchObject({
      dialogState: 'rejected',
      message: 'Pago cancelado por el cliente.',
    });
    expect((await getOrder(order.id)).status).toBe('activo');
  });

  it('never two live attempts per order; the same key answers the same attempt; reload finds it', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 4);
    const body = { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 1500, peopleCount: 1 };
    const idem = key();
    const [a, b] = await Promise.all([pay(waiter, body, idem), pay(waiter, body, idem)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.payment.id).toBe(b.body.payment.id);
    await untilState(a.body.payment.id, 'pending');
    expect([...sim.store.payments.values()].filter((p) => p.externalReference === a.body.payment.id)).toHaveLength(1);
    const reused = await pay(waiter, { ...body, tipBps: 0 }, idem);
    expect(reused.status).toBe(422);
    const second = await pay(admin, body);
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe('Hay un cobro con tarjeta en curso para esta orden. Espera a que termine o cancélalo.');
    const active = await waiter.get<{ payment: CardPayment | null }>(`/api/card-payments?orderId=${order.id}`);
    expect(active.body.payment?.id).toBe(a.body.payment.id);
    // Staff give up while it is still queued: it comes off the terminal.
    const cancelled = await waiter.post<{ payment: CardPayment }>(`/api/card-payments/${a.body.payment.id}/cancel`);
    expect(cancelled.body.payment.state).toBe('cancelled');
    expect(sim.store.payments.get(await providerIdOf(a.body.payment.id))?.status).toBe('cancelled');
    expect((await getOrder(order.id)).status).toBe('activo');
  });

  it('refuses under $5.00, undelivered items, other waiters, kitchen and forged fields', async () => {
    const terminalId = newTerminal();
    const now = Date.now();
    const cheapId = `cheap-${kind}`;
    await server.ctx.db.db
      .insertInto('products')
      .values({
        id: cheapId,
        name: 'Chicle',
        description: '',
        price: 300,
        category: 'Servicio',
        image_url: null,
        available: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const cheap = await openReadyOrder(server, admin, waiter, 5, cheapId);
    const small = await pay(waiter, { orderId: cheap.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    expect(small.status).toBe(400);
    expect(small.body.error.message).toBe('El monto mínimo para cobrar es $5.00 MXN (recibido: $3.00 MXN)');
    const withTip = await pay(waiter, { orderId: cheap.id, terminalId, method: 'tarjeta', tipBps: 10_000, peopleCount: 1 });
    expect(withTip.status).toBe(201);
    await waiter.post(`/api/card-payments/${withTip.body.payment.id}/cancel`);

    const undelivered = await openReadyOrder(server, admin, waiter, 6, undefined, false);
    const gate = await pay(waiter, { orderId: undelivered.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    expect(gate.status).toBe(409);
    expect(gate.body.error.message).toBe(
      'No puedes proceder al pago: la orden tiene ítems pendientes, en preparación o listos (no entregados).',
    );

    const other = await server.login(server.users.waiter2.email);
    expect((await pay(other, { orderId: cheap.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 })).status).toBe(403);
    const kitchen = await server.login(server.users.kitchen.email);
    expect((await pay(kitchen, { orderId: cheap.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 })).status).toBe(403);
    const forged = await pay(waiter, { orderId: cheap.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1, amount: 1 });
    expect(forged.status).toBe(400);
    const cash = await pay(waiter, { orderId: cheap.id, terminalId, method: 'efectivo', tipBps: 0, peopleCount: 1 });
    expect(cash.status).toBe(400);
    const noKey = await waiter.post('/api/card-payments', { orderId: cheap.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    expect(noKey.status).toBe(400);
  });

  it('a double webhook, racing the poll, makes one payment; a bad signature is refused', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 7);
    const res = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    const providerId = await providerIdOf(res.body.payment.id);
    const anon = server.anonymous();
    const forged = await anon.post(
      `/api/webhooks/mercadopago?data.id=${providerId}&type=point_integration_wh`,
      { data: { id: providerId } },
      { 'x-signature': 'ts=1,v1=' + 'a'.repeat(64), 'x-request-id': 'r-1' },
    );
    expect(forged.status).toBe(401);
    act(providerId, 'tap', 'approve');
    const notify = (requestId: string) =>
      anon.post(
        `/api/webhooks/mercadopago?data.id=${providerId}&type=point_integration_wh`,
        { action: 'state_FINISHED', data: { id: providerId } },
        { 'x-signature': signWebhook(WEBHOOK_SECRET, providerId, requestId, '1704908010'), 'x-request-id': requestId },
      );
    const answers = await Promise.all([notify('r-2'), notify('r-3'), notify('r-4')]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    await untilState(res.body.payment.id, 'approved');
    const paid = await getOrder(order.id);
    expect(paid.status).toBe('pagado');
    expect(paid.payments).toHaveLength(1);
    expect(await auditCount('order.closed', order.id)).toBe(1);
    expect(await auditCount('card_payment.approved', res.body.payment.id)).toBe(1);
    expect((await notify('r-5')).status).toBe(200);
  });

  it('a late approval after the dialog gave up still closes the order', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 8);
    const res = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    const providerId = await providerIdOf(res.body.payment.id);
    act(providerId, 'tap');
    // Closing the dialog cannot pull it off a terminal the customer is holding.
    const cancel = await waiter.post<{ payment: CardPayment }>(`/api/card-payments/${res.body.payment.id}/cancel`);
    expect(cancel.body.payment.state).toBe('processing');
    const timedOut = await untilState(res.body.payment.id, 'timeout');
    expect(timedOut).toMatchObject({
      dialogState: 'error',
      message: 'Tiempo de espera agotado. El cliente no completó el pago.',
      attempts: 18,
    });
    // A retry while the terminal still holds it is refused: the customer is never charged twice.
    const retry = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    expect(retry.status).toBe(409);
    expect(retry.body.error.message).toBe(
      'La terminal todavía tiene un cobro en curso para esta orden. Termínalo o cancélalo en la terminal.',
    );
    act(providerId, 'approve');
    await untilState(res.body.payment.id, 'approved');
    const paid = await getOrder(order.id);
    expect(paid.status).toBe('pagado');
    expect(paid.payments[0]?.cashierId).toBe('mp-terminal');
  });

  it('an add while a timed-out payment is still on the terminal asks the provider first and stays refused', async () => {
    const terminalId = newTerminal();
    await admin.post('/api/tables', { number: 34 });
    const order = await openReadyOrder(server, admin, waiter, 34);
    const res = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    const providerId = await providerIdOf(res.body.payment.id);
    act(providerId, 'tap');
    await waiter.post(`/api/card-payments/${res.body.payment.id}/cancel`);
    await untilState(res.body.payment.id, 'timeout');
    const product = await server.ctx.db.db
      .selectFrom('products')
      .select('id')
      .where('name', '=', 'Flan napolitano')
      .executeTakeFirstOrThrow();
    // The add settles the timed-out attempt with the provider (still on the terminal), then refuses.
    const added = await waiter.post<Err>(
      `/api/orders/${order.id}/items`,
      { productId: product.id, quantity: 1 },
      { 'idempotency-key': key() },
    );
    expect(added.status).toBe(409);
    expect(added.body.error.code).toBe('order_frozen');
    expect((await getOrder(order.id)).items).toHaveLength(order.items.length);
    act(providerId, 'approve');
    await untilState(res.body.payment.id, 'approved');
    const late = await waiter.post<Err>(`/api/orders/${order.id}/items`, { productId: product.id, quantity: 1 });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('order_closed');
  });

  it('an add that finds a timed-out payment the customer cancelled settles it, then adds exactly once under its key', async () => {
    const terminalId = newTerminal();
    await admin.post('/api/tables', { number: 35 });
    const order = await openReadyOrder(server, admin, waiter, 35);
    const res = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    const providerId = await providerIdOf(res.body.payment.id);
    act(providerId, 'tap');
    await waiter.post(`/api/card-payments/${res.body.payment.id}/cancel`);
    await untilState(res.body.payment.id, 'timeout');
    act(providerId, 'cancel'); // the customer cancels on the terminal: nothing was charged
    const product = await server.ctx.db.db
      .selectFrom('products')
      .select('id')
      .where('name', '=', 'Flan napolitano')
      .executeTakeFirstOrThrow();
    // Still 'timeout' in our rows: the add itself must ask the provider (its roll back and rerun).
    const attempt = await server.ctx.db.db
      .selectFrom('card_payments')
      .select('state')
      .where('id', '=', res.body.payment.id)
      .executeTakeFirstOrThrow();
    expect(attempt.state).toBe('timeout');
    const before = await orderItemRowCount(server.ctx.db.db, order.id);
    const sameKey = key();
    const add = () => waiter.post(`/api/orders/${order.id}/items`, { productId: product.id, quantity: 1 }, { 'idempotency-key': sameKey });
    const [first, again] = [await add(), await add()];
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(await orderItemRowCount(server.ctx.db.db, order.id)).toBe(before + 1);
  });

  it('a delete with PIN is refused while the terminal may charge, and goes through once a timed-out attempt is settled', async () => {
    const terminalId = newTerminal();
    await admin.post('/api/tables', { number: 36 });
    const order = await openReadyOrder(server, admin, waiter, 36);
    const line = order.items[0]!;
    const res = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    const providerId = await providerIdOf(res.body.payment.id);
    const del = () => waiter.post<Err>(`/api/orders/${order.id}/items/${line.id}/delete`, { pin: server.users.admin.pin });
    // Live on the terminal: the lock's own statement finds it, and nothing is deleted.
    const frozen = await del();
    expect(frozen.status).toBe(409);
    expect(frozen.body.error.code).toBe('order_frozen');
    expect((await getOrder(order.id)).items.map((i) => i.id)).toContain(line.id);
    act(providerId, 'tap');
    await waiter.post(`/api/card-payments/${res.body.payment.id}/cancel`);
    await untilState(res.body.payment.id, 'timeout');
    act(providerId, 'cancel'); // nothing was charged; our row still says 'timeout'
    // The ownership read sees the timed-out attempt, so the delete asks the provider first.
    const deleted = await del();
    expect(deleted.status).toBe(200);
    expect(
      (await server.ctx.db.db.selectFrom('card_payments').select('state').where('id', '=', res.body.payment.id).executeTakeFirstOrThrow())
        .state,
    ).not.toBe('timeout');
    const rows = await server.ctx.db.db.selectFrom('order_items').select(['id', 'is_deleted']).where('order_id', '=', order.id).execute();
    expect(rows).toHaveLength(order.items.length); // marked, not removed, and no row added
    expect(rows.filter((r) => r.is_deleted === 1).map((r) => r.id)).toEqual([line.id]);
    const again = await del();
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('item_deleted');
  });

  it('a timed-out payment that never reached the customer comes off the terminal and frees a retry', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 9);
    const res = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    const done = await untilState(res.body.payment.id, 'expired');
    expect(done).toMatchObject({ dialogState: 'error', message: 'Tiempo de espera agotado. El cliente no completó el pago.' });
    expect(sim.store.payments.get(await providerIdOf(res.body.payment.id))?.status).toBe('cancelled');
    const retry = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    expect(retry.status).toBe(201);
    await waiter.post(`/api/card-payments/${retry.body.payment.id}/cancel`);
  });

  it('a transfer that finds a timed-out attempt the customer cancelled settles it and moves the order', async () => {
    const terminalId = newTerminal();
    await admin.post('/api/tables', { number: 38 });
    const order = await openReadyOrder(server, admin, waiter, 38);
    const free = (await admin.post<{ table: { id: string } }>('/api/tables', { number: 39 })).body.table;
    const res = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    const providerId = await providerIdOf(res.body.payment.id);
    act(providerId, 'tap');
    await waiter.post(`/api/card-payments/${res.body.payment.id}/cancel`);
    await untilState(res.body.payment.id, 'timeout');
    act(providerId, 'cancel'); // our row still says 'timeout': the transfer's ownership read finds it
    const moved = await waiter.post<Err>(`/api/orders/${order.id}/transfer`, { tableId: free.id });
    expect(moved.status).toBe(200);
    expect((await getOrder(order.id)).tableId).toBe(free.id);
  });

  it('a new card attempt after one timed out asks the provider first: refused while it is on the terminal, started once it is not', async () => {
    const terminalId = newTerminal();
    await admin.post('/api/tables', { number: 37 });
    const order = await openReadyOrder(server, admin, waiter, 37);
    const body = { orderId: order.id, terminalId, method: 'tarjeta' as const, tipBps: 0, peopleCount: 1 };
    const first = await pay(waiter, body);
    const providerId = await providerIdOf(first.body.payment.id);
    act(providerId, 'tap');
    await waiter.post(`/api/card-payments/${first.body.payment.id}/cancel`);
    await untilState(first.body.payment.id, 'timeout');
    const attempts = () => server.ctx.db.db.selectFrom('card_payments').select('id').where('order_id', '=', order.id).execute();
    // Still on the terminal: the ownership read saw the timed-out attempt and the provider says so.
    const refused = (await pay(waiter, body)) as unknown as { status: number; body: Err };
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('card_payment_on_terminal');
    expect(await attempts()).toHaveLength(1);
    act(providerId, 'cancel'); // the customer cancels on the terminal; our row still says 'timeout'
    const started = await pay(waiter, body);
    expect(started.status).toBe(201);
    expect(await attempts()).toHaveLength(2);
    await waiter.post(`/api/card-payments/${started.body.payment.id}/cancel`);
  });

  it('the order is frozen while its card payment is live, so the approval closes it; cash waits meanwhile', async () => {
    const terminalId = newTerminal();
    const frozen = await openReadyOrder(server, admin, waiter, 10);
    const res = await pay(waiter, { orderId: frozen.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    const providerId = await providerIdOf(res.body.payment.id);
    act(providerId, 'tap');
    const product = await server.ctx.db.db
      .selectFrom('products')
      .select('id')
      .where('name', '=', 'Flan napolitano')
      .executeTakeFirstOrThrow();
    const added = await waiter.post<Err>(`/api/orders/${frozen.id}/items`, { productId: product.id, quantity: 1 });
    expect(added.status).toBe(409);
    expect(added.body.error.message).toBe('Hay un cobro con tarjeta en curso para esta orden. Espera a que termine o cancélalo.');
    act(providerId, 'approve');
    await untilState(res.body.payment.id, 'approved');
    const paid = await getOrder(frozen.id);
    expect(paid).toMatchObject({ status: 'pagado', total: res.body.payment.amount, items: frozen.items });
    expect(await auditCount('card_payment.needs_review', res.body.payment.id)).toBe(0);

    const tableRes = await admin.post<{ table: { id: string } }>('/api/tables', { number: 31 });
    expect(tableRes.status).toBe(200);
    const cashPaid = await openReadyOrder(server, admin, waiter, 31);
    const card = await pay(waiter, { orderId: cashPaid.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    const cardProvider = await providerIdOf(card.body.payment.id);
    act(cardProvider, 'tap');
    const cashClose = await waiter.post(
      `/api/orders/${cashPaid.id}/close`,
      { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 0, peopleCount: 1, receivedAmount: 1_000_000 },
      { 'idempotency-key': key() },
    );
    // Cash is refused while the card payment is still on the terminal: it could be approved afterwards.
    expect(cashClose.status).toBe(409);
    expect(JSON.stringify(cashClose.body)).toMatch(/cobro con tarjeta en curso/);
    act(cardProvider, 'approve');
    await untilState(card.body.payment.id, 'approved');
    const order = await getOrder(cashPaid.id);
    expect(order.payments).toHaveLength(1);
    expect(order.payments[0]?.method).toBe('tarjeta');
  });

  it('a terminal waiting for a confirmation only a person can give ends as an unexpected state', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 0);
    const res = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    act(await providerIdOf(res.body.payment.id), 'tap', 'confirm');
    const done = await untilState(res.body.payment.id, 'timeout');
    expect(done).toMatchObject({ dialogState: 'error', message: 'Estado de pago inesperado. Verifica en Mercado Pago.' });
    expect((await getOrder(order.id)).status).toBe('activo');
  });

  it('survives a 429 and 5xx from the provider while polling', async () => {
    const terminalId = newTerminal();
    await admin.post('/api/tables', { number: 32 });
    const order = await openReadyOrder(server, admin, waiter, 32);
    const res = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    sim.control.addFault({ status: 429, count: 2, path: '/point/integration-api/payment-intents' });
    sim.control.addFault({ status: 503, count: 2, path: '/point/integration-api/payment-intents' });
    act(await providerIdOf(res.body.payment.id), 'approve');
    await untilState(res.body.payment.id, 'approved');
    expect((await getOrder(order.id)).status).toBe('pagado');
  });

  it('lists terminals with the enabled map, toggles them, reports status and runs a $5.00 test charge', async () => {
    const terminalId = newTerminal();
    const list = await admin.get<{ terminals: CardTerminal[] }>('/api/terminals');
    expect(list.status).toBe(200);
    expect(list.body.terminals.find((t) => t.id === terminalId)).toMatchObject({
      enabled: true,
      operatingMode: 'PDV',
      name: expect.stringContaining('PAX A910'),
    });
    expect((await waiter.get('/api/terminals')).status).toBe(403);
    const off = await admin.put<{ terminal: CardTerminal }>(`/api/terminals/${terminalId}`, { enabled: false });
    expect(off.body.terminal.enabled).toBe(false);
    const enabled = await waiter.get<{ terminals: CardTerminal[] }>('/api/terminals/enabled');
    expect(enabled.body.terminals.map((t) => t.id)).not.toContain(terminalId);
    await admin.post('/api/tables', { number: 33 });
    const order = await openReadyOrder(server, admin, waiter, 33);
    const refused = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    expect(refused.status).toBe(409);
    await admin.put(`/api/terminals/${terminalId}`, { enabled: true });
    expect((await waiter.get<{ terminals: CardTerminal[] }>('/api/terminals/enabled')).body.terminals.map((t) => t.id)).toContain(
      terminalId,
    );
    expect((await admin.put('/api/terminals/NOPE__1', { enabled: true })).status).toBe(404);

    const status = await admin.get<{ mode: string; token: string; connected: boolean }>('/api/terminals/status');
    expect(status.body).toMatchObject({ mode: 'live', connected: true, token: 'TEST-4821-integ' });
    expect(JSON.stringify(status.body)).not.toContain('integration-token');

    const test = await admin.post<{ test: TestCharge }>('/api/terminals/test-charge', { terminalId });
    expect(test.body.test).toMatchObject({ state: 'testing', amount: 500, externalReference: expect.stringMatching(/^test-/) });
    const simPayment = [...sim.store.payments.values()].find((p) => p.externalReference === test.body.test.externalReference);
    expect(simPayment?.amountCents).toBe(500);
    act(simPayment!.id, 'approve');
    const done = await waitFor(
      async () => (await admin.get<{ test: TestCharge }>(`/api/terminals/test-charge/${test.body.test.id}`)).body.test,
      (t) => t.state !== 'testing',
    );
    expect(done).toMatchObject({ state: 'success', message: '¡Pago de prueba exitoso! La terminal está funcionando correctamente.' });
  });

  it('a repeat of a card start answers its attempt before anything else is checked, though its reads now go together', async () => {
    const terminalId = newTerminal();
    await admin.post('/api/tables', { number: 44 });
    const order = await openReadyOrder(server, admin, waiter, 44);
    const body = { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 };
    const idem = key();
    const first = await pay(waiter, body, idem);
    expect(first.status).toBe(201);
    await untilState(first.body.payment.id, 'pending');
    // The terminal switched off since: a new start is refused, the repeat still gets its attempt.
    await admin.put(`/api/terminals/${terminalId}`, { enabled: false });
    try {
      const repeat = await pay(waiter, body, idem);
      expect(repeat.status).toBe(200);
      expect(repeat.body.payment.id).toBe(first.body.payment.id);
      const fresh = await pay(waiter, body);
      expect(fresh.status).toBe(409);
      expect(fresh.body.error.code).toBe('terminal_disabled');
      // Another waiter's request for this order: refused for the order, before the terminal.
      const other = await server.login(server.users.waiter2.email);
      const foreign = await pay(other, body);
      expect(foreign.status).toBe(403);
      const count = await server.ctx.db.db
        .selectFrom('card_payments')
        .select(server.ctx.db.db.fn.countAll<number>().as('n'))
        .where('order_id', '=', order.id)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    } finally {
      await admin.put(`/api/terminals/${terminalId}`, { enabled: true });
      await waiter.post(`/api/card-payments/${first.body.payment.id}/cancel`);
    }
  });

  it('a card start locks the order and learns of other charges in one statement, and reads the lines once', async () => {
    /** One card start on a ready order of a new table; the statements it ran. */
    const cardStart = async (table: number) => {
      const terminalId = newTerminal();
      await admin.post('/api/tables', { number: table });
      const order = await openReadyOrder(server, admin, waiter, table);
      const seen = await statementsDuring(server.ctx.db, async () => {
        const res = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 1000, peopleCount: 2 });
        expect(res.status).toBe(201);
      });
      await untilState((await waiter.get<{ payment: CardPayment }>(`/api/card-payments?orderId=${order.id}`)).body.payment.id, 'pending');
      // The terminal is called after the answer's commit: its own writes may fall inside the window,
      // as may the print worker's poll (its read of the printers and of the waiting jobs).
      const own = seen.filter(
        (s) =>
          !/^(SAVEPOINT|RELEASE) /.test(s) &&
          !/^(update "card_payments"|select \* from "card_payments" where "id"|select \* from "printers" where|select "printer_id", "seq" from "print_jobs")/i.test(
            s,
          ),
      );
      // SQLite runs one statement at a time, in order: what follows the COMMIT after the attempt's
      // INSERT (the BEGIN of the terminal's write, on a slow machine) is not the start's.
      const inserted = own.findIndex((s) => /^insert into "card_payments"/i.test(s));
      const commit = kind === 'sqlite' && inserted >= 0 ? own.indexOf('COMMIT', inserted) : -1;
      return commit < 0 ? own : own.slice(0, commit + 1);
    };
    // Three starts (tables 41–43), the one that ran fewest.
    const own = await fewestStatements(3, (attempt) => cardStart(41 + attempt));
    // 2026-11-28: 15 on PostgreSQL, of which the lines read twice (the payment gate, then the
    // discounts) and the live or unsettled charges read after the lock: 13.
    // 2026-11-29: the lines, payments and live adjustments in one read under the lock (checkoutRows,
    // as a close's), the audit entry riding on the attempt's INSERT: 10 (the reads before the
    // transaction go together besides).
    expect(own.length, own.join('\n')).toBeLessThanOrEqual(kind === 'postgres' ? 10 : 13);
    expect(own.filter((s) => /from "?order_items"? /i.test(s))).toHaveLength(1);
    // The products' taxes are the close's to read (the breakdown it freezes), not the card start's.
    expect(own.filter((s) => /^select .* from "products"/i.test(s))).toEqual([]);
    if (kind === 'postgres') expect(own.filter((s) => /^insert into "audit_log"/i.test(s))).toEqual([]);
    expect(own.filter((s) => /^select .* from "card_payments" where "order_id"/i.test(s))).toEqual([]);
  });
  it('a test charge and the PDV switch repeated under one key reach the provider once and are audited once', async () => {
    const terminalId = newTerminal();
    const db = server.ctx.db.db;
    const audits = (action: string) => auditEntryCount(db, action, terminalId);
    const testCharges = () => [...sim.store.payments.values()].filter((p) => p.externalReference.startsWith('test-')).length;
    const [chargesBefore, chargeAudits, pdvAudits] = [
      testCharges(),
      await audits('terminal.test_charge'),
      await audits('terminal.pdv_mode'),
    ];
    const key = randomUUID();
    const first = await admin.request<{ test: TestCharge }>(
      'POST',
      '/api/terminals/test-charge',
      { terminalId },
      { 'idempotency-key': key },
    );
    const again = await admin.request<{ test: TestCharge }>(
      'POST',
      '/api/terminals/test-charge',
      { terminalId },
      { 'idempotency-key': key },
    );
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.test.id).toBe(first.body.test.id);
    expect(testCharges()).toBe(chargesBefore + 1);
    expect(await audits('terminal.test_charge')).toBe(chargeAudits + 1);
    const pdvKey = randomUUID();
    for (let i = 0; i < 2; i++) {
      const res = await admin.request('POST', `/api/terminals/${terminalId}/pdv-mode`, undefined, { 'idempotency-key': pdvKey });
      expect(res.status).toBe(200);
    }
    expect(await audits('terminal.pdv_mode')).toBe(pdvAudits + 1);
    // The charge is tapped and approved, so nothing of this test is left polling.
    const simPayment = [...sim.store.payments.values()].find((p) => p.externalReference === first.body.test.externalReference);
    act(simPayment!.id, 'approve');
    await waitFor(
      async () => (await admin.get<{ test: TestCharge }>(`/api/terminals/test-charge/${first.body.test.id}`)).body.test,
      (t) => t.state !== 'testing',
    );
  });
});
