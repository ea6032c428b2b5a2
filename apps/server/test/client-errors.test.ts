import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { startTestServer, testDatabaseKinds, type TestServer } from '../src/testing/index.ts';
import { CLIENT_ERROR_LIMITS } from '../src/features/client-errors/routes.ts';

const report = (over: Record<string, unknown> = {}) => ({
  message: "Cannot read properties of null (reading 'status')",
  stack: 'TypeError: Cannot read properties of null\n    at groupTables (waiter-home-page.js:1:2)',
  url: 'http://comanda.lan:3000/reset-password?token=secreto-de-un-solo-uso#x',
  userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/140 Mobile',
  ...over,
});

/** A POST with the Host and Origin a phone on the LAN sends (fetch cannot set Host). */
function postAs(url: string, path: string, host: string, origin: string, body: unknown): Promise<number> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { host, origin, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe.each(testDatabaseKinds())('client error reports on %s', (kind) => {
  let server: TestServer;
  let now = Date.UTC(2026, 5, 1, 20);
  let warn: MockInstance;
  const logged = () => warn.mock.calls.filter((c) => c[1] === 'client error').map((c) => c[0] as Record<string, unknown>);

  beforeAll(async () => {
    server = await startTestServer(kind, { clock: { now: () => now } });
    // Without a logger Fastify gives every request the app's own (no-op) logger: watch it.
    warn = vi.spyOn(server.app.log, 'warn');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('takes a report from anyone, even signed out, and logs it without the query string', async () => {
    const res = await server.anonymous().post('/api/client-errors', report());
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    const [entry] = logged();
    expect(entry).toMatchObject({
      clientError: {
        message: report().message,
        stack: report().stack,
        path: '/reset-password',
        userAgent: report().userAgent,
      },
      user: null,
    });
    expect(JSON.stringify(entry)).not.toContain('secreto');
  });

  it('names the signed-in user who saw the crash', async () => {
    const waiter = await server.login(server.users.waiter2.email);
    warn.mockClear();
    expect((await waiter.post('/api/client-errors', report({ url: '/waiter/home' }))).status).toBe(204);
    expect(logged()[0]).toMatchObject({ user: { id: server.users.waiter2.id, role: 'waiter' }, clientError: { path: '/waiter/home' } });
  });

  it('refuses unknown fields, missing fields, over-long fields and big bodies, and logs none of them', async () => {
    warn.mockClear();
    const anon = server.anonymous();
    for (const bad of [
      report({ extra: 1 }),
      { message: 'x' },
      report({ message: 'x'.repeat(501) }),
      report({ stack: 'x'.repeat(4001) }),
      report({ url: 'x'.repeat(1001) }),
    ]) {
      const res = await anon.post<{ error: { message: string } }>('/api/client-errors', bad);
      expect(res.status, JSON.stringify(bad).slice(0, 60)).toBe(400);
      expect(res.body.error.message).toBeTruthy();
    }
    const big = await anon.post('/api/client-errors', { ...report(), pad: 'x'.repeat(20 * 1024) });
    expect(big.status).toBe(413);
    expect(logged()).toEqual([]);
  });

  it('refuses a report posted from another site (Origin ≠ Host)', async () => {
    const res = await server.anonymous().post('/api/client-errors', report(), { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
  });

  it('takes a write from a LAN name over plain http when Origin and Host agree, and only then', async () => {
    now += 5 * 60_000;
    const { port } = new URL(server.url);
    const lan = `comanda.lan:${port}`;
    expect(await postAs(server.url, '/api/client-errors', lan, `http://${lan}`, report())).toBe(204);
    expect(await postAs(server.url, '/api/client-errors', `127.0.0.1:${port}`, `http://${lan}`, report())).toBe(403);
    expect(await postAs(server.url, '/api/client-errors', lan, `http://comanda.lan:${Number(port) + 1}`, report())).toBe(403);
    expect(await postAs(server.url, '/api/client-errors', lan, `https://evil.lan`, report())).toBe(403);
  });

  it('allows 10 reports a minute per source: the 11th gets 429, a minute later it is accepted again', async () => {
    now += 5 * 60_000; // a fresh window for everyone
    const anon = server.anonymous();
    const waiter = await server.login(server.users.waiter.email);
    warn.mockClear();
    const { limit } = CLIENT_ERROR_LIMITS.perSource;
    expect(limit).toBe(10);
    for (let i = 0; i < limit; i++) expect((await anon.post('/api/client-errors', report())).status).toBe(204);
    const refused = await anon.post<{ error: { message: string } }>('/api/client-errors', report());
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe('Demasiados reportes de error. Intenta más tarde');
    expect(logged()).toHaveLength(limit);
    // A signed-in phone on the same address has its own budget (per session)…
    for (let i = 0; i < limit; i++) expect((await waiter.post('/api/client-errors', report())).status).toBe(204);
    expect((await waiter.post('/api/client-errors', report())).status).toBe(429);
    // …and both are welcome again once the minute has passed.
    now += 61_000;
    expect((await anon.post('/api/client-errors', report())).status).toBe(204);
    expect((await waiter.post('/api/client-errors', report())).status).toBe(204);
  });

  it('caps one address at 60 reports a minute, whatever the sessions', async () => {
    now += 5 * 60_000;
    const { limit } = CLIENT_ERROR_LIMITS.perAddress;
    const sessions = await Promise.all(
      [server.users.admin, server.users.waiter, server.users.waiter2, server.users.kitchen, server.users.barra].map((u) =>
        server.login(u.email),
      ),
    );
    let accepted = 0;
    for (const s of [...sessions, server.anonymous()])
      for (let i = 0; i < 10; i++) if ((await s.post('/api/client-errors', report())).status === 204) accepted += 1;
    expect(accepted).toBe(limit);
    expect((await sessions[0]!.post('/api/client-errors', report())).status).toBe(429);
  });
});
