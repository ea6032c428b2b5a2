import type { FastifyPluginAsync } from 'fastify';
import { LiveClientMessageSchema, type LiveServerMessage } from '@comanda/contract';
import { requireUser } from '../http/context.ts';

/** One WebSocket per browser: subscribe to topics, receive events after commit. */
export const liveRoutes: FastifyPluginAsync = async (app) => {
  app.get('/api/live', { websocket: true, config: { access: 'any' } }, (socket, request) => {
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
