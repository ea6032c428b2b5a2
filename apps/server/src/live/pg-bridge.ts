import pg from 'pg';
import { randomUUID } from 'node:crypto';
import type { HubEvent, LiveBridge, LiveHub } from './hub.ts';

const CHANNEL = 'comanda_live';

/**
 * Crosses events between server processes on one PostgreSQL database. Each process
 * delivers its own events directly and ignores their echo; a lost listener reconnects.
 */
export async function startPgBridge(url: string, hub: LiveHub): Promise<LiveBridge> {
  const origin = randomUUID();
  const publisher = new pg.Pool({ connectionString: url, max: 2 });
  publisher.on('error', () => undefined);
  publisher.on('connect', (client) => client.on('error', () => undefined));
  let listener: pg.Client | null = null;
  let closed = false;

  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    client.on('end', () => {
      if (!closed) setTimeout(() => void listen().catch(() => undefined), 1000);
    });
    client.on('notification', (msg) => {
      if (!msg.payload) return;
      // Anyone with access to the database can NOTIFY this channel: a bad payload is dropped, never thrown.
      try {
        const parsed = JSON.parse(msg.payload) as { origin?: unknown; event?: HubEvent };
        if (parsed.origin !== origin && parsed.event && typeof parsed.event.topic === 'string') hub.deliver(parsed.event);
      } catch {
        // Not ours.
      }
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    listener = client;
  };
  await listen();

  return {
    send(event) {
      const payload = JSON.stringify({ origin, event });
      publisher.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]).catch(() => undefined);
    },
    async close() {
      closed = true;
      await listener?.end().catch(() => undefined);
      await publisher.end().catch(() => undefined);
    },
  };
}
