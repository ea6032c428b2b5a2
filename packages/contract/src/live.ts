import { z } from 'zod';
import type { LiveEventOf } from './live-events.ts';

/**
 * Live topics a browser may subscribe to. Events are sent after commit and carry the
 * entity id and its new version; clients refetch what they show through the HTTP API,
 * so every read stays behind the same authorisation as the routes.
 */
export const LIVE_TOPICS = [
  'tables',
  'orders',
  'board',
  'board:cocina',
  'board:barra',
  'products',
  'config',
  'users',
  'terminals',
  'tickets',
  'printers',
  'drawer',
  'inventory',
  'invoicing',
] as const;
export const LiveTopicSchema = z.union([
  z.enum(LIVE_TOPICS),
  z.string().regex(/^order:[A-Za-z0-9_-]{1,64}$/),
  z.string().regex(/^card-payment:[A-Za-z0-9_-]{1,64}$/),
]);
export type LiveTopic = z.infer<typeof LiveTopicSchema>;

export const LiveEventSchema = z.object({
  topic: z.string(),
  type: z.string(),
  id: z.string().optional(),
  version: z.number().int().optional(),
  at: z.number().int(),
  table: z
    .object({
      id: z.string(),
      number: z.number().int(),
      status: z.enum(['libre', 'ocupada']),
      waiterId: z.string().nullable(),
      waiterName: z.string().nullable(),
      updatedAt: z.number().int(),
      orderWaiters: z.array(z.string()),
      changedOrdersOf: z.string().optional(),
    })
    .optional(),
});
/** An event as sent: its topic and type are typed by topic (live-events.ts); the wire schema above is unchanged. */
export type LiveEvent = LiveEventOf;

export const LiveClientMessageSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('subscribe'), topics: z.array(LiveTopicSchema).max(50) }),
  z.object({ op: z.literal('unsubscribe'), topics: z.array(LiveTopicSchema).max(50) }),
  z.object({ op: z.literal('ping') }),
]);
export type LiveClientMessage = z.infer<typeof LiveClientMessageSchema>;

export type LiveServerMessage =
  | { op: 'event'; event: LiveEvent }
  | { op: 'subscribed'; topics: string[] }
  | { op: 'denied'; topic: string }
  | { op: 'pong' }
  | { op: 'bye'; reason: 'session-ended' }
  /**
   * Events may have been missed without this socket dropping (another server process died before
   * handing its last events on or could not send them, or this one's link to the others was cut a
   * moment): read again what the screen shows, as after a reconnect.
   */
  | { op: 'resync' };

/**
 * Close codes of /api/live besides the standard ones (1001 server shutdown, 1009 frame over the
 * size limit). The browser reconnects after each with backoff, except session-ended.
 */
export const LIVE_CLOSE = {
  sessionEnded: { code: 4401, reason: 'session-ended' },
  tooManyMessages: { code: 4429, reason: 'too-many-messages' },
  tooManyTopics: { code: 4413, reason: 'too-many-topics' },
  tooSlow: { code: 4408, reason: 'too-slow' },
} as const;
