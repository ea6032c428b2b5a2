import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCardProvider, MpError, pollPayment, type CardProvider, type ProviderApi } from './client.ts';
import { startSimulator, type Simulator } from './simulator/server.ts';
import type { SimAction } from './simulator/store.ts';

const TERMINAL = 'PAX_A910__SMARTPOS0001';
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ token: 'TEST-1234567890-abcdef', terminals: [TERMINAL] });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
});

const control = (path: string, body?: unknown) =>
  fetch(sim.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });

describe.each<ProviderApi>(['point', 'orders'])('Mercado Pago client, %s surface, over HTTP against the simulator', (api) => {
  let mp: CardProvider;
  let n = 0;
  beforeAll(() => {
    mp = createCardProvider({ api, baseUrl: sim.url, accessToken: sim.token });
  });
  const create = (amountCents = 12_345, key = `key-${api}-${++n}`) =>
    mp.createPayment({ terminalId: TERMINAL, amountCents, externalReference: `order-${n}`, description: 'Mesa 9', idempotencyKey: key });

  it('lists the terminals with their operating mode', async () => {
    const terminals = await mp.listTerminals();
    expect(terminals).toEqual([
      expect.objectContaining({ id: TERMINAL, operatingMode: 'PDV', storeId: expect.any(String), posId: expect.any(String) }),
    ]);
  });

  it('sends the bearer token on every call and an idempotency key on every non-GET call', async () => {
    const { providerId } = await create(2_000, 'headers-key-1');
    await mp.getPayment(providerId);
    const { requests } = (await (await fetch(`${sim.url}/_sim/requests`)).json()) as {
      requests: { method: string; path: string; headers: Record<string, string | undefined>; body: unknown }[];
    };
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const r of requests) {
      expect(r.headers.authorization).toBe(`Bearer ${sim.token}`);
      if (r.method === 'GET') expect(r.headers['x-idempotency-key']).toBeUndefined();
      else expect(r.headers['x-idempotency-key']).toBe('headers-key-1');
    }
    const post = requests.find((r) => r.method === 'POST');
    if (api === 'point') {
      expect(post?.path).toBe(`/point/integration-api/devices/${TERMINAL}/payment-intents`);
      expect(post?.body).toMatchObject({
        amount: 2000,
        additional_info: { external_reference: expect.any(String), print_on_terminal: true },
      });
    } else {
      expect(post?.path).toBe('/v1/orders');
      expect(post?.body).toMatchObject({
        type: 'point',
        transactions: { payments: [{ amount: '20.00' }] },
        config: { point: { terminal_id: TERMINAL } },
      });
    }
  });

  it('reuses an idempotency key: the same request creates one payment, another request is refused', async () => {
    const a = await create(5_000, 'same-key');
    const b = await create(5_000, 'same-key');
    expect(b.providerId).toBe(a.providerId);
    expect(sim.store.payments.size).toBe(1);
    const other = await create(6_000, 'same-key').catch((e: unknown) => e);
    expect(other).toBeInstanceOf(MpError);
    expect((other as MpError).status).toBe(409);
  });

  it('refuses a wrong token, an amount under $5.00 and a second payment on a busy terminal', async () => {
    const bad = createCardProvider({ api, baseUrl: sim.url, accessToken: 'TEST-wrong' });
    await expect(bad.listTerminals()).rejects.toMatchObject({ status: 401 });
    await expect(create(499)).rejects.toMatchObject({ status: 400 });
    await create(500);
    await expect(create(800)).rejects.toMatchObject({ status: 409 });
  });

  it('cancels a queued payment but not one already on the terminal', async () => {
    const a = await create();
    await mp.cancelPayment({ terminalId: TERMINAL, providerId: a.providerId, idempotencyKey: `cancel-${a.providerId}` });
    expect((await mp.getPayment(a.providerId)).state).toBe('cancelled');
    const b = await create();
    await control(`/_sim/payments/${b.providerId}/tap`);
    await expect(
      mp.cancelPayment({ terminalId: TERMINAL, providerId: b.providerId, idempotencyKey: `cancel-${b.providerId}` }),
    ).rejects.toMatchObject({ status: 409 });
  });

  it('switches the operating mode; a terminal outside PDV mode takes no payments', async () => {
    await mp.setOperatingMode({ terminalId: TERMINAL, mode: 'STANDALONE', idempotencyKey: `mode-${api}-1` });
    expect((await mp.listTerminals())[0]?.operatingMode).toBe('STANDALONE');
    await expect(create()).rejects.toMatchObject({ status: 409 });
    await mp.setOperatingMode({ terminalId: TERMINAL, mode: 'PDV', idempotencyKey: `mode-${api}-2` });
    await expect(create()).resolves.toMatchObject({ providerId: expect.any(String) });
  });

  const flows: [SimAction[], string][] = [
    [[], 'pending'],
    [['tap'], 'processing'],
    [['process'], 'processing'],
    [['tap', 'confirm'], 'processing'],
    [['tap', 'approve'], 'approved'],
    [['tap', 'reject'], 'rejected'],
    [['tap', 'cancel'], 'cancelled'],
    [['tap', 'abandon'], 'cancelled'],
    [['timeout'], 'cancelled'],
    [['tap', 'error'], 'rejected'],
  ];
  it.each(flows)('after %j the payment reads %s', async (actions, expected) => {
    const { providerId } = await create();
    for (const action of actions) expect((await control(`/_sim/payments/${providerId}/${action}`)).status).toBe(200);
    const payment = await mp.getPayment(providerId);
    expect(payment.state).toBe(expected);
    if (expected === 'approved') {
      expect(payment.paymentId).toMatch(/^\d+$/);
      expect(payment.amountCents).toBe(12_345);
    }
  });

  const raws: [{ state: string; paymentStatus?: string; statusDetail?: string }, string][] =
    api === 'point'
      ? [
          [{ state: 'OPEN' }, 'pending'],
          [{ state: 'ON_TERMINAL' }, 'processing'],
          [{ state: 'PROCESSING' }, 'processing'],
          [{ state: 'CONFIRMATION_REQUIRED' }, 'processing'],
          [{ state: 'PROCESSED', paymentStatus: 'approved' }, 'approved'],
          [{ state: 'FINISHED', paymentStatus: 'approved' }, 'approved'],
          [{ state: 'FINISHED', paymentStatus: 'rejected' }, 'rejected'],
          [{ state: 'FINISHED' }, 'cancelled'],
          [{ state: 'CANCELED' }, 'cancelled'],
          [{ state: 'CANCELLED' }, 'cancelled'],
          [{ state: 'ABANDONED' }, 'cancelled'],
          [{ state: 'ERROR' }, 'rejected'],
          [{ state: 'SOMETHING_NEW' }, 'pending'],
        ]
      : [
          [{ state: 'created' }, 'pending'],
          [{ state: 'at_terminal' }, 'processing'],
          [{ state: 'processing' }, 'processing'],
          [{ state: 'action_required' }, 'processing'],
          [{ state: 'processed', statusDetail: 'accredited' }, 'approved'],
          [{ state: 'processed', statusDetail: 'refunded' }, 'cancelled'],
          [{ state: 'canceled' }, 'cancelled'],
          [{ state: 'expired' }, 'cancelled'],
          [{ state: 'refunded' }, 'cancelled'],
          [{ state: 'failed' }, 'rejected'],
          [{ state: 'something_new' }, 'pending'],
        ];
  it.each(raws)('maps the provider state %j to %s', async (raw, expected) => {
    const { providerId } = await create();
    await control(`/_sim/payments/${providerId}/raw`, raw);
    expect((await mp.getPayment(providerId)).state).toBe(expected);
  });

  if (api === 'orders') {
    it('reads a refund of an approved order as cancelled', async () => {
      const { providerId } = await create();
      await control(`/_sim/payments/${providerId}/approve`);
      await control(`/_sim/payments/${providerId}/refund`);
      expect((await mp.getPayment(providerId)).state).toBe('cancelled');
    });
  }
});

describe('polling with an injected clock', () => {
  const mp = () => createCardProvider({ api: 'point', baseUrl: sim.url, accessToken: sim.token });
  const newPayment = async () =>
    (
      await mp().createPayment({
        terminalId: TERMINAL,
        amountCents: 1_000,
        externalReference: 'poll',
        description: 'poll',
        idempotencyKey: `poll-${Math.random()}`,
      })
    ).providerId;

  it('reads every 5 s until the payment is final', async () => {
    const id = await newPayment();
    const waits: number[] = [];
    const outcome = await pollPayment({
      read: () => mp().getPayment(id),
      sleep: async (ms) => void waits.push(ms),
      onAttempt: async (attempt) => {
        if (attempt === 2) await control(`/_sim/payments/${id}/tap`);
        if (attempt === 4) await control(`/_sim/payments/${id}/approve`);
      },
    });
    expect(outcome).toMatchObject({ kind: 'final', attempts: 5, payment: { state: 'approved' } });
    expect(waits).toEqual([5000, 5000, 5000, 5000, 5000]);
  });

  it('waits 10 s after a 429 and keeps going', async () => {
    const id = await newPayment();
    await control('/_sim/faults', { status: 429, count: 1, path: '/point/integration-api/payment-intents' });
    const waits: number[] = [];
    const errors: (number | null)[] = [];
    const outcome = await pollPayment({
      read: () => mp().getPayment(id),
      sleep: async (ms) => void waits.push(ms),
      onAttempt: async (attempt, r) => {
        errors.push(r.error?.status ?? null);
        if (attempt === 1) await control(`/_sim/payments/${id}/reject`);
      },
    });
    expect(errors).toEqual([429, null]);
    expect(waits).toEqual([5000, 10_000]);
    expect(outcome).toMatchObject({ kind: 'final', payment: { state: 'rejected' } });
  });

  it('gives up after 18 reads (about 90 s), counting failed reads', async () => {
    const id = await newPayment();
    await control('/_sim/faults', { status: 503, count: 2, path: '/point/integration-api/payment-intents' });
    const waits: number[] = [];
    const outcome = await pollPayment({ read: () => mp().getPayment(id), sleep: async (ms) => void waits.push(ms) });
    expect(outcome).toMatchObject({ kind: 'timeout', attempts: 18, last: { state: 'pending' } });
    expect(waits.reduce((a, b) => a + b, 0)).toBe(90_000);
  });

  it('resumes counting from the attempts already spent', async () => {
    const id = await newPayment();
    let reads = 0;
    const outcome = await pollPayment({ read: () => (reads++, mp().getPayment(id)), sleep: async () => undefined, startAttempt: 16 });
    expect(outcome).toMatchObject({ kind: 'timeout', attempts: 18 });
    expect(reads).toBe(2);
  });

  it('stops when aborted', async () => {
    const id = await newPayment();
    const abort = new AbortController();
    const outcome = await pollPayment({
      read: () => mp().getPayment(id),
      signal: abort.signal,
      sleep: async () => undefined,
      onAttempt: (attempt) => {
        if (attempt === 3) abort.abort();
      },
    });
    expect(outcome).toEqual({ kind: 'aborted', attempts: 3 });
  });
});

describe('simulator demo mode', () => {
  it('taps and approves a payment by itself, or follows a scripted outcome', async () => {
    const demo = await startSimulator({ autoFinishMs: 60, terminals: ['DEMO_1'] });
    try {
      const mp = createCardProvider({ api: 'orders', baseUrl: demo.url, accessToken: demo.token });
      const a = await mp.createPayment({
        terminalId: 'DEMO_1',
        amountCents: 900,
        externalReference: 'demo-1',
        description: 'demo',
        idempotencyKey: 'demo-1',
      });
      await new Promise((r) => setTimeout(r, 150));
      expect((await mp.getPayment(a.providerId)).state).toBe('approved');
      await fetch(`${demo.url}/_sim/terminals/DEMO_1/script`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcomes: ['reject'] }),
      });
      const b = await mp.createPayment({
        terminalId: 'DEMO_1',
        amountCents: 900,
        externalReference: 'demo-2',
        description: 'demo',
        idempotencyKey: 'demo-2',
      });
      await new Promise((r) => setTimeout(r, 150));
      expect((await mp.getPayment(b.providerId)).state).toBe('rejected');
    } finally {
      await demo.close();
    }
  });
});
