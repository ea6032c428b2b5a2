import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { assertInvariants, startTestServer, testDatabaseKinds, type TestServer } from '../../src/testing/index.ts';
import { EXPECTED_ACCESS, PENDING, type Caller } from './access-expected.ts';
import { changedTables, databaseDigest } from './digest.ts';
import { inventoryWorker } from '../../src/features/inventory/service.ts';
import { IDENTITIES, errorMessageOf, makeIdentities, send, type Identity, type IdentityName } from './identities.ts';
import { MISSING_ID, fillPath, routeRecorder, type CollectedRoute } from './route-table.ts';
import { sampleValid } from './schema-arbitraries.ts';

const label = (r: CollectedRoute) => `${r.method} ${r.url}`;
const hasBody = (method: string) => method !== 'GET';

/** Which column of the expected matrix an identity is judged by. */
const CALLER: Record<IdentityName, Caller> = {
  anonymous: 'anonymous',
  deactivated: 'anonymous', // an old session of a deactivated user is worth nothing
  admin: 'admin',
  waiterA: 'waiter',
  waiterB: 'waiter',
  kitchen: 'kitchen',
  barra: 'barra',
};

/** A request that passes the access check but names nothing that exists: nothing can change. */
async function callWithPlaceholders(server: TestServer, route: CollectedRoute, cookie: string | null) {
  return send(server.url, route.method, fillPath(route.url, {}, MISSING_ID), {
    cookie,
    body: hasBody(route.method) ? '{}' : undefined,
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
}

/** What the written matrix says this identity must get on this route. */
function expectation(route: CollectedRoute, who: Identity): 'unauthorized' | 'forbidden' | 'allowed' {
  const allowed = EXPECTED_ACCESS.get(label(route))?.[CALLER[who.name]];
  if (allowed === undefined) throw new Error(`${label(route)} is missing from access-expected.ts`);
  if (allowed) return 'allowed';
  return CALLER[who.name] === 'anonymous' ? 'unauthorized' : 'forbidden';
}

describe.each(testDatabaseKinds())('access matrix on %s', (kind) => {
  let server: TestServer;
  let routes: CollectedRoute[];
  let who: Record<IdentityName, Identity>;

  beforeAll(async () => {
    // The real route table, recorded by an onRoute hook as the app declares it.
    const recorder = routeRecorder();
    server = await startTestServer(kind, { onRoute: recorder.onRoute });
    routes = recorder.routes();
    who = await makeIdentities(server);
  });
  afterAll(async () => {
    if (server) await assertInvariants(server.ctx.db);
    await server?.close();
  });

  it('every /api route of the app is in the written matrix, and every row of the matrix is a route of the app', () => {
    expect(routes.length).toBeGreaterThan(3);
    expect(routes.map(label)).toContain('POST /api/auth/login');
    const declared = new Set(routes.map(label));
    const unlisted = [...declared].filter((route) => !EXPECTED_ACCESS.has(route));
    expect(unlisted, 'routes to add to access-expected.ts').toEqual([]);
    const stale = [...EXPECTED_ACCESS.keys()].filter((route) => !declared.has(route) && !PENDING.has(route));
    expect(stale, 'rows of access-expected.ts naming no route').toEqual([]);
    const undeclared = routes.filter((r) => r.access === undefined).map(label);
    expect(undeclared).toEqual([]);
  });

  it.each(IDENTITIES)('%s gets exactly what the written matrix says', async (name) => {
    const identity = who[name];
    const failures: string[] = [];
    for (const route of routes) {
      const res = await callWithPlaceholders(server, route, await identity.cookie());
      const expected = expectation(route, identity);
      const where = `${label(route)} as ${name} (declared ${JSON.stringify(route.access)}) → ${res.status} ${res.text.slice(0, 120)}`;
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
      (r) =>
        EXPECTED_ACCESS.get(label(r))?.waiter === true &&
        EXPECTED_ACCESS.get(label(r))?.anonymous === false &&
        /:(tableId|orderId|itemId)\b/.test(r.url),
    );
    expect(owned.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const route of owned) {
      const path = fillPath(route.url, ids, MISSING_ID);
      const body = route.body ? JSON.stringify(sampleValid(route.body)) : hasBody(route.method) ? '{}' : undefined;
      // The inventory worker posts waiter A's line beside the requests: done before the reference.
      await inventoryWorker(server.ctx)?.flush();
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
      const recorder = routeRecorder();
      const app = await withDeclared.buildApp({ ctx: server.ctx, onRoute: recorder.onRoute });
      expect(recorder.routes().find((r) => r.url === '/api/con-politica')?.access).toBe('any');
      await app.close();
    } finally {
      vi.doUnmock('../../src/features/index.ts');
      vi.resetModules();
    }
  });
});
