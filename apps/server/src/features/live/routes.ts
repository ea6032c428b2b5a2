import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WebsocketPluginOptions } from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { LIVE_CLOSE, LiveClientMessageSchema, type LiveClientMessage } from '@comanda/contract';
import { requireUser } from '../../http/context.ts';
import { forbidden } from '../../http/errors.ts';
import { LIVE_LIMITS, TokenBucket } from '../../live/limits.ts';
import { authorizeTopics } from '../../live/topic-rights.ts';
import { MESSAGES } from '../../http/messages.ts';

type CloseReason = (typeof LIVE_CLOSE)[keyof typeof LIVE_CLOSE];

/** The WebSocket server's options: the frame size limit, and socket errors that never crash or go unlogged. */
export const liveSocketOptions: WebsocketPluginOptions = {
  options: { maxPayload: LIVE_LIMITS.maxPayloadBytes },
  errorHandler(error, socket, request) {
    // After its own errors (1009 frame too large, 1002 protocol) ws is already closing the socket
    // with the right code; an error of our handler closes it with 1011.
    request.log.warn({ err: error }, 'live socket error');
    if (socket.readyState === socket.OPEN) socket.close(1011, 'server-error');
    setTimeout(() => socket.terminate(), 2000).unref();
  },
};

/**
 * One WebSocket per browser: subscribe to topics, receive events after commit. Every message
 * is rate limited, size limited (maxPayload on the ws server) and handled inside a try/catch in
 * arrival order, so nothing a client sends can throw out of a socket handler or grow without bound.
 */
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
    if (host !== request.headers.host) throw forbidden(MESSAGES.session.badOrigin);
  };

  app.get('/api/live', { websocket: true, config: { access: 'any' }, preValidation: sameOrigin }, (socket: WebSocket, request) => {
    const user = requireUser(request.user);
    const hub = app.ctx.live;
    const limits = LIVE_LIMITS;
    const bucket = new TokenBucket(limits.messagesPerSecond, limits.burst);
    let pending = 0;
    let queue: Promise<void> = Promise.resolve();

    /** Closes this socket for a broken limit; logged once per socket. */
    const kick = (why: CloseReason) => {
      if (client.closed) return;
      hub.disconnect(client);
      request.log.warn({ userId: user.id, role: user.role, code: why.code, reason: why.reason }, 'live socket closed: %s', why.reason);
      try {
        socket.close(why.code, why.reason);
      } catch {
        // Already closing.
      }
      // A client that never answers the close frame is cut off rather than kept half-open.
      setTimeout(() => socket.terminate(), 2000).unref();
    };
    const client = hub.connect(socket, user, kick);

    const handle = async (msg: LiveClientMessage): Promise<void> => {
      if (msg.op === 'ping') return hub.send(client, { op: 'pong' });
      const topics = [...new Set(msg.topics)];
      if (msg.op === 'unsubscribe') return hub.unsubscribe(client, topics);
      // Topics held already were authorised when added: no database round trip to repeat them.
      const fresh = topics.filter((t) => !client.topics.has(t));
      let rights: { granted: string[]; denied: string[] };
      try {
        rights = await authorizeTopics(app.ctx.db.db, user, fresh);
      } catch (error) {
        // The database is away: deny, the browser resubscribes when it reconnects.
        request.log.warn({ err: error }, 'live topic check failed');
        rights = { granted: [], denied: fresh };
      }
      if (client.closed) return;
      const ok = new Set(rights.granted);
      const { granted, overLimit } = hub.subscribe(
        client,
        topics.filter((t) => ok.has(t) || !fresh.includes(t)),
      );
      if (overLimit) return kick(LIVE_CLOSE.tooManyTopics);
      for (const topic of rights.denied) hub.send(client, { op: 'denied', topic });
      hub.send(client, { op: 'subscribed', topics: granted });
    };

    socket.on('message', (raw: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      try {
        if (client.closed) return;
        if (!bucket.take() || pending >= limits.maxPending) return kick(LIVE_CLOSE.tooManyMessages);
        // The protocol is JSON text; binary frames and anything the schema refuses are ignored.
        if (isBinary) return;
        const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : Array.isArray(raw) ? Buffer.concat(raw).toString('utf8') : '';
        let data: unknown;
        try {
          data = JSON.parse(text);
        } catch {
          return;
        }
        const parsed = LiveClientMessageSchema.safeParse(data);
        if (!parsed.success) return;
        pending += 1;
        queue = queue
          .then(() => handle(parsed.data))
          .catch((error: unknown) => request.log.error({ err: error }, 'live message failed'))
          .finally(() => {
            pending -= 1;
          });
      } catch (error) {
        request.log.error({ err: error }, 'live message failed');
      }
    });
    // Logged by liveSocketOptions.errorHandler; ws closes the socket itself.
    socket.on('error', () => hub.disconnect(client));
    socket.on('close', () => hub.disconnect(client));
  });
};
