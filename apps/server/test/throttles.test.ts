import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@comanda/contract';
import { ConfigError, configWarnings, loadConfig, TRUST_PROXY_TRUE_WARNING } from '../src/config.ts';
import { createSession, SESSION_COOKIE } from '../src/auth/sessions.ts';
import { apiClient, startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { manualClock } from './cash-close-fixture.ts';

/**
 * Issue 13, defects 3, 5 and 6: PIN guesses cannot get around the throttle (own correct PIN,
 * rotated X-Forwarded-For, other users' PINs), sign-in back-off instead of lockouts (a correct
 * password works after the wait; a NAT is never locked out; an admin lifts a lock, audited),
 * and cash-close dates off the calendar answer 400.
 */
type Err = { error: { code: string; message: string } };
const PASSWORD = 'comanda123';
const NOBODY_PINS = ['9801', '9802', '9803', '9804', '9805', '9806', '9807', '9808', '9809', '9810', '9811', '9812'];

async function auditRows(server: TestServer, action: string) {
  // In the order written (PostgreSQL returns rows in no particular order without ORDER BY).
  const rows = await server.ctx.db.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('seq').execute();
  return rows.map((r) => ({ ...r, data: r.data ? (JSON.parse(r.data) as Record<string, unknown>) : null }));
}

/** A client on an extra session of a user (a second device), made directly in the database. */
async function extraSession(server: TestServer, userId: string): Promise<ApiClient> {
  return apiClient(server.url, `${SESSION_COOKIE}=${await createSession(server.ctx, userId)}`);
}

/** Opens table `number` as `api` and adds one item: the path of its PIN-guarded delete route. */
async function itemToDelete(server: TestServer, api: ApiClient, number: number): Promise<{ path: string; itemId: string }> {
  const tables = await api.get<{ tables: { id: string; number: number }[] }>('/api/tables');
  const table = tables.body.tables.find((t) => t.number === number)!;
  const opened = await api.post<{ order: { id: string } }>(`/api/tables/${table.id}/open`);
  expect(opened.status).toBe(200);
  const product = await server.ctx.db.db.selectFrom('products').select('id').where('available', '=', 1).executeTakeFirstOrThrow();
  const added = await api.post<{ order: { items: { id: string }[] } }>(`/api/orders/${opened.body.order.id}/items`, {
    productId: product.id,
    quantity: 1,
  });
  expect(added.status).toBe(200);
  const itemId = added.body.order.items[0]!.id;
  return { path: `/api/orders/${opened.body.order.id}/items/${itemId}/delete`, itemId };
}

async function isDeleted(server: TestServer, itemId: string): Promise<boolean> {
  const row = await server.ctx.db.db.selectFrom('order_items').select('is_deleted').where('id', '=', itemId).executeTakeFirstOrThrow();
  return row.is_deleted === 1;
}

describe('TRUST_PROXY', () => {
  const base = { DATABASE_URL: 'sqlite:x.db' };
  it("takes 'false' (default), a hop count or a list of proxy addresses/CIDRs; 'true' is one hop with a warning", () => {
    expect(loadConfig(base).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.5',
      '192.168.0.0/16',
      'loopback',
    ]);
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(configWarnings({ TRUST_PROXY: 'true' })).toEqual([TRUST_PROXY_TRUE_WARNING]);
    expect(configWarnings({ TRUST_PROXY: '1' })).toEqual([]);
  });

  it.each([
    ['10.0.0.0/8', '127.0.0.1'],
    ['127.0.0.1', '203.0.113.7'],
    ['1', '203.0.113.7'],
  ])('with TRUST_PROXY=%s a sign-in from loopback with X-Forwarded-For 203.0.113.7 counts against %s', async (trust, expected) => {
    const server = await startTestServer('sqlite', { env: { TRUST_PROXY: trust } });
    try {
      await server
        .anonymous()
        .post('/api/auth/login', { email: 'nadie@comanda.mx', password: 'x1234567' }, { 'x-forwarded-for': '203.0.113.7' });
      const rows = await auditRows(server, 'auth.login_failed');
      expect(rows.map((r) => r.data?.ip)).toEqual([expected]);
    } finally {
      await server.close();
    }
  });

  it('refuses anything else, naming the variable', () => {
    for (const bad of ['yes', '10.0.0.300', '10.0.0.0/33', '*', '99']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });
});

describe.each(testDatabaseKinds())('PIN and sign-in throttles on %s', (kind) => {
  let server: TestServer;
  const clock = manualClock(Date.UTC(2025, 5, 14, 20, 0, 0));
  const advance = (ms: number) => clock.set(clock.now() + ms);

  beforeAll(async () => {
    // TRUST_PROXY=true as before the fix: now one hop, so X-Forwarded-For picks request.ip.
    server = await startTestServer(kind, { clock, env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('PIN guesses (defect 3)', () => {
    it("23 quick guesses with the guesser's own PIN between them and a new X-Forwarded-For each: 429 before the admin PIN is found", async () => {
      const waiter = await server.login(server.users.waiter.email);
      const { path, itemId } = await itemToDelete(server, waiter, 1);
      const answers: { pin: string; status: number; code: string }[] = [];
      for (let i = 0; i < 23; i++) {
        const pin = i === 22 ? server.users.admin.pin : i % 2 === 1 ? server.users.waiter.pin : NOBODY_PINS[i / 2]!;
        const res = await waiter.post<Err>(path, { pin }, { 'x-forwarded-for': `203.0.113.${i + 1}` });
        answers.push({ pin, status: res.status, code: res.body?.error?.code ?? '' });
      }
      const firstRefusal = answers.findIndex((a) => a.status === 429);
      expect(firstRefusal, JSON.stringify(answers)).toBeGreaterThan(-1);
      expect(firstRefusal).toBeLessThan(22);
      expect(answers[22]!.status, 'the admin PIN, guessed last, is refused too').toBe(429);
      expect(answers.some((a) => a.status === 200)).toBe(false);
      expect(await isDeleted(server, itemId)).toBe(false);
      // The own PIN answered the spec's message and did not buy more guesses.
      expect(answers[1]).toMatchObject({ status: 403, code: 'not_admin_pin' });
      expect(answers.filter((a) => a.status === 403 && a.code === 'wrong_pin')).toHaveLength(5);
      // The addresses were rotated, yet each failure is audited with the address Fastify trusted.
      const ips = (await auditRows(server, 'pin.failed')).map((r) => r.data?.ip);
      expect(ips).toContain('203.0.113.1');
      // The spent budget is audited once, when it runs out.
      const locks = await auditRows(server, 'pin.locked');
      expect(locks.map((l) => l.data)).toEqual([expect.objectContaining({ scope: 'session', purpose: 'delete-item', failures: 5 })]);
      expect(locks[0]!.actor_id).toBe(server.users.waiter.id);
    });

    it('a wrong PIN still waits out the window, and the budget is per user across sessions', async () => {
      advance(15 * 60_000 + 1);
      const waiter2 = await server.login(server.users.waiter2.email);
      const { path } = await itemToDelete(server, waiter2, 2);
      for (const pin of NOBODY_PINS.slice(0, 5)) expect((await waiter2.post(path, { pin })).status).toBe(403);
      expect((await waiter2.post(path, { pin: NOBODY_PINS[5] })).status, 'session budget').toBe(429);
      // A second session (another device) of the same user gets 5 more, then the user's budget is spent.
      const again = await extraSession(server, server.users.waiter2.id);
      for (const pin of NOBODY_PINS.slice(5, 10)) expect((await again.post(path, { pin })).status).toBe(403);
      const third = await extraSession(server, server.users.waiter2.id);
      const refused = await third.post<Err>(path, { pin: server.users.admin.pin });
      expect(refused.status, 'user budget, even for the right PIN').toBe(429);
      expect(refused.body.error.message).toBe('Demasiados intentos. Intenta más tarde');
      advance(15 * 60_000 + 1);
      expect((await third.post(path, { pin: server.users.admin.pin })).status, 'after the window the admin PIN works').toBe(200);
    });

    it("another user's PIN is answered exactly like a wrong PIN; only the caller's own gets the spec's message", async () => {
      advance(15 * 60_000 + 1);
      const waiter = await server.login(server.users.waiter.email);
      const { path, itemId } = await itemToDelete(server, waiter, 3);
      const wrong = await waiter.post<Err>(path, { pin: '9999' });
      const otherWaiter = await waiter.post<Err>(path, { pin: server.users.waiter2.pin });
      const kitchen = await waiter.post<Err>(path, { pin: server.users.kitchen.pin });
      expect(wrong).toEqual({ status: 403, body: { error: { code: 'wrong_pin', message: 'PIN incorrecto' } } });
      expect(otherWaiter).toEqual(wrong);
      expect(kitchen).toEqual(wrong);
      const own = await waiter.post<Err>(path, { pin: server.users.waiter.pin });
      expect(own.status).toBe(403);
      expect(own.body.error).toEqual({
        code: 'not_admin_pin',
        message: 'PIN válido, pero el usuario no tiene permisos. Solo administradores pueden eliminar items.',
      });
      expect(await isDeleted(server, itemId)).toBe(false);
      expect((await waiter.post(path, { pin: server.users.admin.pin })).status).toBe(200);
    });

    it('every user together has one budget against the admin PIN (per purpose, across users and addresses)', async () => {
      advance(15 * 60_000 + 1);
      const waiter = await server.login(server.users.waiter.email);
      const waiter2 = await server.login(server.users.waiter2.email);
      const a = await itemToDelete(server, waiter, 4);
      const b = await itemToDelete(server, waiter2, 5);
      // Two devices each, five wrong guesses per device: 20 failures, no single session or user over its limit.
      let n = 0;
      for (const [user, path] of [
        [server.users.waiter.id, a.path],
        [server.users.waiter2.id, b.path],
      ] as const) {
        for (let device = 0; device < 2; device++) {
          const api = await extraSession(server, user);
          for (let i = 0; i < 5; i++) {
            const res = await api.post(path, { pin: String(5000 + n) }, { 'x-forwarded-for': `198.51.100.${++n}` });
            expect(res.status).toBe(403);
          }
        }
      }
      const admin = await server.login(server.users.admin.email);
      const refused = await admin.post(a.path, { pin: server.users.admin.pin }, { 'x-forwarded-for': '198.51.100.200' });
      expect(refused.status).toBe(429);
      advance(15 * 60_000 + 1);
      expect((await admin.post(a.path, { pin: server.users.admin.pin })).status).toBe(200);
    });
  });

  describe('PIN attempts racing (judged in one call on PostgreSQL)', () => {
    it('12 wrong guesses at once from one session: exactly its budget of 5 is answered and audited, the rest refused', async () => {
      advance(15 * 60_000 + 1);
      const waiter = await server.login(server.users.waiter.email);
      const { path, itemId } = await itemToDelete(server, waiter, 8);
      const failedBefore = (await auditRows(server, 'pin.failed')).length;
      const answers = await Promise.all(NOBODY_PINS.map((pin) => waiter.post<Err>(path, { pin })));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([...Array<number>(5).fill(403), ...Array<number>(7).fill(429)]);
      expect((await auditRows(server, 'pin.failed')).length - failedBefore).toBe(5);
      expect(await isDeleted(server, itemId)).toBe(false);
    });

    it('8 deletes at once with the admin PIN from one session, over its budget of 5: every one is accepted, once', async () => {
      advance(15 * 60_000 + 1);
      const waiter = await server.login(server.users.waiter.email);
      const first = await itemToDelete(server, waiter, 9);
      const orderPath = first.path.slice(0, first.path.indexOf('/items/'));
      const product = await server.ctx.db.db.selectFrom('products').select('id').where('available', '=', 1).executeTakeFirstOrThrow();
      const items = [first.itemId];
      // A note of its own keeps each add its own line (a pending twin would take the units).
      for (let i = 0; i < 7; i++) {
        const added = await waiter.post<{ order: { items: { id: string; createdAt: number }[] } }>(`${orderPath}/items`, {
          productId: product.id,
          quantity: 1,
          notes: `comensal ${i + 2}`,
        });
        expect(added.status).toBe(200);
        items.push(added.body.order.items.find((it) => !items.includes(it.id))!.id);
      }
      const answers = await Promise.all(items.map((id) => waiter.post(`${orderPath}/items/${id}/delete`, { pin: server.users.admin.pin })));
      expect(answers.map((a) => a.status)).toEqual(Array<number>(8).fill(200));
      for (const id of items) expect(await isDeleted(server, id)).toBe(true);
      const deleted = (await auditRows(server, 'order.item-deleted')).map((r) => r.data?.itemId);
      expect(deleted.filter((id) => items.includes(id as string)).sort()).toEqual([...items].sort());
    });
  });

  describe('sign-in back-off (defect 5)', () => {
    it('after 5 wrong passwords the next attempt waits 1 s (429 saying so); then the correct password works', async () => {
      const anon = server.anonymous();
      const email = server.users.kitchen.email;
      for (let i = 0; i < 5; i++) expect((await anon.post('/api/auth/login', { email, password: `mala-${i}-xx` })).status).toBe(401);
      const waiting = await anon.post<Err>('/api/auth/login', { email, password: PASSWORD });
      expect(waiting.status).toBe(429);
      expect(waiting.body.error.message).toBe('Demasiados intentos. Intenta más tarde (espera 1 segundo).');
      advance(1000);
      expect((await anon.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
    });

    it('each further failure doubles the wait, up to 15 minutes, and every back-off that starts is audited', async () => {
      const anon = server.anonymous();
      const email = server.users.barra.email;
      const before = (await auditRows(server, 'auth.locked')).length;
      const waits: string[] = [];
      for (let i = 0; i < 16; i++) {
        const res = await anon.post<Err>('/api/auth/login', { email, password: `mala-${i}-xx` });
        expect(res.status, `attempt ${i}`).toBe(401);
        const next = await anon.post<Err>('/api/auth/login', { email, password: `mala-${i}-yy` });
        if (next.status === 429) waits.push(next.body.error.message.replace(/^.*espera (.*)\)\.$/, '$1'));
        advance(15 * 60_000);
      }
      expect(waits.slice(0, 7)).toEqual(['1 segundo', '2 segundos', '4 segundos', '8 segundos', '16 segundos', '32 segundos', '2 minutos']);
      expect(waits.at(-1)).toBe('15 minutos');
      const locks = (await auditRows(server, 'auth.locked')).slice(before);
      expect(locks.length).toBeGreaterThanOrEqual(waits.length);
      expect(locks.every((l) => l.entity_id === server.users.barra.id)).toBe(true);
      expect(locks.map((l) => l.data?.scope)).toContain('pair');
      expect(locks.map((l) => l.data?.scope)).toContain('account');
      expect(locks.filter((l) => l.data?.scope === 'pair').at(-1)?.data).toMatchObject({ email, ip: '127.0.0.1', waitMs: 15 * 60_000 });
      // A correct password after the last (capped) wait still gets in.
      expect((await anon.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
    });

    it("a whole bar behind one address is never locked out: another account's failures do not block this one", async () => {
      const anon = server.anonymous();
      for (let i = 0; i < 12; i++) {
        await anon.post('/api/auth/login', { email: server.users.waiter2.email, password: `mala-${i}-xx` });
        advance(20 * 60_000);
      }
      for (let i = 0; i < 30; i++)
        expect((await anon.post('/api/auth/login', { email: `nadie${i}@comanda.mx`, password: 'x1234567' })).status).toBe(401);
      expect((await anon.post('/api/auth/login', { email: server.users.waiter.email, password: PASSWORD })).status).toBe(200);
    });

    it('a spray over many accounts from one address is only slowed down (at most a minute)', async () => {
      advance(60 * 60_000);
      const anon = server.anonymous();
      const ip = { 'x-forwarded-for': '192.0.2.77' };
      let status = 0;
      for (let i = 0; i < 50; i++) {
        status = (await anon.post('/api/auth/login', { email: `spray${i}@comanda.mx`, password: 'x1234567' }, ip)).status;
        expect(status).toBe(401);
      }
      const slowed = await anon.post<Err>('/api/auth/login', { email: server.users.waiter.email, password: PASSWORD }, ip);
      expect(slowed.status).toBe(429);
      for (let i = 50; i < 70; i++) {
        advance(60_000);
        expect((await anon.post('/api/auth/login', { email: `spray${i}@comanda.mx`, password: 'x1234567' }, ip)).status).toBe(401);
      }
      const capped = await anon.post<Err>('/api/auth/login', { email: server.users.waiter.email, password: PASSWORD }, ip);
      expect(capped.body.error.message).toBe('Demasiados intentos. Intenta más tarde (espera 1 minuto).');
      advance(60_000);
      expect((await anon.post('/api/auth/login', { email: server.users.waiter.email, password: PASSWORD }, ip)).status).toBe(200);
      // Another address of the same bar was never slowed.
      expect(
        (await anon.post('/api/auth/login', { email: server.users.waiter2.email, password: PASSWORD }, { 'x-forwarded-for': '192.0.2.78' }))
          .status,
      ).toBe(200);
    });

    it('an admin sees the lock in the users list and lifts it with Desbloquear (admin only, audited)', async () => {
      advance(2 * 60 * 60_000);
      const anon = server.anonymous();
      const email = server.users.waiter.email;
      // From 12 addresses (no pair reaches its threshold): the account's own back-off.
      for (let i = 0; i < 12; i++) {
        const res = await anon.post('/api/auth/login', { email, password: `mala-${i}-xx` }, { 'x-forwarded-for': `192.0.2.${100 + i}` });
        expect(res.status).toBe(401);
        if (i < 11) advance(5_000);
      }
      const admin = await server.login(server.users.admin.email);
      const list = await admin.get<{ users: User[] }>('/api/users');
      const row = list.body.users.find((u) => u.email === email)!;
      expect(row.lock).toMatchObject({ failures: 12 });
      expect(row.lock!.until).toBeGreaterThan(clock.now());
      expect(list.body.users.find((u) => u.email === server.users.kitchen.email)!.lock).toBeNull();
      expect((await anon.post('/api/auth/login', { email, password: PASSWORD })).status, 'still waiting').toBe(429);

      const kitchen = await server.login(server.users.kitchen.email);
      expect((await kitchen.post(`/api/users/${server.users.waiter.id}/unlock`)).status).toBe(403);
      expect((await anon.post(`/api/users/${server.users.waiter.id}/unlock`)).status).toBe(401);
      const lifted = await admin.post<{ user: User }>(`/api/users/${server.users.waiter.id}/unlock`);
      expect(lifted.status).toBe(200);
      expect(lifted.body.user).toMatchObject({ id: server.users.waiter.id, lock: null });
      const audits = await auditRows(server, 'user.unlocked');
      expect(audits.at(-1)).toMatchObject({ actor_id: server.users.admin.id, entity_id: server.users.waiter.id });
      expect(audits.at(-1)?.data).toMatchObject({ email, lock: { failures: 12 } });
      expect((await admin.get<{ users: User[] }>('/api/users')).body.users.find((u) => u.email === email)!.lock).toBeNull();
      // At once, without waiting out the back-off.
      expect((await anon.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
      expect((await admin.post(`/api/users/0190f0f0-0000-7000-8000-000000000000/unlock`)).status).toBe(404);
    });

    it('parallel guesses at one account are checked one at a time, so a burst cannot outrun the back-off', async () => {
      advance(2 * 60 * 60_000);
      const email = server.users.waiter2.email;
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          server.anonymous().post('/api/auth/login', { email, password: `mala-${i}-xx` }, { 'x-forwarded-for': `192.0.2.${i + 1}` }),
        ),
      ).then((all) => all.map((r) => r.status));
      // Checked one after another: the account's 10th failure starts its back-off, the rest wait.
      expect(statuses.filter((s) => s === 401)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    });
  });

  describe('cash-close dates (defect 6)', () => {
    it('answers 400 with a Spanish message for a day off the supported calendar, on all three routes', async () => {
      const admin = await server.login(server.users.admin.email);
      for (const route of ['/api/cash-close', '/api/cash-close/outside', '/api/cash-close/export.csv']) {
        for (const date of ['9999-12-31', '2101-01-01', '1999-12-31']) {
          const res = await admin.get<Err>(`${route}?date=${date}`);
          expect(res.status, `${route} ${date}`).toBe(400);
          expect(res.body.error.message).toBe('Datos inválidos (date): La fecha debe estar entre 2000-01-01 y 2100-12-31');
        }
        const ancient = await admin.get<Err>(`${route}?date=0001-01-01`);
        expect(ancient.status).toBe(400);
        expect(ancient.body.error.message).toMatch(/fecha/i);
        for (const date of ['2000-01-01', '2100-12-31'])
          expect((await admin.get(`${route}?date=${date}`)).status, `${route} ${date}`).toBe(200);
      }
    });
  });
});
