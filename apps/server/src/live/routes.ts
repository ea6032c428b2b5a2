import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { LiveClientMessageSchema, type LiveServerMessage } from '@comanda/contract';
import { requireUser } from '../http/context.ts';
import { forbidden } from '../http/errors.ts';

/** One WebSocket per browser: subscribe to topics, receive events after commit. */
export const liveRoutes: FastifyPluginAsync = async (app) => {
  // A page of another site could open a socket with the user's cookie (cross-site WebSocket
  // hijacking): browsers always send Origin on an upgrade, so refuse one that is not ours.
  const sameOrigin = async (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (!origin) return;
    let host: string | null = null;
    try {
      host = new URL(origin).host;
    } catch {
      host = null;
    }
    if (host !== request.headers.host) throw forbidden('Origen no permitido');
  };
  app.get('/api/live', { websocket: true, config: { access: 'any' }, preValidation: sameOrigin }, (socket, request) => {
    const user = requireUser(request.user);
    const client = app.ctx.live.connect(socket, user);
    const reply = (m: LiveServerMessage) => socket.send(JSON.stringify(m));
    socket.on('message', (raw: Buffer) => {
      let data: unknown;
      try {
        data = JSON.parse(raw.toString('utf8'));
      } catch {
        return;
      }
      const parsed = LiveClientMessageSchema.safeParse(data);
      if (!parsed.success) return;
      const msg = parsed.data;
      if (msg.op === 'ping') reply({ op: 'pong' });
      else if (msg.op === 'subscribe') reply({ op: 'subscribed', topics: app.ctx.live.subscribe(client, msg.topics) });
      else for (const t of msg.topics) client.topics.delete(t);
    });
    socket.on('close', () => app.ctx.live.disconnect(client));
  });
};
