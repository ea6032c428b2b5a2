import { insertCardPayment } from '../src/testing/factories.ts';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CLOSE, type LiveServerMessage } from '@comanda/contract';
import { LIVE_LIMITS } from '../src/live/limits.ts';
import { serverProcessOnTempSqlite } from './quality/server-process.ts';
import {
  DEMO_USERS,
  connectLive,
  loginAt,
  startTestServer,
  testDatabaseKinds,
  type LiveTestClient,
  type TestServer,
} from '../src/testing/index.ts';

/** Resolves with the close code and reason of a socket (or of one already closed). */
function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve({ code: -1, reason: 'already closed' });
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** The socket still answers: a ping gets its pong. */
async function answers(live: LiveTestClient): Promise<boolean> {
  const before = live.messages.filter((m) => m.op === 'pong').length;
  live.ws.send(JSON.stringify({ op: 'ping' }));
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    if (live.messages.filter((m) => m.op === 'pong').length > before) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

const uniqueOrderTopics = (n: number) => Array.from({ length: n }, () => `order:${randomUUID()}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(testDatabaseKinds())('live socket hardening on %s', (kind) => {
  let server: TestServer;
  let orderA: string;
  let tableA: string;
  let cardA: string;
  let productId: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    const waiterA = await server.login(server.users.waiter.email);
    const { body } = await waiterA.get<{ tables: { id: string; number: number }[] }>('/api/tables');
    tableA = body.tables.find((t) => t.number === 4)!.id;
    const opened = await waiterA.post<{ order: { id: string } }>(`/api/tables/${tableA}/open`);
    orderA = opened.body.order.id;
    productId = (await server.ctx.db.db.selectFrom('products').select('id').executeTakeFirstOrThrow()).id;
    // A finished card attempt of waiter A's order (written directly: no terminal needed to own one).
    cardA = `cp-${randomUUID()}`;
    const now = server.ctx.clock.now();
    await insertCardPayment(server.ctx.db.db, orderA, {
      id: cardA,
      amount: 100,
      state: 'rejected',
      attempts: 1,
      created_by: server.users.waiter.id,
      created_at: now,
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("denies waiter B the topics of waiter A's order and card payment, and B hears nothing of them", async () => {
    const a = await connectLive(server.url, (await server.login(server.users.waiter.email)).cookie);
    const b = await connectLive(server.url, (await server.login(server.users.waiter2.email)).cookie);
    const admin = await connectLive(server.url, (await server.login(server.users.admin.email)).cookie);
    const kitchen = await connectLive(server.url, (await server.login(server.users.kitchen.email)).cookie);
    const mine = [`order:${orderA}`, `card-payment:${cardA}`];

    a.ws.send(JSON.stringify({ op: 'subscribe', topics: [...mine, 'orders', 'tables'] }));
    expect(await a.next((m) => m.op === 'subscribed')).toEqual({ op: 'subscribed', topics: [...mine, 'orders', 'tables'] });
    b.ws.send(JSON.stringify({ op: 'subscribe', topics: [...mine, 'orders', 'tables', 'order:does-not-exist'] }));
    expect(await b.next((m) => m.op === 'subscribed')).toEqual({ op: 'subscribed', topics: ['orders', 'tables'] });
    expect(b.messages).toContainEqual({ op: 'denied', topic: `order:${orderA}` });
    expect(b.messages).toContainEqual({ op: 'denied', topic: `card-payment:${cardA}` });
    expect(b.messages).toContainEqual({ op: 'denied', topic: 'order:does-not-exist' });
    admin.ws.send(JSON.stringify({ op: 'subscribe', topics: [...mine, 'orders', 'tables'] }));
    expect(await admin.next((m) => m.op === 'subscribed')).toEqual({ op: 'subscribed', topics: [...mine, 'orders', 'tables'] });
    kitchen.ws.send(JSON.stringify({ op: 'subscribe', topics: [...mine, 'orders'] }));
    expect(await kitchen.next((m) => m.op === 'subscribed')).toEqual({ op: 'subscribed', topics: [] });

    // Waiter A changes the order: A and the admin hear it on every topic, B on none.
    const waiterA = await server.login(server.users.waiter.email);
    expect((await waiterA.post(`/api/orders/${orderA}/items`, { productId, quantity: 1 })).status).toBe(200);
    const isOrderEvent = (topic: string) => (m: LiveServerMessage) => m.op === 'event' && m.event.topic === topic && m.event.id === orderA;
    for (const live of [a, admin]) {
      await live.next(isOrderEvent(`order:${orderA}`));
      await live.next(isOrderEvent('orders'));
      await live.next(isOrderEvent('tables'));
    }
    // A change of B's own (opening a table) reaches B: everything before it has been delivered.
    const waiterB = await server.login(server.users.waiter2.email);
    const { body } = await waiterB.get<{ tables: { id: string; number: number; status: string }[] }>('/api/tables');
    const tableB = body.tables.find((t) => t.status === 'libre' && t.number > 4)!;
    const openedB = await waiterB.post<{ order: { id: string } }>(`/api/tables/${tableB.id}/open`);
    await b.next((m) => m.op === 'event' && m.event.topic === 'orders' && m.event.id === openedB.body.order.id);
    // ...and A sees B's table taken (its own event, carrying the table's id) but not B's order.
    await a.next((m) => m.op === 'event' && m.event.topic === 'tables' && m.event.id === tableB.id);
    await sleep(100);
    const leaked = (live: LiveTestClient, id: string) => live.messages.filter((m) => m.op === 'event' && JSON.stringify(m).includes(id));
    expect(leaked(b, orderA), "B never sees A's order id").toEqual([]);
    expect(leaked(a, openedB.body.order.id), "A never sees B's order id").toEqual([]);
    // No owner field ever goes out on the wire.
    expect(a.messages.filter((m) => m.op === 'event' && 'owner' in m.event)).toEqual([]);
    for (const live of [a, b, admin, kitchen]) live.ws.close();
  });

  it('closes a socket flooding subscribe messages of unique topics with 4429; the server keeps serving', { timeout: 60_000 }, async () => {
    const waiterB = await server.login(server.users.waiter2.email);
    const bystander = await connectLive(server.url, waiterB.cookie);
    const flood = await connectLive(server.url, waiterB.cookie);
    const done = closed(flood.ws);
    const rssBefore = process.memoryUsage().rss;
    for (let i = 0; i < 5000 && flood.ws.readyState === WebSocket.OPEN; i++) {
      flood.ws.send(JSON.stringify({ op: 'subscribe', topics: uniqueOrderTopics(50) }));
      if (i % 500 === 0) await sleep(1);
    }
    expect(await done).toEqual({ code: LIVE_CLOSE.tooManyMessages.code, reason: 'too-many-messages' });
    const rssAfter = process.memoryUsage().rss;
    console.log(`live flood (in-process, ${kind}): RSS ${(rssBefore / 2 ** 20).toFixed(0)} → ${(rssAfter / 2 ** 20).toFixed(0)} MB`);
    expect(rssAfter - rssBefore, 'RSS growth under the flood').toBeLessThan(150 * 2 ** 20);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(await answers(bystander), 'the other socket of the same user still works').toBe(true);
    bystander.ws.close();
  });

  it('caps the topics of one socket at 200 (4413); repeating held topics grows nothing', { timeout: 30_000 }, async () => {
    const admin = await server.login(server.users.admin.email);
    const live = await connectLive(server.url, admin.cookie);
    const done = closed(live.ws);
    const held = uniqueOrderTopics(LIVE_LIMITS.maxTopics - 50);
    // One round at a time, each answered before the next: a burst larger than the pending-message
    // bound (topic checks wait for the database) would close the socket on a loaded machine.
    const subscribed = () => live.messages.filter((m) => m.op === 'subscribed').length;
    const sendRound = async (round: number) => {
      for (let i = 0; i < held.length; i += 50) live.ws.send(JSON.stringify({ op: 'subscribe', topics: held.slice(i, i + 50) }));
      const expected = (round + 1) * (held.length / 50);
      for (let waited = 0; subscribed() < expected && waited < 10_000; waited += 20) await sleep(20);
    };
    await sendRound(0);
    // The same topics again and again: the socket stays open and holds no more than before.
    for (let round = 1; round <= 8; round++) await sendRound(round);
    await sleep(1200); // let the token bucket refill
    live.ws.send(JSON.stringify({ op: 'subscribe', topics: uniqueOrderTopics(50) }));
    await sleep(300);
    expect(live.ws.readyState, 'exactly 200 topics are allowed').toBe(WebSocket.OPEN);
    expect(live.messages.filter((m) => m.op === 'subscribed')).toHaveLength(held.length / 50 + 8 * (held.length / 50) + 1);
    live.ws.send(JSON.stringify({ op: 'subscribe', topics: ['orders'] }));
    expect(await done).toEqual({ code: LIVE_CLOSE.tooManyTopics.code, reason: 'too-many-topics' });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('closes only the socket that sends a frame over 16 KB, with 1009', async () => {
    const waiter = await server.login(server.users.waiter.email);
    const other = await connectLive(server.url, waiter.cookie);
    const big = await connectLive(server.url, waiter.cookie);
    const done = closed(big.ws);
    big.ws.on('error', () => undefined);
    big.ws.send(JSON.stringify({ op: 'ping', pad: 'x'.repeat(LIVE_LIMITS.maxPayloadBytes) }));
    expect((await done).code).toBe(1009);
    expect(await answers(other)).toBe(true);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    // Just under the limit is a frame like any other (refused by the schema, so ignored).
    const fine = await connectLive(server.url, waiter.cookie);
    fine.ws.send(JSON.stringify({ op: 'subscribe', topics: ['x'.repeat(LIVE_LIMITS.maxPayloadBytes - 100)] }));
    expect(await answers(fine)).toBe(true);
    other.ws.close();
    fine.ws.close();
  });

  it('ignores invalid JSON, unknown ops, wrong shapes and binary frames without closing or crashing', async () => {
    const waiter = await server.login(server.users.waiter.email);
    const live = await connectLive(server.url, waiter.cookie);
    const junk: (string | Buffer)[] = [
      '{',
      'null',
      '42',
      '"subscribe"',
      '[]',
      '{}',
      JSON.stringify({ op: 'nope' }),
      JSON.stringify({ op: 'subscribe' }),
      JSON.stringify({ op: 'subscribe', topics: 'orders' }),
      JSON.stringify({ op: 'subscribe', topics: [1, null, {}] }),
      JSON.stringify({ op: 'subscribe', topics: Array(51).fill('orders') }),
      JSON.stringify({ op: 'unsubscribe', topics: ['order:never-held'] }),
      JSON.stringify({ op: 'subscribe', topics: ['orders'], __proto__: { polluted: true } }),
      '{"op":"subscribe","topics":["orders"],"constructor":{"prototype":{"polluted":true}}}',
      '\u0000\uffff',
      Buffer.from([0xff, 0xfe, 0x00, 0x01]),
      Buffer.from(JSON.stringify({ op: 'ping' })),
    ];
    for (const frame of junk) live.ws.send(frame, { binary: Buffer.isBuffer(frame) });
    expect(await answers(live)).toBe(true);
    // Only the text ping got an answer (the binary one is ignored), and the valid subscribes theirs.
    expect(live.messages.filter((m) => m.op === 'pong')).toHaveLength(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    live.ws.close();
  });

  it('closes a socket whose client stops reading instead of buffering for it (4408)', { timeout: 30_000 }, async () => {
    const kitchen = await server.login(server.users.kitchen.email);
    const live = await connectLive(server.url, kitchen.cookie);
    live.ws.send(JSON.stringify({ op: 'subscribe', topics: ['products'] }));
    await live.next((m) => m.op === 'subscribed');
    const connected = server.ctx.live.size;
    const done = closed(live.ws);
    // Stop reading: the kernel buffers fill, then the server's queue would grow without bound.
    const raw = (live.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    const event = { topic: 'products', type: 'product.updated', id: 'x'.repeat(200), at: 1 } as const;
    for (let i = 0; i < 400 && server.ctx.live.size >= connected; i++) {
      for (let j = 0; j < 1000; j++) server.ctx.live.publish(event);
      await sleep(5);
    }
    expect(server.ctx.live.size, 'the server dropped the client that does not read').toBe(connected - 1);
    raw.resume();
    // The close frame queues behind the unread data and the connection is cut 2 s later, so either code.
    expect([LIVE_CLOSE.tooSlow.code, 1006]).toContain((await done).code);
  });
});

/** The flood's length: 20 s on demand (LIVE_FLOOD_SECONDS), 6 s under CI=true, where memory growth already shows. */
const FLOOD_SECONDS = Number(process.env.LIVE_FLOOD_SECONDS ?? (process.env.CI === 'true' ? 6 : 20));

describe('a waiter flooding /api/live against a separate server process (SQLite)', () => {
  const flood = serverProcessOnTempSqlite('comanda-live-flood-', {
    DEMO_DATA: 'auto',
    LOG_LEVEL: 'error',
    PIN_SECRET: 'live-flood-pin-secret-0123456789',
  });
  const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${flood.current.child.pid}/status`, 'utf8'))![1]) / 1024;

  it.runIf(process.platform === 'linux')(
    `stays up with bounded memory while a waiter reconnects and floods for ${FLOOD_SECONDS} s`,
    { timeout: 90_000 },
    async () => {
      const waiter = DEMO_USERS.find((u) => u.role === 'waiter')!;
      const { cookie } = await loginAt(flood.current.url, waiter.email);
      const before = rssMb();
      let sent = 0;
      let sockets = 0;
      const codes = new Map<number, number>();
      const end = Date.now() + FLOOD_SECONDS * 1000;
      while (Date.now() < end) {
        const live = await connectLive(flood.current.url, cookie);
        sockets++;
        const done = closed(live.ws);
        while (live.ws.readyState === WebSocket.OPEN && Date.now() < end) {
          live.ws.send(JSON.stringify({ op: 'subscribe', topics: uniqueOrderTopics(50) }));
          sent++;
          if (sent % 100 === 0) await sleep(1);
        }
        live.ws.close();
        const { code } = await done;
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }
      const after = rssMb();
      console.log(
        `live flood (separate process): ${sent} messages on ${sockets} sockets in ${FLOOD_SECONDS} s, closes ${JSON.stringify(Object.fromEntries(codes))}, RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB`,
      );
      expect(flood.current.child.exitCode, flood.current.output()).toBeNull();
      expect(codes.get(LIVE_CLOSE.tooManyMessages.code) ?? 0).toBeGreaterThan(0);
      expect((await fetch(`${flood.current.url}/api/health`)).status).toBe(200);
      expect(after - before, 'RSS growth').toBeLessThan(150);
      expect(flood.current.output()).not.toMatch(/RangeError|uncaught/i);
    },
  );
});
