import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardPayment, Order } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { startSimulator, type Simulator } from '../src/payments/mercadopago/simulator/server.ts';
import { cardEnv, key, openReadyOrder, providerIdOnceSent, waitFor } from './terminals-helpers.ts';

describe.each(testDatabaseKinds())('card payments over the Orders API on %s', (kind) => {
  let sim: Simulator;
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  const TERMINAL = 'NEWLAND_N950__N950NCB801293324';

  beforeAll(async () => {
    sim = await startSimulator({ token: 'APP_USR-77-orders-api-token', terminals: [TERMINAL] });
    server = await startTestServer(kind, { env: cardEnv(sim, { MP_API: 'orders' }) });
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
  });
  afterAll(async () => {
    await server?.close();
    await sim?.close();
  });

  const pay = async (orderId: string) =>
    (
      await waiter.post<{ payment: CardPayment }>(
        '/api/card-payments',
        { orderId, terminalId: TERMINAL, method: 'tarjeta', tipBps: 2000, peopleCount: 1 },
        { 'idempotency-key': key() },
      )
    ).body.payment;
  const settle = (id: string) =>
    waitFor(
      async () => (await waiter.get<{ payment: CardPayment }>(`/api/card-payments/${id}`)).body.payment,
      (p) => !['creating', 'pending', 'processing'].includes(p.state),
    );
  const atProvider = async (id: string) => sim.store.payments.get(await providerIdOnceSent(server, id))!;

  it('sends the amount as a decimal string and closes the order on processed', async () => {
    const order = await openReadyOrder(server, admin, waiter, 1);
    const payment = await pay(order.id);
    const remote = await atProvider(payment.id);
    expect(remote).toMatchObject({ surface: 'orders', amountCents: payment.amount });
    expect(remote.id).toMatch(/^ORD/);
    sim.store.apply(remote.id, 'tap');
    sim.store.apply(remote.id, 'approve');
    expect(await settle(payment.id)).toMatchObject({ state: 'approved', providerPaymentId: remote.paymentId });
    const paid = (await admin.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order;
    expect(paid.status).toBe('pagado');
    expect(paid.payments).toEqual([expect.objectContaining({ cashierId: 'mp-terminal', amount: payment.amount, tipPercent: 0.2 })]);
  });

  it('a failed order leaves the order open; an expired one reads as cancelled', async () => {
    const order = await openReadyOrder(server, admin, waiter, 2);
    const first = await pay(order.id);
    sim.store.apply((await atProvider(first.id)).id, 'reject');
    expect(await settle(first.id)).toMatchObject({ state: 'rejected', message: 'Pago rechazado' });
    const second = await pay(order.id);
    sim.store.apply((await atProvider(second.id)).id, 'timeout');
    expect(await settle(second.id)).toMatchObject({ state: 'cancelled', dialogState: 'rejected' });
    expect((await admin.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order.status).toBe('activo');
  });

  it('shows only the first 15 characters of an application token', async () => {
    const status = await admin.get<{ token: string; api: string; mode: string }>('/api/terminals/status');
    expect(status.body).toMatchObject({ token: 'APP_USR-77-orde', api: 'orders', mode: 'live' });
  });
});
