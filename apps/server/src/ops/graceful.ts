import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * The first phase of a graceful stop. Closing the listener also closes idle keep-alive
 * connections, and a client that sends its next request on one at that instant sees a reset
 * instead of a clean "connection refused". So first every response says `Connection: close`
 * (the client opens a new connection for its next request), until the connections are gone
 * or `maxMs` passed; only then does the listener close and in-flight requests finish.
 */
export function installDrain(app: FastifyInstance): (maxMs: number) => Promise<void> {
  let draining = false;
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Upgraded sockets (live WebSockets) are closed by the live hub with 1012, not here.
  app.server.on('upgrade', (_request, socket: Socket) => sockets.delete(socket));
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
  return async (maxMs) => {
    draining = true;
    const deadline = Date.now() + maxMs;
    while (sockets.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  };
}
