import pg from 'pg';
import { randomUUID } from 'node:crypto';
import type { HubEvent, LiveBridge, LiveHub } from './hub.ts';

const CHANNEL = 'comanda_live';
/** The listeners' application_name: how a process counts the others listening on its database. */
const LISTENER_NAME = 'comanda-live';
/** How long a starting process waits for the others to say they heard it, at most. */
const HELLO_WAIT_MS = 3_000;

export interface BridgeOptions {
  /** How often a process counts the others listening (so that it stops sending when alone again). */
  recountMs?: number;
}
/** NOTIFY payloads must stay under 8,000 bytes: a batch is split below that (counted in bytes). */
const MAX_PAYLOAD = 7_000;

/**
 * One event as it crosses: whole when it fits in a NOTIFY, else without the state it carries
 * (a board event's lines, a table's card), so the other processes' screens still hear it and read
 * again instead of never hearing it (a bottle-service table's close names hundreds of lines).
 */
function serialize(event: HubEvent, room: number): { json: string; bytes: number } {
  const whole = JSON.stringify(event);
  const bytes = Buffer.byteLength(whole);
  if (bytes <= room) return { json: whole, bytes };
  const { board: _board, table: _table, ...bare } = event;
  const json = JSON.stringify(bare);
  return { json, bytes: Buffer.byteLength(json) };
}

/**
 * Crosses events between server processes on one PostgreSQL database. Each process
 * delivers its own events directly and ignores their echo; a lost listener reconnects.
 * The events a process publishes in one turn of its event loop (an item add publishes to the
 * order, the tables and the station boards) go out as one NOTIFY: one round trip, not one each.
 * NOTIFYs go one at a time, and what is published while one is on its way goes out together in
 * the next: in a rush (dozens of adds a second) one NOTIFY carries several adds' events, and a
 * quiet moment's event still goes out at once.
 *
 * A process alone sends nothing: a NOTIFY nobody else hears still costs the database and this
 * process's own listener (its echo) a wake-up each. It knows it has company from the others'
 * listeners on the database (counted at its start and every few seconds), and at once from a
 * process that starts: the newcomer says "started", each process that hears it sends from then on
 * and answers "hello", and the newcomer serves nobody before every listener it counted answered
 * (HELLO_WAIT_MS at most). So no screen of the newcomer reads before the others send to it.
 *
 * An event crosses after its commit, so some can be lost without any socket dropping: those of
 * a process killed between a commit and its NOTIFY, those of a NOTIFY that failed, and those sent
 * while this process's listener was reconnecting. Each ends in a resync of the sockets that may
 * have missed them (`resyncAll`: each screen reads again): a process that starts says so to the
 * others (its service restarts it after a crash), a process whose NOTIFY failed tells the others
 * as soon as it can, and a listener that had to reconnect resyncs its own process's sockets.
 */
export async function startPgBridge(url: string, hub: LiveHub, options: BridgeOptions = {}): Promise<LiveBridge> {
  const recountMs = options.recountMs ?? 10_000;
  const origin = randomUUID();
  const prefix = `{"origin":${JSON.stringify(origin)},"events":[`;
  // A NOTIFY is a transaction of its own whose commit would wait for the disk like an add's; it
  // carries nothing the database keeps (a notification never outlives a restart), so it does not wait.
  const publisher = new pg.Pool({ connectionString: url, max: 1, options: '-c synchronous_commit=off' });
  publisher.on('error', () => undefined);
  publisher.on('connect', (client) => client.on('error', () => undefined));
  const notifyRaw = (payload: string) => publisher.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
  let listener: pg.Client | null = null;
  /** The listener's backend, left out of the count of the others'. */
  let listenerPid = 0;
  let closed = false;
  // Whether another process may be listening: until a count says none, assume one is.
  let company = true;
  // Bumped whenever company is learnt from a message: a count begun before it is stale.
  let learnt = 0;
  const hellos = new Set<string>();
  let heardHello = (): void => undefined;
  /** Someone else may be listening (a message from another process, a listener cut): send. */
  const assumeCompany = (): void => {
    company = true;
    learnt++;
  };
  const meet = (other: string): void => {
    assumeCompany();
    // Whoever started hears that this process will send to it from now on.
    notifyRaw(JSON.stringify({ origin, hello: other })).catch(() => undefined);
  };

  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url, application_name: LISTENER_NAME });
    client.on('error', () => undefined);
    client.on('end', () => {
      if (!closed) setTimeout(() => void listen().catch(() => undefined), 1000);
    });
    client.on('notification', (msg) => {
      // This process's own events come back too: recognised by their first bytes, never parsed.
      if (!msg.payload || msg.payload.startsWith(prefix)) return;
      // Anyone with access to the database can NOTIFY this channel: a bad payload is dropped, never thrown.
      try {
        const parsed = JSON.parse(msg.payload) as {
          origin?: unknown;
          resync?: unknown;
          hello?: unknown;
          event?: HubEvent;
          events?: HubEvent[];
        };
        if (parsed.origin === origin) return;
        if (parsed.hello !== undefined) {
          if (parsed.hello === origin && typeof parsed.origin === 'string') {
            hellos.add(parsed.origin);
            heardHello();
          }
          return;
        }
        if (parsed.resync === 'started' && typeof parsed.origin === 'string') meet(parsed.origin);
        else if (!company) assumeCompany();
        // Another process started (perhaps in place of one that died with events not yet sent), or
        // could not send some of its events.
        if (parsed.resync === 'started' || parsed.resync === 'lost') return hub.resyncAll();
        const events = Array.isArray(parsed.events) ? parsed.events : parsed.event ? [parsed.event] : [];
        for (const event of events) if (event && typeof event.topic === 'string') hub.deliver(event);
      } catch {
        // Not ours.
      }
    });
    await client.connect();
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
    await client.query(`LISTEN ${CHANNEL}`);
    // Listening again after a cut: what the others sent meanwhile did not reach this process, and
    // a newcomer's "started" may be among it: assume company until the next count.
    if (listener) {
      hub.resyncAll();
      assumeCompany();
    }
    listener = client;
    listenerPid = pid;
  };
  await listen();

  /** The other processes' listeners on this database now, or null when the count failed. */
  const othersListening = async (): Promise<number | null> => {
    try {
      const { rows } = await publisher.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1 AND pid <> $2`,
        [LISTENER_NAME, listenerPid],
      );
      return rows[0]?.n ?? null;
    } catch {
      return null;
    }
  };
  /** Alone again (the others stopped): sends nothing until one starts. A message heard meanwhile wins. */
  const recount = async (): Promise<void> => {
    const before = learnt;
    const others = await othersListening();
    if (learnt === before) company = others !== 0;
  };

  // Listening already, so that what follows is heard; the others' screens read again.
  const before = learnt;
  const others = await othersListening();
  await notifyRaw(JSON.stringify({ origin, resync: 'started' })).catch(() => undefined);
  if (others !== 0) {
    // Each of them sends to this process once it heard it: wait for their hellos before serving.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, HELLO_WAIT_MS);
      heardHello = () => {
        if (others !== null && hellos.size < others) return;
        clearTimeout(timer);
        resolve();
      };
      heardHello();
    });
    heardHello = () => undefined;
  } else if (learnt === before) {
    // Alone, unless one that started at the same moment was heard meanwhile.
    company = false;
  }
  const counting = setInterval(() => void recount(), recountMs);
  counting.unref();

  let pending: HubEvent[] = [];
  // One NOTIFY at a time, so the other processes hear this one's events in the order it published them.
  let queue: Promise<unknown> = Promise.resolve();
  // A send of the events pending is waiting in the queue (or for the end of this turn): later events join it.
  let gathering = false;
  // Events the others never got: they read again, told once the database takes a NOTIFY again
  // (after this one in the queue; retried every second while it refuses).
  let telling = false;
  const lostMessage = JSON.stringify({ origin, resync: 'lost' });
  const tellLost = (): void => {
    if (telling || closed) return;
    telling = true;
    const attempt = (): Promise<void> =>
      notifyRaw(lostMessage).then(
        () => {
          telling = false;
        },
        () => {
          if (closed) telling = false;
          else setTimeout(retry, 1000).unref();
        },
      );
    const retry = (): void => {
      queue = queue.then(attempt);
    };
    retry();
  };
  /** The payloads of `events`: each serialized once, cut before a payload would pass MAX_PAYLOAD. */
  const payloadsOf = (events: readonly HubEvent[]): string[] => {
    const payloads: string[] = [];
    let batch: string[] = [];
    let size = prefix.length;
    for (const event of events.map((e) => serialize(e, MAX_PAYLOAD - prefix.length - 3))) {
      if (batch.length && size + event.bytes + 3 > MAX_PAYLOAD) {
        payloads.push(`${prefix}${batch.join(',')}]}`);
        batch = [];
        size = prefix.length;
      }
      batch.push(event.json);
      size += event.bytes + 1;
    }
    if (batch.length) payloads.push(`${prefix}${batch.join(',')}]}`);
    return payloads;
  };
  /** Sends every event pending when the queue reaches it (all published meanwhile ride along). */
  const sendPending = async (): Promise<void> => {
    gathering = false;
    const events = pending;
    pending = [];
    for (const payload of payloadsOf(events)) await notifyRaw(payload).catch(() => tellLost());
  };
  const gather = (): void => {
    queue = queue.then(sendPending);
  };

  return {
    send(event) {
      if (!company) return;
      pending.push(event);
      if (gathering) return;
      gathering = true;
      setImmediate(gather);
    },
    async close() {
      closed = true;
      clearInterval(counting);
      // What was published still goes out before the pool closes.
      if (pending.length) gather();
      await queue;
      await listener?.end().catch(() => undefined);
      await publisher.end().catch(() => undefined);
    },
  };
}
