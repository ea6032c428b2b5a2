import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabaseKinds, type TestServer } from '../src/testing/index.ts';
import { installIdempotentRoutes, REPLAYED_HEADER } from '../src/http/idempotent-routes.ts';
import { mutate } from '../src/http/transaction.ts';
import { withKey, withoutKey } from '../src/http/request-context.ts';
import { createSession, endUserSessions, rememberedSession, resolveSession } from '../src/auth/sessions.ts';

/**
 * The request's Idempotency-Key reaches its write as `request.ctx` (decision 0047). A handler that
 * hands its command the app's context instead would write again on every retry; the suites
 * (CHECK_RESPONSES=on) refuse its answer, so such a handler cannot pass them.
 */
describe.each(testDatabaseKinds())('the key handed from the route to its write on %s', (kind) => {
  let server: TestServer;
  let app: FastifyInstance;

  beforeAll(async () => {
    server = await startTestServer(kind);
    const ctx = server.ctx;
    app = Fastify();
    app.decorateRequest('user', null);
    app.addHook('onRequest', async (request) => {
      request.user = { id: 'u-write-context', email: 'a@comanda.lan', displayName: 'Ana', role: 'admin' } as typeof request.user;
    });
    installIdempotentRoutes(app, ctx);
    const signedIn = { config: { access: 'any' as const } };
    // Right: the command gets the request's context, with its key.
    app.post('/api/probe/right', signedIn, async (request) => mutate(request.ctx, async () => ({ done: randomUUID() })));
    // Wrong: the app's context, without the key.
    app.post('/api/probe/wrong', signedIn, async () => mutate(withoutKey(ctx), async () => ({ done: randomUUID() })));
    // A keyed request that answers without writing at all.
    app.post('/api/probe/none', signedIn, async () => ({ done: randomUUID() }));
    await app.ready();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  const keys = async () => {
    const db = server.ctx.db.db;
    return Number((await db.selectFrom('idempotency_keys').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  };
  const post = (path: string, key: string | null) =>
    app.inject({ method: 'POST', url: path, payload: {}, headers: key ? { 'idempotency-key': key } : {} });

  it('a write given request.ctx claims the key once: its repeat is the first answer, replayed', async () => {
    const before = await keys();
    const key = randomUUID();
    const first = await post('/api/probe/right', key);
    const again = await post('/api/probe/right', key);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers[REPLAYED_HEADER]).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await keys()).toBe(before + 1);
  });

  it('a keyed write given a context without the key is refused in the suites, and claims nothing', async () => {
    const before = await keys();
    const res = await post('/api/probe/wrong', randomUUID());
    expect(res.statusCode).toBe(500);
    expect(await keys()).toBe(before);
    const none = await post('/api/probe/none', randomUUID());
    expect(none.statusCode).toBe(500);
  });

  it("a write context reaches the app's own state: ending a user's sessions from one forgets what the process remembers", async () => {
    const ctx = server.ctx;
    const user = server.users.waiter2;
    const token = await createSession(ctx, user.id);
    expect(await resolveSession(ctx, token)).not.toBeNull();
    // PostgreSQL's adds take a session the process remembers (SQLite reads it each time).
    if (kind === 'postgres') expect(rememberedSession(ctx, token)).not.toBeNull();
    const keyed = withKey(ctx, { key: 'k', scope: 's', hash: 'h', state: 'closed', repeat: () => ({ statusCode: 200, body: null }) });
    await endUserSessions(keyed, user.id);
    expect(rememberedSession(ctx, token)).toBeNull();
    expect(await resolveSession(ctx, token)).toBeNull();
  });

  it('without a key the same handlers answer as they are', async () => {
    expect((await post('/api/probe/wrong', null)).statusCode).toBe(200);
    expect((await post('/api/probe/none', null)).statusCode).toBe(200);
  });
});
