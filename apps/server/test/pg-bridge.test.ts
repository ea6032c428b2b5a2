import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '@comanda/contract';
import { LiveHub } from '../src/live/hub.ts';
import { startPgBridge } from '../src/live/pg-bridge.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/databases.ts';

/** The events a hub hears from now on. */
function heard(hub: LiveHub): { events: LiveEvent[]; stop: () => void } {
  const events: LiveEvent[] = [];
  const stop = hub.onEvent((e) => events.push(e));
  return { events, stop };
}

/** Waits until `check` holds, for 5 s at most (then fails with `what`). */
async function until(check: () => boolean, what = 'timed out'): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Whether `events` hold the event with this id. */
const holds = (events: readonly LiveEvent[], id: string) => events.some((e) => 'id' in e && e.id === id);

/** A plain client listening on the bridge's channel, not a Comanda process: every payload it hears. */
async function listeningSpy(url: string, heard: string[]): Promise<pg.Client> {
  const spy = new pg.Client({ connectionString: url });
  await spy.connect();
  spy.on('notification', (msg) => heard.push(msg.payload ?? ''));
  await spy.query('LISTEN comanda_live');
  return spy;
}

/**
 * Events between server processes on one PostgreSQL database (live/pg-bridge.ts): what one
 * process publishes in a turn of its event loop reaches the other in order, in one NOTIFY; what it
 * publishes while a NOTIFY is on its way goes in the next; a turn too large for one payload is
 * split, losing nothing.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the PostgreSQL live bridge', () => {
  let database: TestDatabase;
  const hubs: LiveHub[] = [];
  let spy: pg.Client;
  const notifications: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    for (let i = 0; i < 2; i++) {
      const hub = new LiveHub();
      hub.setBridge(await startPgBridge(database.url, hub));
      hubs.push(hub);
    }
    spy = await listeningSpy(database.url, notifications);
  }, 60_000);
  afterAll(async () => {
    await spy?.end();
    for (const hub of hubs) await hub.close();
    await database?.drop();
  });

  it('three events of one turn cross in order, in one NOTIFY; the publisher never hears its own echo', async () => {
    const [a, b] = hubs as [LiveHub, LiveHub];
    const far = heard(b);
    const near = heard(a);
    notifications.length = 0;
    const sent: LiveEvent[] = [
      { topic: 'orders', type: 'order.updated', id: 'o-1', version: 2, at: 1 },
      { topic: 'tables', type: 'table.updated', id: 't-1', at: 2 },
      { topic: 'board', type: 'board.updated', at: 3 },
    ];
    for (const e of sent) a.publish(e);
    await until(() => far.events.length === 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(far.events).toEqual(sent);
    expect(notifications).toHaveLength(1);
    // Delivered here once (directly), not again from the echo.
    expect(near.events).toEqual(sent);
    far.stop();
    near.stop();
  });

  it('events published turn after turn while a NOTIFY is on its way go together in the next, in order', async () => {
    const [a, b] = hubs as [LiveHub, LiveHub];
    const far = heard(b);
    notifications.length = 0;
    // A rush: one add's events per turn of the event loop, far faster than a NOTIFY's round trip.
    const sent: LiveEvent[] = Array.from({ length: 40 }, (_, i) => ({
      topic: 'orders',
      type: 'order.updated',
      id: `rush-${i}`,
      version: i,
      at: i,
    }));
    for (const e of sent) {
      a.publish(e);
      await new Promise((r) => setImmediate(r));
    }
    await until(() => far.events.length === 40);
    await new Promise((r) => setTimeout(r, 100));
    expect(far.events).toEqual(sent);
    // Without the gathering each turn is a NOTIFY of its own (40); here some carry several turns' events.
    const carrying = notifications.filter((n) => n.includes('"rush-'));
    expect(carrying.length).toBeLessThan(40);
    expect(carrying.some((n) => (n.match(/"rush-/g) ?? []).length > 1)).toBe(true);
    far.stop();
  });

  it('a turn larger than one payload is split and every event arrives, in order', async () => {
    const [a, b] = hubs as [LiveHub, LiveHub];
    const far = heard(b);
    notifications.length = 0;
    const sent: LiveEvent[] = Array.from({ length: 300 }, (_, i) => ({
      topic: 'orders',
      type: 'order.updated',
      id: `order-${'x'.repeat(40)}-${i}`,
      at: i,
    }));
    for (const e of sent) a.publish(e);
    await until(() => far.events.length === 300);
    expect(far.events).toEqual(sent);
    expect(notifications.length).toBeGreaterThan(1);
    expect(notifications.length).toBeLessThan(300);
    expect(Math.max(...notifications.map((n) => Buffer.byteLength(n)))).toBeLessThan(8000);
    far.stop();
  });

  it('an event too large for one NOTIFY crosses without the lines it carries, so the other process reads again', async () => {
    const [a, b] = hubs as [LiveHub, LiveHub];
    const far = heard(b);
    const near = heard(a);
    notifications.length = 0;
    // A bottle-service table's close names hundreds of lines; names with accents take two bytes a letter.
    const removed = Array.from({ length: 300 }, (_, i) => `línea-añadida-${'ñ'.repeat(10)}-${i}`);
    const small: LiveEvent = {
      topic: 'board:barra',
      type: 'board.updated',
      id: 'o-3',
      version: 4,
      at: 6,
      board: { lines: [], removed: ['x'] },
    };
    const big: LiveEvent = { topic: 'board:cocina', type: 'board.updated', id: 'o-2', version: 3, at: 5, board: { lines: [], removed } };
    a.publish(big);
    a.publish(small);
    await until(() => far.events.length === 2);
    const { board: _lines, ...bare } = big;
    expect(far.events).toEqual([bare, small]);
    // This process's own sockets still get the whole event.
    expect(near.events[0]).toEqual(big);
    expect(Math.max(...notifications.map((n) => Buffer.byteLength(n)))).toBeLessThan(8000);
    far.stop();
    near.stop();
  });

  /** A screen on `hub`: the messages the server sends its socket. */
  const screen = (hub: LiveHub) => {
    const received: unknown[] = [];
    const socket = { send: (data: string) => void received.push(JSON.parse(data)), close: () => undefined };
    const client = hub.connect(socket, { id: 'u-cocina', email: 'cocina@comanda.lan', displayName: 'Cocina', role: 'kitchen' });
    hub.subscribe(client, ['board:cocina']);
    const count = (op: string) => received.filter((m) => (m as { op: string }).op === op).length;
    return {
      received,
      resyncs: () => count('resync'),
      events: () => count('event'),
      leave: () => hub.disconnect(client),
    };
  };

  it('a process that starts (its service restarting it after a crash) makes the screens on the others read again', async () => {
    const [a, b] = hubs as [LiveHub, LiveHub];
    const onA = screen(a);
    const onB = screen(b);
    // The events a process died with never crossed: nothing but a resync can tell the others' screens.
    const restarted = new LiveHub();
    const onRestarted = screen(restarted);
    restarted.setBridge(await startPgBridge(database.url, restarted));
    try {
      await until(() => onA.resyncs() === 1 && onB.resyncs() === 1);
      await new Promise((r) => setTimeout(r, 100));
      expect([onA.resyncs(), onB.resyncs()]).toEqual([1, 1]);
      expect(onRestarted.received).toEqual([]); // its own screens connect after it starts, and read then
      // And it is one of them now: its events cross.
      const far = heard(a);
      const event: LiveEvent = { topic: 'board:cocina', type: 'board.updated', id: 'o-9', version: 1, at: 9 };
      restarted.publish(event);
      await until(() => far.events.length === 1);
      expect(far.events).toEqual([event]);
      expect(onA.received.at(-1)).toEqual({ op: 'event', event });
      far.stop();
    } finally {
      onA.leave();
      onB.leave();
      await restarted.close();
    }
  });

  it('events whose NOTIFY failed make the screens on the other processes read again, once; this one had them', async () => {
    const [a, b] = hubs as [LiveHub, LiveHub];
    const onA = screen(a);
    const onB = screen(b);
    try {
      // PostgreSQL refuses a payload over 8,000 bytes: an event this large cannot cross (as any
      // NOTIFY on a connection that dies under it).
      const unsendable: LiveEvent = { topic: 'board:cocina', type: 'board.updated', id: `o-${'x'.repeat(9000)}`, at: 11 };
      a.publish(unsendable);
      a.publish({ ...unsendable, at: 12 });
      await until(() => onB.resyncs() === 1);
      await new Promise((r) => setTimeout(r, 100));
      expect([onA.resyncs(), onB.resyncs()]).toEqual([0, 1]);
      expect([onA.events(), onB.events()]).toEqual([2, 0]);
      // The next events cross as before.
      const far = heard(b);
      const event: LiveEvent = { topic: 'board:cocina', type: 'board.updated', id: 'o-12', version: 1, at: 13 };
      a.publish(event);
      await until(() => far.events.length === 1);
      expect(far.events).toEqual([event]);
      far.stop();
    } finally {
      onA.leave();
      onB.leave();
    }
  });

  it("a listener cut from the database listens again and its process's screens read again; events cross again", async () => {
    const [a, b] = hubs as [LiveHub, LiveHub];
    const onA = screen(a);
    const onB = screen(b);
    try {
      // Every listening backend but the spy's: both processes lose their listener (what the others
      // send until they listen again is missed), as when PostgreSQL restarts or the link drops.
      const cut = await spy.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN comanda_live%'`,
      );
      expect(cut.rows.length).toBe(2);
      await until(() => onA.resyncs() === 1 && onB.resyncs() === 1);
      const far = heard(b);
      const event: LiveEvent = { topic: 'board:cocina', type: 'board.updated', id: 'o-10', version: 1, at: 10 };
      a.publish(event);
      await until(() => far.events.length === 1);
      expect(far.events).toEqual([event]);
      expect([onA.resyncs(), onB.resyncs()]).toEqual([1, 1]);
      far.stop();
    } finally {
      onA.leave();
      onB.leave();
    }
  });
});

/**
 * A process alone on its database sends no NOTIFY (nobody else would hear it, and each costs the
 * database and the process's own listener a wake-up); it sends as soon as another starts, before
 * that one serves anybody, and stops again once it is alone.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the PostgreSQL live bridge, alone and in company', () => {
  let database: TestDatabase;
  let spy: pg.Client;
  const notifications: string[] = [];
  const closing: LiveHub[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    spy = await listeningSpy(database.url, notifications);
  }, 60_000);
  afterAll(async () => {
    await spy?.end();
    for (const hub of closing) await hub.close();
    await database?.drop();
  });

  const start = async (recountMs = 50) => {
    const hub = new LiveHub();
    hub.setBridge(await startPgBridge(database.url, hub, { recountMs }));
    return hub;
  };
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const event = (id: string): LiveEvent => ({ topic: 'orders', type: 'order.updated', id, version: 1, at: 1 });
  const carrying = (id: string) => notifications.filter((n) => n.includes(`"${id}"`)).length;

  it('sends nothing alone, crosses both ways once a second process starts, and stops again when that one is gone', async () => {
    const a = await start();
    closing.push(a);
    a.publish(event('alone-1'));
    await pause(150);
    expect(carrying('alone-1')).toBe(0);

    // The newcomer starts only once the first said it heard it: from then on each hears the other.
    const b = await start();
    // The first one's hello reached the newcomer's listener before its start returned; the spy's copy follows.
    for (let waited = 0; !notifications.some((n) => n.includes('"hello"')) && waited < 2000; waited += 10) await pause(10);
    expect(notifications.some((n) => n.includes('"hello"'))).toBe(true);
    const atB = heard(b);
    const atA = heard(a);
    a.publish(event('together-a'));
    b.publish(event('together-b'));
    await until(() => holds(atB.events, 'together-a') && holds(atA.events, 'together-b'), 'the events did not cross');
    atA.stop();
    atB.stop();

    // The second one stops: after a count, the first is alone again and sends nothing.
    await b.close();
    await pause(300);
    a.publish(event('alone-2'));
    await pause(150);
    expect(carrying('alone-2')).toBe(0);
    expect(carrying('together-a')).toBe(1);
    await a.close();
    closing.splice(closing.indexOf(a), 1);
  });

  it('two processes that start at the same moment hear each other', async () => {
    for (let round = 0; round < 3; round++) {
      // No count in between to mend a wrong start: each must know of the other from the start alone.
      const [a, b] = await Promise.all([start(60_000), start(60_000)]);
      const atA = heard(a);
      const atB = heard(b);
      a.publish(event(`same-a-${round}`));
      b.publish(event(`same-b-${round}`));
      await until(
        () => holds(atB.events, `same-a-${round}`) && holds(atA.events, `same-b-${round}`),
        `round ${round}: the events did not cross`,
      );
      atA.stop();
      atB.stop();
      await Promise.all([a.close(), b.close()]);
    }
  });
});
