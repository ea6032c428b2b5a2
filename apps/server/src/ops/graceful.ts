import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * The first phase of a graceful stop. Node's http `server.close()` also destroys idle keep-alive
 * connections at once, and a client that sends its next request on one at that instant sees a
 * reset instead of a clean "connection refused". So first only the listening socket closes (new
 * connections are refused) and every response says `Connection: close`: each client finishes
 * the request it has in flight and opens a new connection for the next one, which is refused.
 * When the connections are gone (or after `maxMs`) the app closes as usual.
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
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  return async (maxMs) => {
    draining = true;
    // net.Server's close: stop listening, without http's closing of idle connections.
    if (app.server.listening) NetServer.prototype.close.call(app.server);
    const deadline = Date.now() + maxMs;
    while (sockets.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  };
}
