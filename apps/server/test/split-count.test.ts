import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddPaymentResponse, CardPayment, Order } from '@comanda/contract';
import { assertInvariants, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { startSimulator, type Simulator } from '../src/payments/mercadopago/simulator/server.ts';
import type { PrinterEmulator } from '../src/features/printing/emulator/emulator.ts';
import type { ReceiptDocument } from '../src/model/printing/documents.ts';
import { startPrintingServer, type PrintingServer } from './printing-helpers.ts';
import { approveOnTerminal, cardEnv, key, openReadyOrder, waitFor, type Err } from './terminals-helpers.ts';

/**
 * The table's guests (Personas) are the order's; the checkout's split calculator is recorded
 * apart ("Dividido entre N") by every way of paying, and separate checks share the guests out.
 */
describe.each(testDatabaseKinds())('guests and the split calculator on %s', (kind) => {
  let sim: Simulator;
  let printing: PrintingServer;
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let caja: PrinterEmulator;
  let terminalN = 0;

  beforeAll(async () => {
    sim = await startSimulator({ token: 'TEST-5521-split-token' });
    printing = await startPrintingServer(kind, cardEnv(sim));
    ({ server, admin, waiter } = printing);
    caja = printing.printers.caja;
  }, 60_000);
  afterAll(async () => {
    await printing?.stop();
    await sim?.close();
  });

  const getOrder = async (id: string) => (await admin.get<{ order: Order }>(`/api/orders/${id}`)).body.order;
  const setGuests = async (orderId: string, peopleCount: number) =>
    expect((await waiter.patch(`/api/orders/${orderId}`, { peopleCount })).status).toBe(200);
  const receiptOf = async (orderId: string) => {
    const row = await server.ctx.db.db
      .selectFrom('print_jobs')
      .select('document')
      .where('order_id', '=', orderId)
      .where('kind', '=', 'ticket')
      .executeTakeFirstOrThrow();
    return JSON.parse(row.document) as ReceiptDocument;
  };
  const printedFor = (ticketNumber: string) =>
    waitFor(
      async () => caja.list().find((t) => t.text.includes(`Ticket #${ticketNumber}`)),
      (t) => t !== undefined,
    );

  it('a cash close divided by 2 keeps the table’s 4 guests; the ticket prints Personas 4 and Dividido entre 2', async () => {
    const order = await openReadyOrder(server, admin, waiter, 1);
    await setGuests(order.id, 4);
    const res = await waiter.post<{ order: Order } & Err>(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: '1111', tipBps: 1500, splitCount: 2, receivedAmount: 1_000_000 },
      { 'idempotency-key': key() },
    );
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ status: 'pagado', peopleCount: 4, splitCount: 2 });
    expect(await getOrder(order.id)).toMatchObject({ peopleCount: 4, splitCount: 2 });

    const doc = await receiptOf(order.id);
    expect(doc.guests).toBe(4);
    expect(doc.split).toEqual({ count: 2, each: Math.ceil(res.body.order.total / 2) });
    const printed = await printedFor(doc.ticketNumber);
    expect(printed!.text).toContain('Personas: 4');
    expect(printed!.text).toContain('Dividido entre 2');
    await assertInvariants(server.ctx.db);
  });

  it('divided by as many as the guests, the ticket names no split', async () => {
    const order = await openReadyOrder(server, admin, waiter, 2);
    await setGuests(order.id, 3);
    const res = await waiter.post<{ order: Order } & Err>(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: '1111', tipBps: 0, splitCount: 3, receivedAmount: 1_000_000 },
      { 'idempotency-key': key() },
    );
    expect(res.body.order).toMatchObject({ peopleCount: 3, splitCount: 3 });
    const doc = await receiptOf(order.id);
    expect(doc.guests).toBe(3);
    expect(doc.split).toBeUndefined();
  });

  it('a whole-balance transfer with its SPEI reference is a transfer, keeps the guests and records the split', async () => {
    const order = await openReadyOrder(server, admin, waiter, 3);
    await setGuests(order.id, 4);
    const res = await waiter.post<AddPaymentResponse & Err>(
      `/api/orders/${order.id}/payments`,
      { method: 'transferencia', pin: '1111', amount: order.balance, tipBps: 1500, splitCount: 2, reference: 'SPEI 0042' },
      { 'idempotency-key': key() },
    );
    expect(res.status).toBe(200);
    expect(res.body.closed).toBe(true);
    expect(res.body.payment).toMatchObject({ method: 'transferencia', reference: 'SPEI 0042', receivedAmount: null, change: null });
    expect(res.body.order).toMatchObject({ status: 'pagado', paymentMethod: 'transferencia', peopleCount: 4, splitCount: 2 });
    expect((await receiptOf(order.id)).split?.count).toBe(2);
  });

  it('a card charge divided by 2 keeps the table’s guests when it closes the order', async () => {
    const order = await openReadyOrder(server, admin, waiter, 4);
    await setGuests(order.id, 4);
    const terminalId = sim.store.addTerminal(`PAX_A910__SMARTPOSSPLIT${kind.toUpperCase()}${++terminalN}`).id;
    const started = await waiter.post<{ payment: CardPayment } & Err>(
      '/api/card-payments',
      { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 1000, splitCount: 2 },
      { 'idempotency-key': key() },
    );
    expect(started.status).toBe(201);
    const done = await approveOnTerminal({ sim, server }, waiter, started.body.payment.id);
    expect(done.state).toBe('approved');
    expect(await getOrder(order.id)).toMatchObject({ status: 'pagado', peopleCount: 4, splitCount: 2 });
  });

  it('separate checks by item share the table’s guests out: 4 guests in two checks are 2 and 2', async () => {
    const order = await openReadyOrder(server, admin, waiter, 5);
    await setGuests(order.id, 4);
    const line = order.items[0]!;
    const res = await waiter.post<{ orders: Order[] } & Err>(`/api/orders/${order.id}/checks`, {
      checks: [{ lines: [{ itemId: line.id, quantity: 1 }] }],
    });
    expect(res.status).toBe(200);
    expect(res.body.orders.map((o) => o.peopleCount)).toEqual([2, 2]);
  });

  it('equal-share checks share the guests out too: 4 guests in three checks are 2, 1 and 1', async () => {
    const order = await openReadyOrder(server, admin, waiter, 6);
    await setGuests(order.id, 4);
    const res = await waiter.post<{ orders: Order[] } & Err>(`/api/orders/${order.id}/shares`, { count: 3 }, { 'idempotency-key': key() });
    expect(res.status).toBe(200);
    expect(res.body.orders.map((o) => o.peopleCount)).toEqual([2, 1, 1]);
  });
});
