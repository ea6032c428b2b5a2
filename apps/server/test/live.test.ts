import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { LiveServerMessage } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type TestServer } from '../src/testing/index.ts';

function connectLive(baseUrl: string, cookie: string | null): Promise<{ ws: WebSocket; messages: LiveServerMessage[]; next: (pred: (m: LiveServerMessage) => boolean, ms?: number) => Promise<LiveServerMessage> }> {
  const messages: LiveServerMessage[] = [];
  const waiters: { pred: (m: LiveServerMessage) => boolean; resolve: (m: LiveServerMessage) => void }[] = [];
  const ws = new WebSocket(baseUrl.replace('http', 'ws') + '/api/live', { headers: cookie ? { cookie } : {} });
  ws.on('message', (raw: Buffer) => {
    const msg = JSON.parse(raw.toString()) as LiveServerMessage;
    messages.push(msg);
    for (const w of [...waiters]) if (w.pred(msg)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(msg);
    }
  });
  const next = (pred: (m: LiveServerMessage) => boolean, ms = 5000) =>
    new Promise<LiveServerMessage>((resolve, reject) => {
      const found = messages.find(pred);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error('no matching live message')), ms);
      waiters.push({ pred, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, messages, next }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

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
    server.ctx.live.publish({ topic: 'products', type: 'x', at: 1 });
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
  let child: ChildProcess;
  let childUrl: string;

  beforeAll(async () => {
    server = await startTestServer('postgres');
    const port = 20000 + Math.floor(Math.random() * 20000);
    childUrl = `http://127.0.0.1:${port}`;
    child = spawn('npx', ['tsx', 'apps/server/src/main.ts'], {
      cwd: new URL('../../..', import.meta.url).pathname,
      env: { ...process.env, DATABASE_URL: server.ctx.db.url, PORT: String(port), HOST: '127.0.0.1', DEMO_DATA: 'off', LOG_LEVEL: 'silent', PIN_SECRET: 'test-pin-secret-0123456789' },
      stdio: 'ignore',
    });
    for (let i = 0; i < 100; i++) {
      const ok = await fetch(`${childUrl}/api/health`).then((r) => r.ok).catch(() => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('second server process did not start');
  }, 60_000);

  afterAll(async () => {
    child?.kill('SIGTERM');
    await server?.close();
  });

  it('a client of one process sees a change committed through the other', async () => {
    const res = await fetch(`${childUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: server.users.admin.email, password: 'comanda123' }) });
    expect(res.status).toBe(200);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
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
