import { listenLoopback, simulatorApp } from '../../../net/loopback-simulator.ts';
import { randomBytes } from 'node:crypto';
import { SimControl } from './control.ts';
import { controlRoutes } from './control-routes.ts';
import { ordersRoutes, pointRoutes, sendError, type SimContext } from './provider-routes.ts';
import { SimStore } from './store.ts';

export interface SimulatorOptions {
  /** The bearer token it accepts; a random one when not given. */
  token?: string;
  /** Demo mode: every payment approves by itself after this long (about 3 s); null: control API only. */
  autoFinishMs?: number | null;
  terminals?: string[];
  port?: number;
}

export interface Simulator {
  url: string;
  token: string;
  store: SimStore;
  control: SimControl;
  close(): Promise<void>;
}

export const DEMO_TERMINAL_ID = 'SIMULADOR_POINT__DEMO-0001';

/** Both Mercado Pago surfaces on 127.0.0.1, with the provider's checks and a control API. */
export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const token = opts.token ?? `TEST-sim-${randomBytes(12).toString('hex')}`;
  const store = new SimStore();
  const control = new SimControl(store, opts.autoFinishMs ?? null);
  for (const id of opts.terminals ?? []) store.addTerminal(id);
  const sim: SimContext = { store, control, token, idempotency: new Map() };

  // Empty bodies on DELETE and cancel calls are fine; the provider accepts them too.
  const app = simulatorApp({ bodyLimit: 64 * 1024 });

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith('/_sim')) return;
    const fault = control.takeFault(path);
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault?.status) {
      const code = fault.status === 429 ? 'too_many_requests' : 'internal_server_error';
      return sendError(reply, fault.status, code, fault.status === 429 ? 'Too Many Requests' : 'simulated failure');
    }
    if (request.headers.authorization !== `Bearer ${token}`) return sendError(reply, 401, 'unauthorized', 'invalid access token');
  });
  app.addHook('preHandler', async (request) => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith('/_sim')) return;
    control.record({
      method: request.method,
      path,
      headers: {
        authorization: request.headers.authorization,
        'x-idempotency-key': request.headers['x-idempotency-key'] as string | undefined,
        'content-type': request.headers['content-type'],
      },
      body: request.body ?? null,
    });
  });

  pointRoutes(app, sim);
  ordersRoutes(app, sim);
  controlRoutes(app, sim);
  app.setNotFoundHandler((_request, reply) => sendError(reply, 404, 'not_found', 'resource not found'));

  const url = await listenLoopback(app, opts.port);
  return {
    url,
    token,
    store,
    control,
    async close() {
      control.stop();
      await app.close();
    },
  };
}
