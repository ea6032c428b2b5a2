import type { FastifyInstance } from 'fastify';
import { sendError, type SimContext } from './provider-routes.ts';
import { SIM_ACTIONS, SimConflict, type SimAction } from './store.ts';

type Params = Record<string, string>;
type Body = Record<string, unknown> | null | undefined;

const isAction = (v: unknown): v is SimAction => typeof v === 'string' && (SIM_ACTIONS as readonly string[]).includes(v);

/**
 * The control API under /_sim (no token: loopback only): what a person would do at the
 * terminal, and the provider's bad days (429, 5xx, slow answers).
 */
export function controlRoutes(app: FastifyInstance, sim: SimContext): void {
  app.get('/_sim/state', async () => ({
    terminals: [...sim.store.terminals.values()],
    payments: [...sim.store.payments.values()],
    autoFinishMs: sim.control.autoFinishMs,
  }));

  app.get('/_sim/requests', async () => ({ requests: sim.control.requests }));

  app.post('/_sim/reset', async () => {
    sim.store.reset();
    sim.control.reset();
    sim.idempotency.clear();
    return { ok: true };
  });

  app.post('/_sim/terminals', async (request, reply) => {
    const body = (request.body as Body) ?? {};
    if (typeof body.id !== 'string' || !/^[A-Za-z0-9_.:-]{1,100}$/.test(body.id))
      return sendError(reply, 400, 'bad_request', 'id is required');
    const mode = body.operatingMode === 'STANDALONE' ? 'STANDALONE' : 'PDV';
    return { terminal: sim.store.addTerminal(body.id, mode) };
  });

  app.delete('/_sim/terminals/:id', async (request) => {
    sim.store.terminals.delete((request.params as Params).id ?? '');
    return { ok: true };
  });

  /** The next payments on the terminal end with these outcomes, by themselves. */
  app.post('/_sim/terminals/:id/script', async (request, reply) => {
    const outcomes = (request.body as Body)?.outcomes;
    if (!Array.isArray(outcomes) || !outcomes.every(isAction))
      return sendError(reply, 400, 'bad_request', `outcomes: ${SIM_ACTIONS.join(', ')}`);
    sim.control.script((request.params as Params).id ?? '', outcomes);
    return { ok: true };
  });

  /** The payment the terminal holds now, if any (tests do not need the provider id). */
  app.get('/_sim/terminals/:id/current', async (request) => {
    const id = (request.params as Params).id ?? '';
    const latest = [...sim.store.payments.values()].filter((p) => p.terminalId === id).at(-1) ?? null;
    return { payment: sim.store.holding(id) ?? null, latest };
  });

  app.post('/_sim/payments/:id/raw', async (request, reply) => {
    const body = (request.body as Body) ?? {};
    if (typeof body.state !== 'string') return sendError(reply, 400, 'bad_request', 'state is required');
    const raw = {
      state: body.state,
      paymentStatus: typeof body.paymentStatus === 'string' ? body.paymentStatus : undefined,
      statusDetail: typeof body.statusDetail === 'string' ? body.statusDetail : undefined,
    };
    try {
      return { payment: sim.store.setRaw((request.params as Params).id ?? '', raw) };
    } catch (error) {
      if (error instanceof SimConflict) return sendError(reply, 404, 'not_found', error.message);
      throw error;
    }
  });

  /** The terminal charges another amount than it was asked for (a provider's bad day, for the review path). */
  app.post('/_sim/payments/:id/amount', async (request, reply) => {
    const amount = (request.body as Body)?.amountCents;
    const payment = sim.store.payments.get((request.params as Params).id ?? '');
    if (!payment) return sendError(reply, 404, 'not_found', 'payment not found');
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1)
      return sendError(reply, 400, 'bad_request', 'amountCents must be a positive integer');
    payment.amountCents = amount;
    return { payment };
  });

  app.post('/_sim/payments/:id/:action', async (request, reply) => {
    const { id, action } = request.params as Params;
    if (!isAction(action)) return sendError(reply, 404, 'not_found', `unknown action; use ${SIM_ACTIONS.join(', ')}`);
    try {
      return { payment: sim.store.apply(id ?? '', action) };
    } catch (error) {
      if (error instanceof SimConflict) return sendError(reply, 409, 'conflict', error.message);
      throw error;
    }
  });

  app.post('/_sim/faults', async (request, reply) => {
    const body = (request.body as Body) ?? {};
    const status = typeof body.status === 'number' ? body.status : undefined;
    const delayMs = typeof body.delayMs === 'number' ? body.delayMs : undefined;
    if (status === undefined && delayMs === undefined) return sendError(reply, 400, 'bad_request', 'status or delayMs is required');
    const count = typeof body.count === 'number' ? body.count : 1;
    sim.control.addFault({ status, delayMs, count, path: typeof body.path === 'string' ? body.path : undefined });
    return { faults: sim.control.faults };
  });

  app.delete('/_sim/faults', async () => {
    sim.control.faults.length = 0;
    return { ok: true };
  });

  app.post('/_sim/demo', async (request) => {
    const ms = (request.body as Body)?.autoFinishMs;
    sim.control.autoFinishMs = typeof ms === 'number' ? ms : null;
    return { autoFinishMs: sim.control.autoFinishMs };
  });
}
