import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { LiveServerMessage } from '@comanda/contract';
import { apiClient, freePort, REPO_ROOT, startTestServer, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { liveInbox } from '../src/testing/live-client.ts';
import { RESPONSE_GRACE_MS } from '../src/http/idempotency.ts';
import { startServerProcess, type ServerProcess } from './quality/server-process.ts';

/**
 * Issue 21, item 4: several server processes on one PostgreSQL behind a real nginx, configured
 * by the shipped deploy/nginx/comanda.conf (only its upstream ports and listen address are
 * replaced, and a response header naming the upstream is added so the test knows where each
 * socket landed). Three real processes; a waiter, a board (kitchen) and an admin, each on its own
 * process, see each other's changes live; kill -9 of one moves its clients to the others without
 * losing an acknowledged write; PIN and sign-in budgets are one budget across the processes.
 */
const NGINX = [process.env.NGINX_BIN, '/usr/sbin/nginx', '/usr/bin/nginx'].find((p): p is string => !!p && existsSync(p)) ?? null;
const missing = !NGINX
  ? 'nginx is not installed (apt-get install nginx)'
  : !process.env.TEST_DATABASE_URL
    ? 'TEST_DATABASE_URL is not set (PostgreSQL)'
    : null;
if (missing) console.warn(`several-processes test skipped: ${missing}`);

const PIN_SECRET = 'test-pin-secret-0123456789';
type Err = { error: { code: string; message: string } };

/** The shipped configuration, pointed at these processes and this port, inside a minimal nginx.conf. */
function nginxConf(dir: string, listenPort: number, upstreamPorts: number[]): string {
  const shipped = readFileSync(join(REPO_ROOT, 'deploy/nginx/comanda.conf'), 'utf8');
  const servers = upstreamPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=10s;`).join('\n');
  const site = shipped
    .replace(/(upstream comanda \{\n)(?:.*\n)*?(\s*keepalive)/, (_m, head: string, tail: string) => `${head}${servers}\n${tail}`)
    .replace(/listen 80;/, `listen 127.0.0.1:${listenPort};\n    add_header X-Test-Upstream $upstream_addr always;`);
  expect(site).toContain(`127.0.0.1:${upstreamPorts[2]}`);
  expect(site).not.toContain('127.0.0.1:3001');
  const user = process.getuid?.() === 0 ? 'user root root;\n' : '';
  return `${user}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${site}
}
`;
}

async function startNginx(dir: string, port: number, upstreamPorts: number[]): Promise<ChildProcess> {
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConf(dir, port, upstreamPorts));
  const check = spawnSync(NGINX!, ['-t', '-p', dir, '-c', conf, '-e', join(dir, 'error.log')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t failed:\n${check.stderr}`);
  const child = spawn(NGINX!, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) return child;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`nginx did not start:\n${readFileSync(join(dir, 'error.log'), 'utf8')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Live {
  ws: WebSocket;
  /** The process (127.0.0.1:port) nginx chose for this socket. */
  upstream: string;
  messages: LiveServerMessage[];
  next(pred: (m: LiveServerMessage) => boolean, ms?: number): Promise<LiveServerMessage>;
  closed: Promise<number>;
}

/** A live socket through nginx, as a browser opens it (Origin of the page, the session cookie). */
function openLive(base: string, cookie: string, topics: string[]): Promise<Live> {
  const ws = new WebSocket(base.replace('http', 'ws') + '/api/live', { headers: { cookie, origin: base } });
  let upstream = '';
  ws.on('upgrade', (res) => (upstream = String(res.headers['x-test-upstream'] ?? '')));
  const { messages, next } = liveInbox(ws, { waitMs: 8000, detail: () => ` on ${upstream}: ${JSON.stringify(messages)}` });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.send(JSON.stringify({ op: 'subscribe', topics }));
      void next((m) => m.op === 'subscribed').then(() => resolve({ ws, upstream, messages, next, closed }), reject);
    });
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

const isEvent = (topic: string) => (m: LiveServerMessage) => m.op === 'event' && m.event.topic === topic;

async function loginThrough(base: string, email: string): Promise<ApiClient> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'comanda123' }),
  });
  expect(res.status).toBe(200);
  return apiClient(base, (res.headers.get('set-cookie') ?? '').split(';')[0]!);
}

describe.skipIf(missing)(`several server processes behind nginx${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let server: TestServer; // prepares the database (migrations, demo data) and reads it back; not behind nginx
  let processes: ServerProcess[] = [];
  let nginx: ChildProcess | null = null;
  let dir = '';
  let base = '';
  let env: Record<string, string> = {};
  const started = Date.now();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-nginx-'));
    server = await startTestServer('postgres');
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    env = {
      DATABASE_URL: server.ctx.db.url,
      DATA_DIR: dir,
      DEMO_DATA: 'off',
      LOG_LEVEL: 'silent',
      PIN_SECRET,
      BACKUP_EVERY: 'off',
      // nginx connects from loopback: only its X-Forwarded-For is believed.
      TRUST_PROXY: '127.0.0.1',
    };
    processes = await Promise.all(ports.map((port) => startServerProcess(env, port, 120_000)));
    const nginxPort = await freePort();
    nginx = await startNginx(dir, nginxPort, ports);
    base = `http://127.0.0.1:${nginxPort}`;
  }, 180_000);

  afterAll(async () => {
    nginx?.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.stop()));
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    console.log(`several-processes test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  const tableId = async (api: ApiClient, number: number) =>
    (await api.get<{ tables: { id: string; number: number }[] }>('/api/tables')).body.tables.find((t) => t.number === number)!.id;

  /** Opens live sockets through nginx until each of the three lands on its own process. */
  async function spreadSockets(clients: { cookie: string; topics: string[] }[]): Promise<Live[]> {
    const lives: Live[] = [];
    for (const client of clients) {
      for (let attempt = 0; ; attempt++) {
        const live = await openLive(base, client.cookie, client.topics);
        if (!lives.some((l) => l.upstream === live.upstream)) {
          lives.push(live);
          break;
        }
        live.ws.close();
        if (attempt > 10) throw new Error('nginx kept choosing the same process');
      }
    }
    return lives;
  }

  let waiter: ApiClient;
  let kitchen: ApiClient;
  let admin: ApiClient;
  let sockets: Live[] = [];
  let orderId = '';
  let productId = '';

  it('a waiter, a board and an admin on three processes see each other live, through nginx', async () => {
    waiter = await loginThrough(base, server.users.waiter.email);
    kitchen = await loginThrough(base, server.users.kitchen.email);
    admin = await loginThrough(base, server.users.admin.email);
    sockets = await spreadSockets([
      { cookie: waiter.cookie!, topics: ['tables', 'orders'] },
      { cookie: kitchen.cookie!, topics: ['tables', 'board'] },
      { cookie: admin.cookie!, topics: ['tables', 'orders', 'board'] },
    ]);
    const [waiterLive, boardLive, adminLive] = sockets as [Live, Live, Live];
    expect(new Set(sockets.map((s) => s.upstream)).size).toBe(3);

    // The admin opens a table: the waiter and the board hear it from other processes.
    expect((await admin.post(`/api/tables/${await tableId(admin, 7)}/open`)).status).toBe(200);
    await waiterLive.next(isEvent('tables'));
    await boardLive.next(isEvent('tables'));

    // The waiter opens a table and orders: the board and the admin hear it.
    const opened = await waiter.post<{ order: { id: string } }>(`/api/tables/${await tableId(waiter, 8)}/open`);
    expect(opened.status).toBe(200);
    orderId = opened.body.order.id;
    const product = await server.ctx.db.db.selectFrom('products').select('id').where('available', '=', 1).executeTakeFirstOrThrow();
    productId = product.id;
    expect((await waiter.post(`/api/orders/${orderId}/items`, { productId, quantity: 1 })).status).toBe(200);
    await boardLive.next(isEvent('board'));
    await adminLive.next((m) => m.op === 'event' && m.event.topic === 'orders' && m.event.id === orderId);
  });

  it('PIN guesses and wrong passwords spread over the processes spend one shared budget, at the one-process limits', async () => {
    const direct = processes.map((p) => apiClient(p.url, waiter.cookie));
    const added = await waiter.post<{ order: { items: { id: string }[] } }>(`/api/orders/${orderId}/items`, { productId, quantity: 1 });
    const itemId = added.body.order.items.at(-1)!.id;
    const path = `/api/orders/${orderId}/items/${itemId}/delete`;
    // The session's budget is 5 wrong PINs (as with one process): each goes to the next process in turn.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await direct[i % 3]!.post(path, { pin: String(9100 + i) })).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
    // Even the right PIN waits out the window now, on every process.
    for (const api of direct) expect((await api.post<Err>(path, { pin: server.users.admin.pin })).status).toBe(429);
    const locks = await server.ctx.db.db.selectFrom('audit_log').select('data').where('action', '=', 'pin.locked').execute();
    expect(locks.map((l) => JSON.parse(l.data!) as { scope: string })).toEqual([
      expect.objectContaining({ scope: 'session', failures: 5 }),
    ]);

    // Sign-in: 5 wrong passwords for one account from one address, through nginx (round robin
    // over the processes), start the back-off that one process would start.
    const email = server.users.barra.email;
    const upstreams = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
        body: JSON.stringify({ email, password: `mala-${i}-xx` }),
      });
      expect(res.status).toBe(401);
      upstreams.add(res.headers.get('x-test-upstream') ?? '');
    }
    expect(upstreams.size, 'the failures went to several processes').toBeGreaterThan(1);
    // The 5th failure, wherever it landed, started the pair's first wait (as on one process).
    const counters = await server.ctx.db.db
      .selectFrom('throttle_backoffs')
      .selectAll()
      .where('key', 'in', [`login:acct:${email}`, `login:pair:${email}|127.0.0.1`])
      .execute();
    expect(counters.map((c) => c.failures)).toEqual([5, 5]);
    const pairLock = await server.ctx.db.db.selectFrom('audit_log').select('data').where('action', '=', 'auth.locked').execute();
    expect(pairLock.map((l) => JSON.parse(l.data!) as unknown)).toEqual([
      expect.objectContaining({ scope: 'pair', failures: 5, waitMs: 1000 }),
    ]);
    const until = Math.max(...counters.map((c) => c.until_at));
    // The wait is 1 s: every process answered within it refuses even the right password.
    const refused = await Promise.all(
      processes.map((p) =>
        fetch(`${p.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'comanda123' }),
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as Err, at: Date.now() })),
      ),
    );
    for (const res of refused.filter((r) => r.at < until)) {
      expect(res.status).toBe(429);
      expect(res.body.error.message).toBe('Demasiados intentos. Intenta más tarde (espera 1 segundo).');
    }
    // nginx replaced the X-Forwarded-For the client sent with the client's own address.
    const failed = await server.ctx.db.db.selectFrom('audit_log').select('data').where('action', '=', 'auth.login_failed').execute();
    expect(failed.map((f) => (JSON.parse(f.data!) as { ip: string }).ip)).toEqual(Array(5).fill('127.0.0.1'));
  });

  it('kill -9 of one process: its clients reconnect through nginx to the others, and no acknowledged write is lost', async () => {
    const [waiterLive, , adminLive] = sockets as [Live, Live, Live];
    const victim = processes.find((p) => p.url.endsWith(waiterLive.upstream.split(':').at(-1)!))!;
    expect(victim).toBeTruthy();
    // Units, not rows: adds of one product raise its pending line instead of making new ones.
    const units = async () =>
      (await server.ctx.db.db.selectFrom('order_items').select('quantity').where('order_id', '=', orderId).execute()).reduce(
        (sum, r) => sum + Number(r.quantity),
        0,
      );
    const before = await units();

    // The waiter keeps ordering (two at a time) while the process under their socket dies. Each
    // add is retried with its Idempotency-Key until it is acknowledged, as the app's outbox does
    // (lib/outbox/send.ts): 502–504 and 409 idempotency_in_flight are retried; 409
    // idempotency_applied means the write is there but its answer died with the process (it
    // committed, then was killed before storing the answer), which the outbox counts as sent.
    let acknowledged = 0;
    let appliedWithoutAnswer = 0;
    let retries = 0;
    let n = 0;
    const addOne = async (): Promise<void> => {
      const key = `multi-${++n}-${Date.now()}`;
      const deadline = Date.now() + RESPONSE_GRACE_MS + 15_000;
      while (Date.now() < deadline) {
        const res = await fetch(`${base}/api/orders/${orderId}/items`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: waiter.cookie!, 'idempotency-key': key },
          body: JSON.stringify({ productId, quantity: 1 }),
        }).catch(() => null);
        if (res?.status === 200) {
          acknowledged++;
          return;
        }
        // 409 idempotency_in_flight also while PostgreSQL still holds the killed process's open
        // transaction on this key (its connection has not been reaped yet).
        if (res && ![502, 503, 504].includes(res.status)) {
          const text = await res.text();
          if (res.status === 409 && text.includes('idempotency_applied')) {
            acknowledged++;
            appliedWithoutAnswer++;
            return;
          }
          if (!(res.status === 409 && text.includes('idempotency_in_flight'))) throw new Error(`add answered ${res.status}: ${text}`);
        }
        retries++;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error('an add was never acknowledged');
    };
    const writer = async (count: number) => {
      for (let i = 0; i < count; i++) await addOne();
    };
    const writing = Promise.all([writer(15), writer(15)]);
    await new Promise((r) => setTimeout(r, 150));
    await victim.kill9();
    expect(await waiterLive.closed).toBe(1006);
    await writing;

    const after = await units();
    expect(acknowledged).toBe(30);
    expect(after - before, `${retries} retries, ${appliedWithoutAnswer} applied without an answer`).toBe(30);
    console.log(
      `kill -9 under 30 adds: ${appliedWithoutAnswer} applied without an answer (settled after the ${RESPONSE_GRACE_MS} ms grace), ${retries} retries`,
    );

    // The waiter's screen reconnects through nginx: it lands on a process still alive and hears the others.
    const again = await openLive(base, waiter.cookie!, ['tables', 'orders']);
    expect(again.upstream).not.toBe(waiterLive.upstream);
    expect((await admin.post(`/api/tables/${await tableId(admin, 9)}/open`)).status).toBe(200);
    await again.next(isEvent('tables'));
    // The admin, on a survivor, heard the adds made while a process died.
    await adminLive.next((m) => m.op === 'event' && m.event.topic === 'orders' && m.event.id === orderId);
    // Every request through nginx still works (the dead process is left out).
    for (let i = 0; i < 4; i++) expect((await kitchen.get('/api/auth/me')).status).toBe(200);

    // Its service restarts it (Restart=always). The screens on the survivors may have missed the
    // events it died with (a commit whose NOTIFY never left): they are told to read again.
    expect(adminLive.messages.filter((m) => m.op === 'resync')).toEqual([]);
    const restarted = await startServerProcess(env, Number(new URL(victim.url).port), 120_000);
    processes = processes.map((p) => (p === victim ? restarted : p));
    await adminLive.next((m) => m.op === 'resync', 30_000);
    again.ws.close();
    for (const s of sockets) s.ws.close();
  }, 120_000);
});
