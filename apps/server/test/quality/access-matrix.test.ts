import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isAllowed } from '../../src/http/access.ts';
import { assertInvariants, startTestServer, testDatabaseKinds, type TestServer } from '../../src/testing/index.ts';
import { changedTables, databaseDigest } from './digest.ts';
import { IDENTITIES, errorMessageOf, makeIdentities, send, type Identity, type IdentityName } from './identities.ts';
import { MISSING_ID, apiRoutes, fillPath, type CollectedRoute } from './route-table.ts';
import { sampleValid } from './schema-arbitraries.ts';

// Every Fastify instance built in this file records its routes (see route-table.ts).
vi.mock('fastify', async (importOriginal) => (await import('./route-table.ts')).wrapFastify(await importOriginal<{ default: unknown }>()));

const label = (r: CollectedRoute) => `${r.method} ${r.url}`;
const hasBody = (method: string) => method !== 'GET';

/** A request that passes the access check but names nothing that exists: nothing can change. */
async function callWithPlaceholders(server: TestServer, route: CollectedRoute, cookie: string | null) {
  return send(server.url, route.method, fillPath(route.url, {}, MISSING_ID), {
    cookie,
    body: hasBody(route.method) ? '{}' : undefined,
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
}

/** What the declared access says this identity must get (null: nothing asserted beyond "no 5xx"). */
function expectation(route: CollectedRoute, who: Identity): 'unauthorized' | 'forbidden' | 'allowed' | null {
  const access = route.access!;
  if (who.name === 'anonymous' || who.name === 'deactivated') return access === 'public' ? null : 'unauthorized';
  return isAllowed(access, who.role ?? undefined) ? 'allowed' : 'forbidden';
}

describe.each(testDatabaseKinds())('access matrix on %s', (kind) => {
  let server: TestServer;
  let routes: CollectedRoute[];
  let who: Record<IdentityName, Identity>;

  beforeAll(async () => {
    server = await startTestServer(kind);
    routes = apiRoutes(server.app);
    who = await makeIdentities(server);
  });
  afterAll(async () => {
    if (server) await assertInvariants(server.ctx.db);
    await server?.close();
  });

  it('reads the real route table, and every /api route declares who may call it', () => {
    expect(routes.length).toBeGreaterThan(3);
    if (process.env.DEBUG_ROUTES)
      console.log(
        routes
          .map(
            (r) =>
              `${label(r)} ${JSON.stringify(r.access)} ${r.params ? 'P' : ''}${r.querystring ? 'Q' : ''}${r.body ? 'B' : ''}${r.websocket ? ' ws' : ''}`,
          )
          .join('\n'),
      );
    expect(routes.map(label)).toContain('POST /api/auth/login');
    // A crashed screen reports itself before or after sign-in: the one write open to anyone besides auth.
    expect(routes.find((r) => label(r) === 'POST /api/client-errors')?.access).toBe('public');
    // Printers are configured by admins only; stations read the alerts for their own printer.
    for (const route of [
      'GET /api/printers',
      'POST /api/printers',
      'PATCH /api/printers/:printerId',
      'DELETE /api/printers/:printerId',
      'POST /api/printers/:printerId/test',
      'GET /api/printers/emulator',
      'POST /api/printers/emulator/:printerId',
    ])
      expect(routes.find((r) => label(r) === route)?.access, route).toEqual(['admin']);
    expect(routes.find((r) => label(r) === 'GET /api/printers/alerts')?.access).toEqual(['admin', 'kitchen', 'barra']);
    expect(routes.find((r) => label(r) === 'POST /api/orders/:orderId/reprint')?.access).toEqual(['admin', 'waiter']);
    // The drawer (caja: float, movements, cortes) is the admin's alone.
    const drawer = routes.filter((r) => r.url.startsWith('/api/drawer'));
    expect(drawer.map(label)).toContain('POST /api/drawer/sessions/:sessionId/corte-z');
    expect(drawer.filter((r) => JSON.stringify(r.access) !== '["admin"]').map(label)).toEqual([]);
    const undeclared = routes.filter((r) => r.access === undefined).map(label);
    expect(undeclared).toEqual([]);
  });

  it.each(IDENTITIES)('%s gets exactly what each route declares', async (name) => {
    const identity = who[name];
    const failures: string[] = [];
    for (const route of routes) {
      const res = await callWithPlaceholders(server, route, await identity.cookie());
      const expected = expectation(route, identity);
      const where = `${label(route)} as ${name} (access ${JSON.stringify(route.access)}) → ${res.status} ${res.text.slice(0, 120)}`;
      if (res.status >= 500) failures.push(`5xx: ${where}`);
      else if (expected === 'unauthorized' && res.status !== 401) failures.push(`expected 401: ${where}`);
      else if (expected === 'forbidden' && res.status !== 403) failures.push(`expected 403: ${where}`);
      else if (expected === 'allowed' && (res.status === 401 || res.status === 403))
        failures.push(`expected to pass the access check: ${where}`);
      if (res.status >= 400 && !route.websocket && errorMessageOf(res.json) === null)
        failures.push(`refusal without {error:{message}}: ${where}`);
    }
    expect(failures).toEqual([]);
  });

  it("waiter B can neither read nor change waiter A's table, order or items", async () => {
    const waiterA = await server.login(server.users.waiter.email);
    const { body: list } = await waiterA.get<{ tables: { id: string; number: number; status: string }[] }>('/api/tables');
    const table = list.tables.find((t) => t.number === 4) ?? list.tables.find((t) => t.status === 'libre');
    expect(table, 'a free table to open').toBeDefined();
    const opened = await waiterA.post<{ order: { id: string } }>(`/api/tables/${table!.id}/open`);
    expect(opened.status).toBe(200);
    const product = await server.ctx.db.db.selectFrom('products').select('id').where('available', '=', 1).executeTakeFirstOrThrow();
    const added = await waiterA.post<{ order: { id: string; items: { id: string }[] } }>(`/api/orders/${opened.body.order.id}/items`, {
      productId: product.id,
      quantity: 1,
    });
    expect(added.status).toBe(200);
    const ids = { tableId: table!.id, orderId: added.body.order.id, itemId: added.body.order.items[0]!.id, productId: product.id };

    const owned = routes.filter(
      (r) => r.access !== 'public' && isAllowed(r.access!, 'waiter') && /:(tableId|orderId|itemId)\b/.test(r.url),
    );
    expect(owned.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const route of owned) {
      const path = fillPath(route.url, ids, MISSING_ID);
      const body = route.body ? JSON.stringify(sampleValid(route.body)) : hasBody(route.method) ? '{}' : undefined;
      const before = await databaseDigest(server.ctx.db.db);
      const asB = await send(server.url, route.method, path, {
        cookie: await who.waiterB.cookie(),
        body,
        headers: { 'idempotency-key': crypto.randomUUID() },
      });
      const after = await databaseDigest(server.ctx.db.db);
      const where = `${label(route)} → ${asB.status} ${asB.text.slice(0, 120)}`;
      if (asB.status < 400 || asB.status >= 500) failures.push(`waiter B was not refused: ${where}`);
      if (route.method === 'GET' && asB.status !== 403 && asB.status !== 404) failures.push(`waiter B read: ${where}`);
      if (before !== after) failures.push(`waiter B changed ${changedTables(before, after).join(', ')}: ${where}`);
      if (route.method === 'GET') {
        const asA = await send(server.url, 'GET', path, { cookie: await who.waiterA.cookie() });
        if (asA.status !== 200) failures.push(`waiter A cannot read own ${label(route)} → ${asA.status}`);
      }
    }
    expect(failures).toEqual([]);
    await assertInvariants(server.ctx.db);
  });

  it('/metrics (outside /api): loopback scrapers, or an administrator from the network', async () => {
    const all = apiRoutes(server.app);
    expect(all.find((r) => label(r) === 'GET /api/backups')?.access).toEqual(['admin']);
    expect(all.find((r) => label(r) === 'GET /api/health')?.access).toBe('public');
    const local = await server.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(local.statusCode).toBe(200);
    const expected: Record<IdentityName, number> = {
      anonymous: 401,
      deactivated: 401,
      admin: 200,
      waiterA: 403,
      waiterB: 403,
      kitchen: 403,
      barra: 403,
    };
    for (const name of IDENTITIES) {
      const cookie = await who[name].cookie();
      const res = await server.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '192.168.1.50',
        headers: cookie ? { cookie } : {},
      });
      expect(res.statusCode, `/metrics as ${name} from the LAN`).toBe(expected[name]);
      if (res.statusCode !== 200) expect(errorMessageOf(res.json())).not.toBeNull();
    }
  });

  it('a route without a declared access stops the app from starting (deny by default)', async () => {
    const rogue: FastifyPluginAsync = async (app) => {
      app.get('/api/sin-politica', async () => ({ ok: true }));
    };
    const declared: FastifyPluginAsync = async (app) => {
      app.get('/api/con-politica', { config: { access: 'any' } }, async () => ({ ok: true }));
    };
    try {
      vi.resetModules();
      vi.doMock('../../src/features/index.ts', () => ({ featureRoutes: [rogue] }));
      const withRogue = await import('../../src/app.ts');
      await expect(withRogue.buildApp({ ctx: server.ctx })).rejects.toThrow(/GET \/api\/sin-politica no declara su acceso/);

      vi.resetModules();
      vi.doMock('../../src/features/index.ts', () => ({ featureRoutes: [declared] }));
      const withDeclared = await import('../../src/app.ts');
      const app = await withDeclared.buildApp({ ctx: server.ctx });
      expect(apiRoutes(app).find((r) => r.url === '/api/con-politica')?.access).toBe('any');
      await app.close();
    } finally {
      vi.doUnmock('../../src/features/index.ts');
      vi.resetModules();
    }
  });
});
