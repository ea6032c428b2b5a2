import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabaseKinds, type TestServer } from '../src/testing/index.ts';
import { manualClock } from './cash-close-fixture.ts';

describe.each(testDatabaseKinds())('sign-in on %s', (kind) => {
  let server: TestServer;
  // Held still so the sign-in back-off's 1 s wait cannot run out on a slow machine; moved by hand.
  const clock = manualClock(Date.now());
  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reports health with the database kind', async () => {
    const res = await server.anonymous().get<{ ok: boolean; database: string }>('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, database: kind });
  });

  it('signs in each role and restores the session from the cookie', async () => {
    for (const key of ['admin', 'waiter', 'kitchen', 'barra'] as const) {
      const api = await server.login(server.users[key].email);
      const me = await api.get<{ user: { role: string; email: string } }>('/api/auth/me');
      expect(me.status).toBe(200);
      expect(me.body.user.email).toBe(server.users[key].email);
      expect(JSON.stringify(me.body)).not.toMatch(/hash|pin/i);
    }
  });

  it('sets an HttpOnly SameSite cookie', async () => {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: server.users.admin.email, password: 'comanda123' }),
    });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('answers the spec messages for a wrong password and an unknown user', async () => {
    const anon = server.anonymous();
    const wrong = await anon.post<{ error: { message: string } }>('/api/auth/login', {
      email: server.users.kitchen.email,
      password: 'nope-nope',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.message).toBe('Contraseña incorrecta');
    const unknown = await anon.post<{ error: { message: string } }>('/api/auth/login', {
      email: 'nadie@comanda.mx',
      password: 'whatever1',
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toBe('Usuario no encontrado');
  });

  it('refuses an inactive user and ends their open sessions', async () => {
    const api = await server.login(server.users.barra.email);
    await server.ctx.db.db.updateTable('users').set({ active: 0 }).where('id', '=', server.users.barra.id).execute();
    expect((await api.get('/api/auth/me')).status).toBe(401);
    const res = await server
      .anonymous()
      .post<{ error: { message: string } }>('/api/auth/login', { email: server.users.barra.email, password: 'comanda123' });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe('Usuario inactivo, contacte al administrador');
    await server.ctx.db.db.updateTable('users').set({ active: 1 }).where('id', '=', server.users.barra.id).execute();
  });

  it('throttles repeated failures per account: a back-off that says how long to wait, then the password works', async () => {
    const anon = server.anonymous();
    const email = server.users.waiter2.email;
    for (let i = 0; i < 5; i++) await anon.post('/api/auth/login', { email, password: `bad-${i}-xx` });
    const res = await anon.post<{ error: { message: string } }>('/api/auth/login', { email, password: 'comanda123' });
    expect(res.status).toBe(429);
    expect(res.body.error.message).toBe('Demasiados intentos. Intenta más tarde (espera 1 segundo).');
    clock.set(clock.now() + 1000);
    expect((await anon.post('/api/auth/login', { email, password: 'comanda123' })).status).toBe(200);
  });

  it('answers a request without a session with the spec message', async () => {
    const tables = await server.login(server.users.admin.email).then((a) => a.get<{ tables: { id: string }[] }>('/api/tables'));
    const res = await server.anonymous().post<{ error: { message: string } }>(`/api/tables/${tables.body.tables[1]!.id}/open`);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe('No hay usuario autenticado');
  });

  it('logs out and forgets the session', async () => {
    const api = await server.login(server.users.admin.email);
    expect((await api.post('/api/auth/logout')).status).toBe(200);
    expect((await api.get('/api/auth/me')).status).toBe(401);
  });

  it('rejects a malformed body with a 400 and a Spanish message', async () => {
    const res = await server
      .anonymous()
      .post<{ error: { message: string } }>('/api/auth/login', { email: 'no-es-correo', password: 'x', role: 'admin' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/Datos inválidos/);
  });

  it('refuses a cross-site write', async () => {
    const res = await server.anonymous().post('/api/auth/logout', undefined, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });

  it('serves an OpenAPI document', async () => {
    const res = await server.anonymous().get<{ openapi: string; paths: Record<string, unknown> }>('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.paths['/api/auth/login']).toBeDefined();
  });
});
