import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MercadoPagoConfig, MercadoPagoError, MPAuthenticationError, Order, Point } from 'mercadopago';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { z } from 'zod';
import { startSimulator, type Simulator } from './simulator/server.ts';

/**
 * Contract: Mercado Pago's official Node SDK (a client nobody here wrote) drives the simulator
 * through the Point Integration API and the Orders API, and each answer has the shape Mercado Pago
 * documents for it. The SDK's fixed base URL is routed to the simulator by a fetch dispatcher.
 */
const MP_ORIGIN = 'https://api.mercadopago.com';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Sends Mercado Pago's origin to the simulator, lets loopback through and refuses any other host. */
class LoopbackAgent extends Agent {
  constructor(private readonly target: string) {
    super();
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandlers): boolean {
    const origin = new URL(String(opts.origin));
    if (origin.origin === MP_ORIGIN) return super.dispatch({ ...opts, origin: this.target }, handler);
    if (LOOPBACK_HOSTS.has(origin.hostname)) return super.dispatch(opts, handler);
    handler.onError?.(new Error(`refused a call off this machine: ${origin.origin}`));
    return true;
  }
}

const TERMINAL = 'PAX_A910__SMARTPOS0001';
const iso = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'ISO date');
const apiResponse = z.object({ status: z.number().int(), headers: z.record(z.string(), z.array(z.string())) });
const device = z.object({
  id: z.string(),
  pos_id: z.number().int(),
  store_id: z.string(),
  external_pos_id: z.string(),
  operating_mode: z.enum(['PDV', 'STANDALONE']),
});
const devicesShape = z.object({
  devices: z.array(device),
  paging: z.object({ total: z.number().int(), offset: z.number().int(), limit: z.number().int() }),
  api_response: apiResponse,
});
const additionalInfo = z.object({ external_reference: z.string(), print_on_terminal: z.boolean() });
const createdIntentShape = z.object({
  id: z.string().uuid(),
  device_id: z.string(),
  amount: z.number().int(),
  description: z.string(),
  additional_info: additionalInfo,
  api_response: apiResponse,
});
const intentShape = z.object({
  id: z.string().uuid(),
  device_id: z.string(),
  amount: z.number().int(),
  state: z.enum(['OPEN', 'ON_TERMINAL', 'PROCESSING', 'PROCESSED', 'FINISHED', 'CONFIRMATION_REQUIRED', 'CANCELED', 'ERROR', 'ABANDONED']),
  payment: z.object({ id: z.number().int(), type: z.string(), status: z.string() }).partial().optional(),
  additional_info: additionalInfo,
});
const statusEventShape = z.object({ status: z.string(), created_on: iso });
const decimal = z.string().regex(/^\d+\.\d{2}$/);
const orderShape = z.object({
  id: z.string().regex(/^ORD[0-9A-Z]{26}$/),
  type: z.literal('point'),
  processing_mode: z.literal('automatic'),
  external_reference: z.string(),
  description: z.string(),
  expiration_time: z.string().regex(/^PT\d+M$/),
  country_code: z.literal('MEX'),
  status: z.enum(['created', 'at_terminal', 'processed', 'canceled', 'expired', 'failed', 'action_required', 'refunded']),
  status_detail: z.string(),
  currency: z.literal('MXN'),
  created_date: iso,
  last_updated_date: iso,
  transactions: z.object({
    payments: z
      .array(z.object({ id: z.string().regex(/^PAY[0-9A-Z]{26}$/), amount: decimal, status: z.string(), status_detail: z.string() }))
      .length(1),
  }),
  config: z.object({ point: z.object({ terminal_id: z.string(), print_on_terminal: z.string() }) }),
  api_response: apiResponse,
});

type SimRequest = { method: string; path: string; headers: Record<string, string | undefined>; body: unknown };

describe('Mercado Pago official SDK against the simulator', () => {
  let sim: Simulator;
  let previous: Dispatcher;
  let agent: LoopbackAgent;
  // One config per test: the SDK keeps the last requestOptions (an idempotency key too) on it.
  let config: MercadoPagoConfig;
  const control = (path: string) => fetch(sim.url + path, { method: 'POST' });
  const requests = async () => ((await (await fetch(`${sim.url}/_sim/requests`)).json()) as { requests: SimRequest[] }).requests;
  const noRetries = { maxRetries: 0 };

  beforeAll(async () => {
    sim = await startSimulator({ token: 'TEST-1234567890-abcdef', terminals: [TERMINAL] });
    previous = getGlobalDispatcher();
    agent = new LoopbackAgent(sim.url);
    setGlobalDispatcher(agent);
  });
  afterAll(async () => {
    setGlobalDispatcher(previous);
    await agent.close();
    await sim.close();
  });
  beforeEach(async () => {
    await control('/_sim/reset');
    config = new MercadoPagoConfig({ accessToken: sim.token, options: noRetries });
  });

  it('routes only Mercado Pago and loopback: any other host is refused before it is reached', async () => {
    const refused = await fetch('https://example.com/').catch((e: unknown) => e);
    expect(refused).toMatchObject({ message: 'fetch failed', cause: { message: 'refused a call off this machine: https://example.com' } });
    expect((await fetch(`${MP_ORIGIN}/_sim/state`)).status).toBe(200);
  });

  it('lists the devices, switches one to PDV, and sends the bearer token and an idempotency key', async () => {
    const point = new Point(config);
    await point.changeDeviceOperatingMode({ device_id: TERMINAL, request: { operating_mode: 'STANDALONE' } });
    const listed = devicesShape.parse(await point.getDevices({ request: {} }));
    expect(listed.devices).toEqual([expect.objectContaining({ id: TERMINAL, operating_mode: 'STANDALONE' })]);
    const changed = await point.changeDeviceOperatingMode({
      device_id: TERMINAL,
      request: { operating_mode: 'PDV' },
      requestOptions: { idempotencyKey: 'mode-pdv-1' },
    });
    expect(changed.operating_mode).toBe('PDV');
    expect(devicesShape.parse(await point.getDevices({ request: {} })).devices[0]?.operating_mode).toBe('PDV');

    const seen = await requests();
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PATCH /point/integration-api/devices/${TERMINAL}`,
      'GET /point/integration-api/devices',
      `PATCH /point/integration-api/devices/${TERMINAL}`,
      'GET /point/integration-api/devices',
    ]);
    for (const r of seen) expect(r.headers.authorization).toBe(`Bearer ${sim.token}`);
    // Without a key the SDK makes one (a UUID v4) for each write; GETs carry none.
    expect(seen[0]?.headers['x-idempotency-key']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(seen[2]?.headers['x-idempotency-key']).toBe('mode-pdv-1');
    expect(seen[1]?.headers['x-idempotency-key']).toBeUndefined();
    expect(seen[2]?.headers['content-type']).toBe('application/json');
  });

  it('creates a payment intent, reads it OPEN, and reads it FINISHED and approved once the card is approved', async () => {
    const point = new Point(config);
    const created = createdIntentShape.parse(
      await point.createPaymentIntent({
        device_id: TERMINAL,
        request: {
          amount: 12_345,
          description: 'Mesa 9',
          additional_info: { external_reference: 'comanda-check-9', print_on_terminal: true },
        },
        requestOptions: { idempotencyKey: 'intent-check-9' },
      }),
    );
    expect(created).toMatchObject({
      device_id: TERMINAL,
      amount: 12_345,
      description: 'Mesa 9',
      additional_info: { external_reference: 'comanda-check-9', print_on_terminal: true },
    });
    expect(created.api_response.status).toBe(201);
    const post = (await requests()).find((r) => r.method === 'POST');
    expect(post?.headers['x-idempotency-key']).toBe('intent-check-9');
    expect(post?.body).toEqual({
      amount: 12_345,
      description: 'Mesa 9',
      additional_info: { external_reference: 'comanda-check-9', print_on_terminal: true },
    });

    const open = intentShape.parse(await point.searchPaymentIntent({ payment_intent_id: created.id }));
    expect([open.state, open.payment]).toEqual(['OPEN', undefined]);
    expect(statusEventShape.parse(await point.getPaymentIntentStatus({ payment_intent_id: created.id })).status).toBe('OPEN');

    expect((await control(`/_sim/payments/${created.id}/tap`)).status).toBe(200);
    expect((await control(`/_sim/payments/${created.id}/approve`)).status).toBe(200);
    const done = intentShape.parse(await point.searchPaymentIntent({ payment_intent_id: created.id }));
    expect(done).toMatchObject({ id: created.id, state: 'FINISHED', amount: 12_345, payment: { status: 'approved', type: 'credit_card' } });
    expect(done.payment?.id).toBeGreaterThan(0);
    const event = statusEventShape.parse(await point.getPaymentIntentStatus({ payment_intent_id: created.id }));
    expect(event.status).toBe('FINISHED');
    const today = new Date().toISOString().slice(0, 10);
    const list = await point.getPaymentIntentList({ body: { options: { startDate: today, endDate: today } } });
    expect(list.events).toEqual([{ payment_intent_id: created.id, status: 'FINISHED', created_on: event.created_on }]);
  });

  it('replays a create with the same idempotency key, and cancels an intent the terminal has not taken', async () => {
    const point = new Point(config);
    const request = {
      amount: 2_000,
      description: 'Barra',
      additional_info: { external_reference: 'comanda-check-10', print_on_terminal: false },
    };
    const first = await point.createPaymentIntent({ device_id: TERMINAL, request, requestOptions: { idempotencyKey: 'intent-10' } });
    const again = await point.createPaymentIntent({ device_id: TERMINAL, request, requestOptions: { idempotencyKey: 'intent-10' } });
    expect(again.id).toBe(first.id);
    expect(first.additional_info?.print_on_terminal).toBe(false);
    // The SDK types these headers as a tuple; at run time they are a record of lists.
    expect(apiResponse.parse(again.api_response).headers['x-idempotency-replayed']).toEqual(['true']);

    const cancelled = await point.cancelPaymentIntent({
      device_id: TERMINAL,
      payment_intent_id: String(first.id),
      requestOptions: { idempotencyKey: 'cancel-10' },
    });
    expect(cancelled).toMatchObject({ id: first.id, api_response: { status: 200 } });
    expect(intentShape.parse(await point.searchPaymentIntent({ payment_intent_id: String(first.id) })).state).toBe('CANCELED');
    const del = (await requests()).find((r) => r.method === 'DELETE');
    expect(del).toMatchObject({
      path: `/point/integration-api/devices/${TERMINAL}/payment-intents/${first.id}`,
      headers: { 'x-idempotency-key': 'cancel-10' },
    });
  });

  it('creates a point order with the amount as a decimal string, reads it, approves one and cancels another', async () => {
    const order = new Order(config);
    const body = (ref: string, amount: string): Parameters<Order['create']>[0]['body'] => ({
      type: 'point',
      external_reference: ref,
      description: 'Mesa 4',
      transactions: { payments: [{ amount }] },
      // The SDK's request type has no point config; the Orders API for Point requires it.
      config: { point: { terminal_id: TERMINAL, print_on_terminal: 'seller_ticket' } } as never,
    });
    const created = orderShape.parse(
      await order.create({ body: body('comanda-check-4', '123.45'), requestOptions: { idempotencyKey: 'order-4' } }),
    );
    expect(created).toMatchObject({
      status: 'created',
      external_reference: 'comanda-check-4',
      transactions: { payments: [{ amount: '123.45' }] },
      config: { point: { terminal_id: TERMINAL } },
    });
    expect(created.api_response.status).toBe(201);
    const post = (await requests()).find((r) => r.path === '/v1/orders');
    expect(post?.headers).toMatchObject({ authorization: `Bearer ${sim.token}`, 'x-idempotency-key': 'order-4' });
    expect(post?.body).toMatchObject({ type: 'point', transactions: { payments: [{ amount: '123.45' }] } });

    expect(orderShape.parse(await order.get({ id: created.id })).status).toBe('created');
    await control(`/_sim/payments/${created.id}/tap`);
    expect(orderShape.parse(await order.get({ id: created.id })).status).toBe('at_terminal');
    await control(`/_sim/payments/${created.id}/approve`);
    const processed = orderShape.parse(await order.get({ id: created.id }));
    expect(processed.status).toBe('processed');
    expect(processed.transactions.payments[0]).toMatchObject({ status: 'processed', amount: '123.45' });

    const other = orderShape.parse(
      await order.create({ body: body('comanda-check-5', '50.00'), requestOptions: { idempotencyKey: 'order-5' } }),
    );
    const cancelled = orderShape.parse(await order.cancel({ id: other.id, requestOptions: { idempotencyKey: 'cancel-5' } }));
    expect([cancelled.id, cancelled.status]).toEqual([other.id, 'canceled']);
    expect(orderShape.parse(await order.get({ id: other.id })).status).toBe('canceled');
    const cancelCall = (await requests()).find((r) => r.path === `/v1/orders/${other.id}/cancel`);
    expect(cancelCall?.headers['x-idempotency-key']).toBe('cancel-5');
  });

  it('answers a wrong token with 401, which the SDK raises as its authentication error', async () => {
    const stranger = new MercadoPagoConfig({ accessToken: 'TEST-wrong', options: noRetries });
    const error = await new Point(stranger).getDevices({ request: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MPAuthenticationError);
    expect(error).toBeInstanceOf(MercadoPagoError);
    expect((error as MercadoPagoError).status).toBe(401);
    const orderError = await new Order(stranger).get({ id: 'ORD00000000000000000000000000' }).catch((e: unknown) => e);
    expect(orderError).toMatchObject({ status: 401 });
  });
});
