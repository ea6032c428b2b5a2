import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLive, freePort, loginAt, startTestServer, testDatabaseKinds, type TestServer } from '../src/testing/index.ts';
import { startServerProcess, type ServerProcess } from './quality/server-process.ts';

describe.each(testDatabaseKinds())('live channel on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses an anonymous socket', async () => {
    await expect(connectLive(server.url, null)).rejects.toThrow(/401/);
  });

  it('delivers events of subscribed topics only, after subscription', async () => {
    const kitchen = await server.login(server.users.kitchen.email);
    const live = await connectLive(server.url, kitchen.cookie);
    live.ws.send(JSON.stringify({ op: 'subscribe', topics: ['board', 'users'] }));
    const sub = await live.next((m) => m.op === 'subscribed');
    expect(sub).toEqual({ op: 'subscribed', topics: ['board'] });
    expect(live.messages).toContainEqual({ op: 'denied', topic: 'users' });
    server.ctx.live.publish({ topic: 'products', type: 'product.updated', at: 1 });
    server.ctx.live.publish({ topic: 'board', type: 'board.updated', id: 'o1', version: 2, at: 2 });
    const ev = await live.next((m) => m.op === 'event');
    expect(ev).toMatchObject({ op: 'event', event: { topic: 'board', id: 'o1', version: 2 } });
    live.ws.close();
  });

  it('closes the sockets of a user whose sessions end', async () => {
    const waiter = await server.login(server.users.waiter2.email);
    const live = await connectLive(server.url, waiter.cookie);
    const closed = new Promise<number>((resolve) => live.ws.once('close', (code) => resolve(code)));
    await new Promise((r) => setTimeout(r, 50));
    server.ctx.live.disconnectUser(server.users.waiter2.id);
    expect(await closed).toBe(4401);
    expect(live.messages).toContainEqual({ op: 'bye', reason: 'session-ended' });
  });
});

describe.runIf(testDatabaseKinds().includes('postgres'))('live events across server processes (PostgreSQL)', () => {
  let server: TestServer;
  let child: ServerProcess;
  let childUrl: string;

  beforeAll(async () => {
    server = await startTestServer('postgres');
    const env = { DATABASE_URL: server.ctx.db.url, DEMO_DATA: 'off', LOG_LEVEL: 'silent', PIN_SECRET: 'test-pin-secret-0123456789' };
    child = await startServerProcess(env, await freePort());
    childUrl = child.url;
  }, 60_000);

  afterAll(async () => {
    await child?.stop();
    await server?.close();
  });

  it('a client of one process sees a change committed through the other', async () => {
    const { cookie } = await loginAt(childUrl, server.users.admin.email);
    const live = await connectLive(childUrl, cookie);
    live.ws.send(JSON.stringify({ op: 'subscribe', topics: ['tables'] }));
    await live.next((m) => m.op === 'subscribed');
    const admin = await server.login(server.users.admin.email);
    const tables = await admin.get<{ tables: { id: string; number: number }[] }>('/api/tables');
    if (tables.status === 200) {
      const table = tables.body.tables.find((t) => t.number === 3)!;
      expect((await admin.post(`/api/tables/${table.id}/open`)).status).toBe(200);
    } else {
      server.ctx.live.publish({ topic: 'tables', type: 'table.updated', id: 'x', version: 1, at: Date.now() });
    }
    const ev = await live.next((m) => m.op === 'event' && m.event.topic === 'tables', 5000);
    expect(ev.op).toBe('event');
    live.ws.close();
  });
});
