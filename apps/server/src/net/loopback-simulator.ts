import Fastify, { type FastifyInstance } from 'fastify';

/**
 * What the providers' loopback simulators (Mercado Pago's terminal, Facturapi) share: a Fastify
 * app without logs that reads JSON bodies as the providers do (an empty body is no body, a broken
 * one a 400), listening on 127.0.0.1 only, on the port asked or any free one.
 */
export function simulatorApp(opts: { bodyLimit: number; forceCloseConnections?: boolean }): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: opts.bodyLimit, forceCloseConnections: opts.forceCloseConnections ?? false });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (!text) return done(null, null);
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      done(Object.assign(new Error('invalid JSON'), { statusCode: 400 }), undefined);
    }
  });
  return app;
}

/** Listens on the loopback interface; answers the simulator's base URL. */
export async function listenLoopback(app: FastifyInstance, port?: number): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: port ?? 0 });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}
