import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pesosToCents, CARD_MINIMUM_CENTS } from '@comanda/domain';
import type { SimControl } from './control.ts';
import { mpOrder, pointDevice, pointIntent } from './shapes.ts';
import { SimConflict, type SimStore } from './store.ts';

export class SimHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface SimContext {
  store: SimStore;
  control: SimControl;
  token: string;
  idempotency: Map<string, { fingerprint: string; status: number; body: unknown }>;
}

type Answer = { status: number; body: unknown };
type Params = Record<string, string>;
type Body = Record<string, unknown> | null | undefined;

export function sendError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.code(status).send({ error: code, message, status, cause: [{ code, description: message }] });
}

/**
 * Runs a write once per X-Idempotency-Key: the same key with the same request replays the first
 * answer; with a different request it is refused with 409, as the provider does.
 */
function idempotent(sim: SimContext, request: FastifyRequest, reply: FastifyReply, required: boolean, work: () => Answer) {
  const key = request.headers['x-idempotency-key'];
  const keyText = typeof key === 'string' && key !== '' ? key : null;
  if (!keyText && required) return sendError(reply, 400, 'bad_request', 'header X-Idempotency-Key is required');
  const fingerprint = createHash('sha256')
    .update(`${request.method} ${request.url} ${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
  const stored = keyText ? sim.idempotency.get(keyText) : undefined;
  if (stored) {
    if (stored.fingerprint !== fingerprint)
      return sendError(reply, 409, 'idempotency_key_already_used', 'idempotency key already used with a different request');
    return reply.code(stored.status).header('x-idempotency-replayed', 'true').send(stored.body);
  }
  let answer: Answer;
  try {
    answer = work();
  } catch (error) {
    if (error instanceof SimHttpError) return sendError(reply, error.status, error.code, error.message);
    if (error instanceof SimConflict) return sendError(reply, 409, 'conflict', error.message);
    throw error;
  }
  if (keyText) sim.idempotency.set(keyText, { fingerprint, ...answer });
  return reply.code(answer.status).send(answer.body);
}

function terminalFor(sim: SimContext, id: string | undefined) {
  const terminal = id ? sim.store.terminals.get(id) : undefined;
  if (!terminal) throw new SimHttpError(404, 'not_found', 'terminal not found');
  if (terminal.operatingMode !== 'PDV') throw new SimHttpError(409, 'terminal_not_in_pdv_mode', 'terminal is not in PDV operating mode');
  return terminal;
}

function minimum(amount: number | null): number {
  if (amount === null || !Number.isSafeInteger(amount) || amount <= 0) throw new SimHttpError(400, 'bad_request', 'invalid amount');
  if (amount < CARD_MINIMUM_CENTS) throw new SimHttpError(400, 'amount_below_minimum', 'amount must be at least 5.00 MXN');
  return amount;
}

/** The legacy Point Integration API. */
export function pointRoutes(app: FastifyInstance, sim: SimContext): void {
  app.get('/point/integration-api/devices', async () => {
    const devices = [...sim.store.terminals.values()].map(pointDevice);
    return { devices, paging: { total: devices.length, offset: 0, limit: 50 } };
  });

  app.patch('/point/integration-api/devices/:id', async (request, reply) =>
    idempotent(sim, request, reply, false, () => {
      const terminal = sim.store.terminals.get((request.params as Params).id ?? '');
      if (!terminal) throw new SimHttpError(404, 'not_found', 'device not found');
      const mode = (request.body as Body)?.operating_mode;
      if (mode !== 'PDV' && mode !== 'STANDALONE') throw new SimHttpError(400, 'bad_request', 'operating_mode must be PDV or STANDALONE');
      terminal.operatingMode = mode;
      return { status: 200, body: { operating_mode: mode } };
    }),
  );

  app.post('/point/integration-api/devices/:id/payment-intents', async (request, reply) =>
    idempotent(sim, request, reply, false, () => {
      const terminal = terminalFor(sim, (request.params as Params).id);
      const body = (request.body as Body) ?? {};
      const amount = minimum(typeof body.amount === 'number' ? body.amount : null);
      const info = (body.additional_info ?? {}) as Record<string, unknown>;
      const payment = sim.store.create({
        surface: 'point',
        terminalId: terminal.id,
        amountCents: amount,
        description: typeof body.description === 'string' ? body.description : '',
        externalReference: typeof info.external_reference === 'string' ? info.external_reference : '',
        printOnTerminal: info.print_on_terminal !== false,
      });
      sim.control.created(payment);
      const shown = pointIntent(payment);
      return {
        status: 201,
        body: {
          id: shown.id,
          device_id: shown.device_id,
          amount: shown.amount,
          description: shown.description,
          additional_info: shown.additional_info,
        },
      };
    }),
  );

  app.get('/point/integration-api/payment-intents/:id', async (request, reply) => {
    const payment = sim.store.payments.get((request.params as Params).id ?? '');
    if (!payment || payment.surface !== 'point') return sendError(reply, 404, 'not_found', 'payment intent not found');
    return pointIntent(payment);
  });

  // The latest state as an event (the SDK's getPaymentIntentStatus), and the events of a date range.
  app.get('/point/integration-api/payment-intents/:id/events', async (request, reply) => {
    const payment = sim.store.payments.get((request.params as Params).id ?? '');
    if (!payment || payment.surface !== 'point') return sendError(reply, 404, 'not_found', 'payment intent not found');
    return { status: pointIntent(payment).state, created_on: new Date(payment.updatedAt).toISOString() };
  });

  app.get('/point/integration-api/payment-intents/events', async (request, reply) => {
    const query = request.query as Params;
    const day = (s: string | undefined) => (s && /^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(`${s}T00:00:00Z`) : NaN);
    const [from, to] = [day(query.startDate), day(query.endDate)];
    if (Number.isNaN(from) || Number.isNaN(to))
      return sendError(reply, 400, 'bad_request', 'startDate and endDate (yyyy-mm-dd) are required');
    const events = [...sim.store.payments.values()]
      .filter((p) => p.surface === 'point' && p.updatedAt >= from && p.updatedAt < to + 86_400_000)
      .map((p) => ({ payment_intent_id: p.id, status: pointIntent(p).state, created_on: new Date(p.updatedAt).toISOString() }));
    return { events };
  });

  app.delete('/point/integration-api/devices/:deviceId/payment-intents/:id', async (request, reply) =>
    idempotent(sim, request, reply, false, () => {
      const params = request.params as Params;
      const payment = sim.store.payments.get(params.id ?? '');
      if (!payment || payment.surface !== 'point' || payment.terminalId !== params.deviceId)
        throw new SimHttpError(404, 'not_found', 'payment intent not found');
      sim.store.cancelByApi(payment.id);
      return { status: 200, body: { id: payment.id } };
    }),
  );
}

/** The Orders API (type point). */
export function ordersRoutes(app: FastifyInstance, sim: SimContext): void {
  app.get('/terminals/v1/list', async () => {
    const terminals = [...sim.store.terminals.values()].map(pointDevice);
    return { data: { terminals }, paging: { total: terminals.length, offset: 0, limit: 50 } };
  });

  app.patch('/terminals/v1/setup', async (request, reply) =>
    idempotent(sim, request, reply, true, () => {
      const list = (request.body as Body)?.terminals;
      if (!Array.isArray(list)) throw new SimHttpError(400, 'bad_request', 'terminals is required');
      const updated = list.map((item: { id?: unknown; operating_mode?: unknown }) => {
        const terminal = sim.store.terminals.get(String(item.id));
        if (!terminal) throw new SimHttpError(404, 'not_found', 'terminal not found');
        if (item.operating_mode !== 'PDV' && item.operating_mode !== 'STANDALONE')
          throw new SimHttpError(400, 'bad_request', 'invalid operating_mode');
        terminal.operatingMode = item.operating_mode;
        return { id: terminal.id, operating_mode: terminal.operatingMode };
      });
      return { status: 200, body: { terminals: updated } };
    }),
  );

  app.post('/v1/orders', async (request, reply) =>
    idempotent(sim, request, reply, true, () => {
      const body = (request.body as Body) ?? {};
      if (body.type !== 'point') throw new SimHttpError(400, 'bad_request', 'type must be point');
      if (typeof body.external_reference !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(body.external_reference)) {
        throw new SimHttpError(400, 'bad_request', 'external_reference is invalid');
      }
      const config = (body.config ?? {}) as { point?: { terminal_id?: string } };
      const terminal = terminalFor(sim, config.point?.terminal_id);
      const payments = ((body.transactions ?? {}) as { payments?: { amount?: unknown }[] }).payments;
      const raw = payments?.[0]?.amount;
      if (typeof raw !== 'string' || !/^\d+(\.\d{1,2})?$/.test(raw))
        throw new SimHttpError(400, 'bad_request', 'amount must be a decimal string');
      const amount = minimum(pesosToCents(raw));
      const payment = sim.store.create({
        surface: 'orders',
        terminalId: terminal.id,
        amountCents: amount,
        description: typeof body.description === 'string' ? body.description : '',
        externalReference: body.external_reference,
      });
      sim.control.created(payment);
      return { status: 201, body: mpOrder(payment) };
    }),
  );

  app.get('/v1/orders/:id', async (request, reply) => {
    const payment = sim.store.payments.get((request.params as Params).id ?? '');
    if (!payment || payment.surface !== 'orders') return sendError(reply, 404, 'not_found', 'order not found');
    return mpOrder(payment);
  });

  app.post('/v1/orders/:id/cancel', async (request, reply) =>
    idempotent(sim, request, reply, true, () => {
      const payment = sim.store.payments.get((request.params as Params).id ?? '');
      if (!payment || payment.surface !== 'orders') throw new SimHttpError(404, 'not_found', 'order not found');
      sim.store.cancelByApi(payment.id);
      return { status: 200, body: mpOrder(payment) };
    }),
  );
}
