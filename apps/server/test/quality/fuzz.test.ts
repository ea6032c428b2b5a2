import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@comanda/contract';
import { isAllowed } from '../../src/http/access.ts';
import { assertInvariants, startTestServer, testDatabaseKinds, type TestServer } from '../../src/testing/index.ts';
import { keptAnswersWritten } from '../../src/http/idempotent-routes.ts';
import { inventoryWorker } from '../../src/features/inventory/service.ts';
import type { AppContext } from '../../src/http/context.ts';

/** What the server writes beside an answer: kept answers, and the inventory worker's posting of new lines. */
const settled = async (ctx: AppContext) => {
  await keptAnswersWritten(ctx);
  await inventoryWorker(ctx)?.flush();
};
import { WriteWatch } from './digest.ts';
import { errorMessageOf, makeIdentities, send, type Identity, type IdentityName } from './identities.ts';
import { fuzzPath, fuzzRequests } from './fuzz-requests.ts';
import { MISSING_ID, routeRecorder, type CollectedRoute } from './route-table.ts';

/**
 * QUALITY.md, Tests item 4: every route's body, query and params, mutated from its own zod schema.
 * Always a 4xx with {error:{message}} for what the schema refuses, never a 5xx, and a failed
 * request writes nothing (digest of every table but sessions, audit_log and the throttle counters).
 * Runs per route: FUZZ_RUNS, default 60 on SQLite and 15 on PostgreSQL (slower round trips); under
 * CI=true 20 and 8, so the suite fits CI's time (each run draws new cases: the runs add up over CI
 * runs). `FUZZ_RUNS=500 npx vitest run apps/server/test/quality/fuzz.test.ts` goes deeper.
 */
const CI = process.env.CI === 'true';
const RUNS = (kind: string) => Number(process.env.FUZZ_RUNS ?? (kind === 'sqlite' ? (CI ? 20 : 60) : CI ? 8 : 15));
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

// The route table is read once at collection time so each route is its own test (recorded by an onRoute hook).
const recorder = routeRecorder();
const probe = await startTestServer('sqlite', { seed: false, onRoute: recorder.onRoute });
const fuzzable = recorder.routes().filter((r) => !r.websocket && (r.body || r.querystring || r.params));
await probe.close();

/** Who sends: admin for everything it may call, waiter A as well on floor routes, anonymous on public ones. */
function callers(route: CollectedRoute): IdentityName[] {
  const access = route.access!;
  if (access === 'public') return ['anonymous', 'admin'];
  const byRole: [Role, IdentityName][] = [
    ['admin', 'admin'],
    ['waiter', 'waiterA'],
    ['kitchen', 'kitchen'],
    ['barra', 'barra'],
  ];
  const names = byRole.filter(([role]) => isAllowed(access, role)).map(([, name]) => name);
  return names.includes('admin') ? names.filter((n) => n === 'admin' || n === 'waiterA') : names.slice(0, 1);
}

describe.each(testDatabaseKinds())('bad input on %s', (kind) => {
  let server: TestServer;
  let who: Record<IdentityName, Identity>;
  let ids: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer(kind);
    who = await makeIdentities(server);
    // A real table, order and item of waiter A: mutations of one part reach the handler with the rest valid.
    const waiterA = await server.login(server.users.waiter.email);
    const { body } = await waiterA.get<{ tables: { id: string; number: number }[] }>('/api/tables');
    const table = body.tables.find((t) => t.number === 2)!;
    const product = await server.ctx.db.db.selectFrom('products').select('id').executeTakeFirstOrThrow();
    const opened = await waiterA.post<{ order: { id: string } }>(`/api/tables/${table.id}/open`);
    const added = await waiterA.post<{ order: { id: string; items: { id: string }[] } }>(`/api/orders/${opened.body.order.id}/items`, {
      productId: product.id,
      quantity: 2,
    });
    if (added.status !== 200) throw new Error(`fixture order: ${added.status}`);
    ids = { tableId: table.id, orderId: added.body.order.id, itemId: added.body.order.items[0]!.id, productId: product.id };
  });
  afterAll(async () => {
    if (server) await assertInvariants(server.ctx.db);
    await server?.close();
  });

  it('finds routes to fuzz in the real route table', () => {
    expect(fuzzable.length).toBeGreaterThan(5);
  });

  it.each(fuzzable.map((r) => [`${r.method} ${r.url}`, r] as const))('%s', { timeout: 180_000 }, async (_name, route) => {
    const cookies = new Map<IdentityName, string | null>();
    for (const name of callers(route)) cookies.set(name, await who[name].cookie());
    const statuses = new Map<number, number>();
    const watch = new WriteWatch(server.ctx.db.db, kind, () => settled(server.ctx));
    await watch.rebase();
    const property = fc.asyncProperty(fuzzRequests(route, ids, MISSING_ID), fc.constantFrom(...cookies.keys()), async (req, caller) => {
      const res = await send(server.url, route.method, fuzzPath(route.url, req), {
        cookie: cookies.get(caller) ?? null,
        body: req.bodyText,
        headers: { 'idempotency-key': crypto.randomUUID() },
      });
      const what = `${req.mutation} as ${caller} → ${res.status} ${res.text.slice(0, 160)}`;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status, `never a 5xx: ${what}`).toBeLessThan(500);
      // The callers are allowed and their sessions valid: a 401 would mean the fuzz tests nothing.
      if (route.access !== 'public') expect(res.status, `the caller's session still works: ${what}`).not.toBe(401);
      if (req.invalid) expect(res.status, `schema refuses it, so must the server: ${what}`).toBeGreaterThanOrEqual(400);
      if (res.status >= 400) {
        expect(errorMessageOf(res.json), `a refusal carries {error:{message}}: ${what}`).not.toBeNull();
        expect(await watch.changedTables(), `a refused request writes nothing: ${what}`).toEqual([]);
      } else {
        await watch.rebase();
      }
    });
    await fc.assert(property, { numRuns: RUNS(kind), seed: SEED, verbose: 0 });
    if (process.env.FUZZ_VERBOSE) console.log(`${route.method} ${route.url}`, JSON.stringify(Object.fromEntries(statuses)));
  });
});
