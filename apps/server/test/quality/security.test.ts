import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createServer, type RunningServer } from '../../src/server.ts';
import { seedDemo } from '../../src/seed/seed.ts';
import { assertInvariants, createTestDatabase, listenOnLoopback, testServerConfig, type TestDatabase } from '../../src/testing/index.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/seed/demo-data.ts';
import { SESSION_COOKIE, createSession } from '../../src/auth/sessions.ts';
import { keptAnswersWritten } from '../../src/http/idempotent-routes.ts';
import { inventoryWorker } from '../../src/features/inventory/service.ts';
import { WriteWatch } from './digest.ts';
import { errorMessageOf, send } from './identities.ts';
import { MISSING_ID, fillPath, routeRecorder, type CollectedRoute } from './route-table.ts';

/**
 * Security headers and limits (issue 9): CSP on the SPA and the API, the 64 KB body limit,
 * the Origin check on every mutating route and on the WebSocket upgrade, and the sign-in and
 * PIN throttles. SQLite only: none of this depends on the database.
 */
const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>';

describe('security headers and limits', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let url: string;
  let adminCookie: string;
  let recordedRoutes: () => CollectedRoute[];

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    const webDist = join(database.dataDir, 'web');
    mkdirSync(join(webDist, 'assets'), { recursive: true });
    writeFileSync(join(webDist, 'index.html'), INDEX_HTML);
    writeFileSync(join(webDist, 'assets', 'index.js'), 'console.log(1)');
    const config = testServerConfig(database);
    const recorder = routeRecorder();
    recordedRoutes = recorder.routes;
    server = await createServer({ config, webDist, log: () => undefined, onRoute: recorder.onRoute });
    await seedDemo(server.ctx);
    url = await listenOnLoopback(server);
    const admin = await server.ctx.db.db.selectFrom('users').select('id').where('role', '=', 'admin').executeTakeFirstOrThrow();
    adminCookie = `${SESSION_COOKIE}=${await createSession(server.ctx, admin.id)}`;
  });
  afterAll(async () => {
    if (server) await assertInvariants(server.ctx.db);
    await server?.close();
    await database?.drop();
  });

  function cspOf(res: Response): string {
    return res.headers.get('content-security-policy') ?? '';
  }

  it('sends a strict Content-Security-Policy with the SPA, its assets and every API answer', async () => {
    for (const path of [
      '/',
      '/waiter/home',
      '/admin/login',
      '/assets/index.js',
      '/api/health',
      '/api/config/public',
      '/api/tables',
      '/api/no-existe',
    ]) {
      const res = await fetch(url + path);
      const csp = cspOf(res);
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toMatch(/script-src 'self'(;|$)/);
      expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(csp, path).toContain("object-src 'none'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      if (path.startsWith('/api')) expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    const page = await fetch(`${url}/waiter/home`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('the built web app (when present) needs no inline script, so the CSP does not break it', () => {
    const dist = fileURLToPath(new URL('../../../web/dist/index.html', import.meta.url));
    if (!existsSync(dist)) return; // not built in this checkout: the e2e suite runs the real app under this CSP
    const html = readFileSync(dist, 'utf8');
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attrs, body]) => !/\bsrc=/.test(attrs ?? '') && (body ?? '').trim() !== '',
    );
    expect(inline.map(([tag]) => tag.slice(0, 80))).toEqual([]);
    expect(html).not.toMatch(/\son[a-z]+=["']/i);
  });

  it('refuses a body over 64 KB with 413 and a message, before any route runs', async () => {
    const body = JSON.stringify({ email: 'a@b.mx', password: 'x'.repeat(70 * 1024) });
    const res = await send(url, 'POST', '/api/auth/login', { body });
    expect(res.status).toBe(413);
    expect(errorMessageOf(res.json)).toBe('La solicitud es demasiado grande');
    const authed = await send(url, 'POST', '/api/tables', {
      cookie: adminCookie,
      body: JSON.stringify({ number: 5, pad: 'x'.repeat(65 * 1024) }),
    });
    expect(authed.status).toBe(413);
  });

  it('refuses NUL characters in bodies and queries with a 400 (PostgreSQL cannot store them)', async () => {
    const body = await send(url, 'POST', '/api/products', {
      cookie: adminCookie,
      body: JSON.stringify({ name: 'Caf\u0000e', price: 100, category: 'Bebida' }),
    });
    expect(body.status).toBe(400);
    expect(errorMessageOf(body.json)).toMatch(/caracteres no permitidos/);
    const query = await send(url, 'GET', '/api/tickets?search=%00', { cookie: adminCookie });
    expect(query.status).toBe(400);
  });

  it('refuses every mutating /api route called with a foreign Origin, and writes nothing', async () => {
    const routes = recordedRoutes().filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method));
    expect(routes.length).toBeGreaterThan(5);
    const watch = new WriteWatch(server.ctx.db.db, 'sqlite', () =>
      keptAnswersWritten(server.ctx).then(() => inventoryWorker(server.ctx)?.flush()),
    );
    await watch.rebase();
    const failures: string[] = [];
    for (const route of routes) {
      for (const origin of ['https://evil.example', 'http://127.0.0.1.evil.example', 'null']) {
        const res = await send(url, route.method, fillPath(route.url, {}, MISSING_ID), {
          cookie: adminCookie,
          body: '{}',
          headers: { origin },
        });
        if (res.status !== 403 || errorMessageOf(res.json) !== 'Origen no permitido')
          failures.push(`${route.method} ${route.url} from ${origin} → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await watch.changedTables()).toEqual([]);
    // Our own origin passes the check (the request then fails on its empty body, not on Origin).
    const own = await send(url, 'POST', '/api/tables', { cookie: adminCookie, body: '{}', headers: { origin: url } });
    expect(own.status).toBe(400);
  });

  it('refuses a WebSocket upgrade from a foreign Origin, accepts our own', async () => {
    const open = (origin: string | undefined) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`${url.replace('http', 'ws')}/api/live`, {
          headers: { cookie: adminCookie, ...(origin ? { origin } : {}) },
        });
        ws.once('open', () => {
          ws.close();
          resolve(101);
        });
        ws.once('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.once('error', reject);
      });
    expect(await open('https://evil.example')).toBe(403);
    expect(await open('null')).toBe(403);
    expect(await open(url)).toBe(101);
  });

  it('throttles wrong PINs: after 5 failures the PIN route answers 429', async () => {
    const waiter = DEMO_USERS.find((u) => u.role === 'waiter')!;
    const waiterRow = await server.ctx.db.db.selectFrom('users').select('id').where('email', '=', waiter.email).executeTakeFirstOrThrow();
    const cookie = `${SESSION_COOKIE}=${await createSession(server.ctx, waiterRow.id)}`;
    const tables = (await send(url, 'GET', '/api/tables', { cookie })).json as { tables: { id: string; number: number }[] };
    const table = tables.tables.find((t) => t.number === 6)!;
    const opened = (await send(url, 'POST', `/api/tables/${table.id}/open`, { cookie })).json as { order: { id: string } };
    const product = await server.ctx.db.db.selectFrom('products').select('id').executeTakeFirstOrThrow();
    const added = await send(url, 'POST', `/api/orders/${opened.order.id}/items`, {
      cookie,
      body: JSON.stringify({ productId: product.id, quantity: 1 }),
    });
    const itemId = (added.json as { order: { items: { id: string }[] } }).order.items[0]!.id;
    const path = `/api/orders/${opened.order.id}/items/${itemId}/delete`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(url, 'POST', path, { cookie, body: JSON.stringify({ pin: `98${i}7` }) })).status);
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    const last = await send(url, 'POST', path, { cookie, body: JSON.stringify({ pin: '1234' }) });
    expect(statuses[5]).toBe(429);
    expect(last.status, 'even the right PIN waits out the window').toBe(429);
    expect(errorMessageOf(last.json)).toBe('Demasiados intentos. Intenta más tarde');
  });

  it('does not lock out an address: after 30 failures from one address (a bar behind one NAT) a right password still signs in', async () => {
    let status = 0;
    for (let i = 0; i < 30; i++)
      status = (
        await send(url, 'POST', '/api/auth/login', { body: JSON.stringify({ email: `nadie${i}@comanda.mx`, password: 'equivocada' }) })
      ).status;
    expect(status).toBe(401);
    const res = await send(url, 'POST', '/api/auth/login', {
      body: JSON.stringify({ email: DEMO_USERS[0]!.email, password: DEMO_PASSWORD }),
    });
    expect(res.status).toBe(200);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: the throttles see the connection address', async () => {
    const before = await server.ctx.db.db.selectFrom('audit_log').select('id').where('action', '=', 'auth.login_failed').execute();
    await send(url, 'POST', '/api/auth/login', {
      body: JSON.stringify({ email: 'nadie@comanda.mx', password: 'equivocada' }),
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    const rows = await server.ctx.db.db.selectFrom('audit_log').select(['id', 'data']).where('action', '=', 'auth.login_failed').execute();
    const added = rows.filter((r) => !before.some((b) => b.id === r.id));
    expect(added.map((r) => (JSON.parse(r.data ?? '{}') as { ip?: string }).ip)).toEqual(['127.0.0.1']);
  });
});
