import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIN_MESSAGES } from '@comanda/domain';
import { DEMO_PASSWORD, apiClient, startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { sha256 } from '../src/http/ids.ts';
import { DEVICE_MESSAGES } from '../src/features/shared-devices/device-store.ts';
import { manualClock } from './cash-close-fixture.ts';

/**
 * An admin enrolls a browser as a shared device; there staff pick their name and sign in with
 * their PIN (only that person's PIN is checked; the admin signs in there with the password).
 * Refused without an enrolled device, with a revoked one or a forged cookie; guesses are
 * throttled per device, per person, per address and across every device, and a correct PIN
 * never resets them.
 */
type Err = { error: { code: string; message: string } };
type Me = { user: { id: string; role: string; displayName: string } };
type People = { people: { id: string; displayName: string; role: string }[] };
/** A userId that names nobody: a guess against it spends every budget but no real person's. */
const nobody = () => `nadie-${crypto.randomUUID()}`;
const WRONG = ['9801', '9802', '9803', '9804', '9805', '9806', '9807', '9808'];

interface Raw {
  status: number;
  body: unknown;
  cookies: string[];
}

async function send(
  base: string,
  method: string,
  path: string,
  cookie: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Raw> {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : null,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null, cookies: res.headers.getSetCookie() };
}

const pair = (setCookie: string | undefined) => (setCookie ?? '').split(';')[0]!;

async function auditRows(server: TestServer, action: string) {
  const rows = await server.ctx.db.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('seq').execute();
  return rows.map((r) => ({ ...r, data: r.data ? (JSON.parse(r.data) as Record<string, unknown>) : null }));
}

describe.each(testDatabaseKinds())('shared devices and PIN sign-in on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  const clock = manualClock(Date.UTC(2026, 10, 20, 20, 0, 0));
  const advance = (ms: number) => clock.set(clock.now() + ms);
  let address = 0;
  /** Each test guesses from its own address, so address budgets never leak between tests. */
  const nextAddress = () => `10.0.0.${++address}`;

  /** Enrolls a new shared device as the admin; answers its cookie ("comanda_device=…") and id. */
  async function enroll(name: string, idleLockSeconds = 300): Promise<{ cookie: string; id: string; raw: Raw }> {
    const raw = await send(server.url, 'POST', '/api/shared-devices', admin.cookie!, { name, idleLockSeconds });
    expect(raw.status, JSON.stringify(raw.body)).toBe(200);
    const set = raw.cookies.find((c) => c.startsWith('comanda_device='));
    return { cookie: pair(set), id: (raw.body as { device: { id: string } }).device.id, raw };
  }
  const pinLogin = (cookie: string, userId: string, pin: string, ip: string) =>
    send(server.url, 'POST', '/api/auth/pin-login', cookie, { userId, pin }, { 'x-forwarded-for': ip });

  beforeAll(async () => {
    server = await startTestServer(kind, { clock, env: { TRUST_PROXY: 'true' } });
    admin = await server.login(server.users.admin.email);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an admin enrolls this browser: HttpOnly, SameSite=Strict, year-long cookie; only its hash is stored; audited', async () => {
    const { cookie, id, raw } = await enroll('Tablet barra');
    const set = raw.cookies.find((c) => c.startsWith('comanda_device='))!;
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Strict/i);
    expect(set).not.toMatch(/Secure/i); // plain HTTP here; over HTTPS it is __Host-comanda_device and Secure
    expect(Number(/Max-Age=(\d+)/i.exec(set)?.[1])).toBeGreaterThanOrEqual(364 * 24 * 3600);
    const secret = cookie.split('=')[1]!;
    const row = await server.ctx.db.db.selectFrom('shared_devices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.created_by).toBe(server.users.admin.id);

    const current = await send(server.url, 'GET', '/api/shared-devices/current', cookie);
    expect(current.body).toEqual({ enrolled: true, name: 'Tablet barra', idleLockSeconds: 300 });
    const anonymous = await send(server.url, 'GET', '/api/shared-devices/current', '');
    expect(anonymous.body).toEqual({ enrolled: false, name: null, idleLockSeconds: 0 });

    const list = await send(server.url, 'GET', '/api/shared-devices', `${admin.cookie}; ${cookie}`);
    const listed = (list.body as { devices: { id: string; current: boolean; name: string; createdBy: string }[] }).devices.find(
      (d) => d.id === id,
    );
    expect(listed).toMatchObject({ name: 'Tablet barra', current: true, createdBy: server.users.admin.displayName });

    const enrolled = await auditRows(server, 'device.enrolled');
    expect(enrolled.at(-1)).toMatchObject({ actor_id: server.users.admin.id, entity_id: id, data: { name: 'Tablet barra' } });

    // The same browser is not enrolled twice; staff cannot enroll or list.
    const again = await send(server.url, 'POST', '/api/shared-devices', `${admin.cookie}; ${cookie}`, { name: 'Otra', idleLockSeconds: 0 });
    expect(again.status).toBe(409);
    expect((again.body as Err).error.message).toBe(DEVICE_MESSAGES.alreadyEnrolled);
    const waiter = await server.login(server.users.waiter.email);
    expect((await waiter.post('/api/shared-devices', { name: 'Mía', idleLockSeconds: 0 })).status).toBe(403);
    expect((await waiter.get('/api/shared-devices')).status).toBe(403);
    const bad = await admin.post<Err>('/api/shared-devices', { name: 'Rara', idleLockSeconds: 7 });
    expect(bad.status).toBe(400);
  });

  it("the waiter's PIN opens a waiter session on the device, the kitchen's a kitchen one; switching ends the previous session", async () => {
    const { cookie, id } = await enroll('Tablet piso');
    const ip = nextAddress();
    const asWaiter = await pinLogin(cookie, server.users.waiter.id, server.users.waiter.pin, ip);
    expect(asWaiter.status, JSON.stringify(asWaiter.body)).toBe(200);
    expect((asWaiter.body as Me).user).toMatchObject({ id: server.users.waiter.id, role: 'waiter' });
    const session = pair(asWaiter.cookies.find((c) => c.startsWith('comanda_session=')));
    expect(session).toMatch(/^comanda_session=.+/);
    const me = await apiClient(server.url, session).get<Me>('/api/auth/me');
    expect(me.body.user).toMatchObject({ id: server.users.waiter.id, role: 'waiter' });
    expect((await apiClient(server.url, session).get('/api/tables')).status).toBe(200);
    const row = await server.ctx.db.db
      .selectFrom('sessions')
      .select('device_id')
      .where('token_hash', '=', sha256(session.split('=')[1]!))
      .executeTakeFirstOrThrow();
    expect(row.device_id).toBe(id);

    const asKitchen = await pinLogin(`${cookie}; ${session}`, server.users.kitchen.id, server.users.kitchen.pin, ip);
    expect(asKitchen.status).toBe(200);
    expect((asKitchen.body as Me).user.role).toBe('kitchen');
    expect((await apiClient(server.url, session).get('/api/auth/me')).status).toBe(401);

    const logins = await auditRows(server, 'auth.pin_login');
    expect(logins.slice(-2).map((r) => [r.actor_id, r.data?.deviceId])).toEqual([
      [server.users.waiter.id, id],
      [server.users.kitchen.id, id],
    ]);
  });

  it('refused without a device cookie, with a forged one, and at once once the device is revoked (its sessions end)', async () => {
    const ip = nextAddress();
    const none = await pinLogin('', server.users.waiter.id, server.users.waiter.pin, ip);
    expect(none.status).toBe(403);
    expect((none.body as Err).error).toEqual({ code: 'device_not_enrolled', message: DEVICE_MESSAGES.notEnrolled });
    expect(none.cookies.some((c) => c.startsWith('comanda_session='))).toBe(false);
    const forged = await pinLogin(
      'comanda_device=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      server.users.waiter.id,
      server.users.waiter.pin,
      ip,
    );
    expect(forged.status).toBe(403);
    expect((forged.body as Err).error.code).toBe('device_not_enrolled');

    const { cookie, id } = await enroll('Teléfono caja');
    const opened = await pinLogin(cookie, server.users.waiter.id, server.users.waiter.pin, ip);
    expect(opened.status).toBe(200);
    const session = pair(opened.cookies.find((c) => c.startsWith('comanda_session=')));
    const revoked = await admin.post<{ device: { revokedAt: number | null } }>(`/api/shared-devices/${id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.device.revokedAt).toBe(clock.now());
    expect((await apiClient(server.url, session).get('/api/auth/me')).status).toBe(401);
    const after = await pinLogin(cookie, server.users.waiter.id, server.users.waiter.pin, ip);
    expect(after.status).toBe(403);
    expect((after.body as Err).error.code).toBe('device_not_enrolled');
    expect((await send(server.url, 'GET', '/api/shared-devices/current', cookie)).body).toMatchObject({ enrolled: false });
    expect((await admin.post(`/api/shared-devices/${id}/revoke`)).status).toBe(409);
    const audits = await auditRows(server, 'device.revoked');
    expect(audits.at(-1)).toMatchObject({ actor_id: server.users.admin.id, entity_id: id, data: { sessionsEnded: 1 } });
  });

  it('an admin who signed in with the password on the tablet and revokes it there stays signed in; its cookie is cleared', async () => {
    const { cookie, id } = await enroll('Tablet entrada');
    const ip = nextAddress();
    const waiter = await pinLogin(cookie, server.users.waiter.id, server.users.waiter.pin, ip);
    const waiterSession = pair(waiter.cookies.find((c) => c.startsWith('comanda_session=')));
    const adminSession = (await server.login(server.users.admin.email)).cookie!;
    const other = await pinLogin(cookie, server.users.kitchen.id, server.users.kitchen.pin, ip); // another session opened there (e.g. before a switch)
    const kitchenSession = pair(other.cookies.find((c) => c.startsWith('comanda_session=')));
    const revoked = await send(server.url, 'POST', `/api/shared-devices/${id}/revoke`, `${adminSession}; ${cookie}`);
    expect(revoked.status).toBe(200);
    expect(revoked.cookies.some((c) => /^comanda_device=;/.test(c))).toBe(true);
    expect((await apiClient(server.url, adminSession).get('/api/auth/me')).status).toBe(200);
    expect((await apiClient(server.url, kitchenSession).get('/api/auth/me')).status).toBe(401);
    expect((await apiClient(server.url, waiterSession).get('/api/auth/me')).status).toBe(401);
  });

  it('five wrong guesses on a device, over several people → 429, and a correct PIN does not reset the count; failures audited with the device', async () => {
    advance(16 * 60_000); // earlier tests' windows are over
    const { cookie, id } = await enroll('Tablet terraza');
    const ip = nextAddress();
    // Two people and two names of nobody: no person reaches their own limit, the device does.
    const targets = [server.users.kitchen.id, server.users.barra.id, nobody(), nobody(), server.users.waiter2.id];
    for (const [i, pin] of WRONG.slice(0, 4).entries()) {
      const res = await pinLogin(cookie, targets[i]!, pin, ip);
      expect(res.status).toBe(403);
      expect((res.body as Err).error.message).toBe(PIN_MESSAGES.wrong);
    }
    expect((await pinLogin(cookie, server.users.waiter.id, server.users.waiter.pin, ip)).status).toBe(200); // 4 failures stay counted
    expect((await pinLogin(cookie, targets[4]!, WRONG[4]!, ip)).status).toBe(403); // the fifth
    const blocked = await pinLogin(cookie, server.users.waiter.id, server.users.waiter.pin, ip);
    expect(blocked.status).toBe(429);
    const failed = (await auditRows(server, 'pin.failed')).filter((r) => r.data?.deviceId === id);
    expect(failed).toHaveLength(5);
    expect(failed[0]!.data).toMatchObject({ purpose: 'pin-login', ip, deviceId: id, userId: server.users.kitchen.id });
    expect(failed[0]!.actor_id).toBeNull();
    const locked = (await auditRows(server, 'pin.locked')).filter((r) => r.data?.deviceId === id);
    expect(locked.map((r) => r.data?.scope)).toEqual(['device']);

    // Another device at another address is not held back by this one.
    const other = await enroll('Tablet salón');
    expect((await pinLogin(other.cookie, server.users.waiter.id, server.users.waiter.pin, nextAddress())).status).toBe(200);
    advance(5 * 60_000 + 1);
    expect((await pinLogin(cookie, server.users.waiter.id, server.users.waiter.pin, ip)).status).toBe(200);
  });

  it('one address, many devices: the address budget (30) holds; many addresses: the shared pin-login budget (60) holds', async () => {
    advance(16 * 60_000);
    const ip = nextAddress();
    for (let d = 0; d < 6; d += 1) {
      const { cookie } = await enroll(`Tablet A${d}`);
      for (const pin of WRONG.slice(0, 5)) expect((await pinLogin(cookie, nobody(), pin, ip)).status).toBe(403);
    }
    const fresh = await enroll('Tablet A nueva');
    expect((await pinLogin(fresh.cookie, server.users.waiter.id, server.users.waiter.pin, ip)).status).toBe(429);

    advance(16 * 60_000);
    for (let d = 0; d < 12; d += 1) {
      const { cookie } = await enroll(`Tablet B${d}`);
      const from = nextAddress();
      for (const pin of WRONG.slice(0, 5)) expect((await pinLogin(cookie, nobody(), pin, from)).status).toBe(403);
    }
    const last = await enroll('Tablet B nueva');
    expect((await pinLogin(last.cookie, server.users.waiter.id, server.users.waiter.pin, nextAddress())).status).toBe(429);
    advance(16 * 60_000);
    expect((await pinLogin(last.cookie, server.users.waiter.id, server.users.waiter.pin, nextAddress())).status).toBe(200);
  });

  it('the switch screen offers the active staff with a PIN, by name, never the admin; any other browser gets no names', async () => {
    const { cookie } = await enroll('Tablet lista');
    const created = async (displayName: string, pin: string) => {
      const res = await admin.post<{ user: { id: string } }>('/api/users', {
        displayName,
        email: `${crypto.randomUUID()}@example.com`,
        role: 'waiter',
        pin,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.user.id;
    };
    const withoutPin = await created('Sin PIN', '');
    const gone = await created('Dada de baja', String(4000 + Math.floor(Math.random() * 5000)));
    expect((await admin.patch(`/api/users/${gone}/active`, { active: false })).status).toBe(200);

    const listed = await send(server.url, 'GET', '/api/shared-devices/current/people', cookie);
    expect(listed.status).toBe(200);
    const people = (listed.body as People).people;
    const staff = [server.users.waiter, server.users.waiter2, server.users.kitchen, server.users.barra];
    expect(people).toEqual(
      expect.arrayContaining(
        staff.map((u) => ({ id: u.id, displayName: u.displayName, role: expect.stringMatching(/^(waiter|kitchen|barra)$/) as string })),
      ),
    );
    const ids = people.map((p) => p.id);
    expect(ids).not.toContain(server.users.admin.id);
    expect(ids).not.toContain(withoutPin);
    expect(ids).not.toContain(gone);
    expect(people.every((p) => p.role !== 'admin')).toBe(true);
    expect(JSON.stringify(people)).not.toMatch(/pin|hash|email/i);

    // Not enrolled, a forged cookie, or a revoked device: no names.
    expect((await send(server.url, 'GET', '/api/shared-devices/current/people', '')).body).toEqual({ people: [] });
    const forged = await send(server.url, 'GET', '/api/shared-devices/current/people', 'comanda_device=AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(forged.body).toEqual({ people: [] });
  });

  it("the admin's right PIN is refused on a shared device (403, in Spanish); the admin signs in there with the password", async () => {
    advance(16 * 60_000);
    const { cookie } = await enroll('Tablet caja');
    const ip = nextAddress();
    const logins = (await auditRows(server, 'auth.pin_login')).length;
    const refused = await pinLogin(cookie, server.users.admin.id, server.users.admin.pin, ip);
    expect(refused.status).toBe(403);
    expect((refused.body as Err).error).toEqual({ code: 'admin_pin_login', message: DEVICE_MESSAGES.adminByPassword });
    expect(refused.cookies.some((c) => c.startsWith('comanda_session='))).toBe(false);
    expect(await auditRows(server, 'auth.pin_login')).toHaveLength(logins);
    // A wrong PIN for the admin gets the same answer: the admin's PIN is never checked here.
    const guessed = await pinLogin(cookie, server.users.admin.id, WRONG[0]!, ip);
    expect((guessed.body as Err).error.code).toBe('admin_pin_login');
    // The PIN alone no longer finds anybody: the request must name the person.
    const alone = await send(server.url, 'POST', '/api/auth/pin-login', cookie, { pin: server.users.admin.pin }, { 'x-forwarded-for': ip });
    expect(alone.status).toBe(400);
    expect(alone.cookies.some((c) => c.startsWith('comanda_session='))).toBe(false);
    // The password opens the admin's session on that same browser.
    const withPassword = await send(server.url, 'POST', '/api/auth/login', cookie, {
      email: server.users.admin.email,
      password: DEMO_PASSWORD,
    });
    expect(withPassword.status, JSON.stringify(withPassword.body)).toBe(200);
    expect((withPassword.body as Me).user.role).toBe('admin');
  });

  it("another person's PIN sent with this person's name is wrong (403 'PIN incorrecto'), counted on the named person", async () => {
    advance(16 * 60_000);
    const { cookie, id } = await enroll('Tablet cocina');
    const ip = nextAddress();
    const crossed = await pinLogin(cookie, server.users.waiter.id, server.users.kitchen.pin, ip);
    expect(crossed.status).toBe(403);
    expect((crossed.body as Err).error).toEqual({ code: 'wrong_pin', message: PIN_MESSAGES.wrong });
    expect(crossed.cookies.some((c) => c.startsWith('comanda_session='))).toBe(false);
    const failed = (await auditRows(server, 'pin.failed')).filter((r) => r.data?.deviceId === id);
    expect(failed.map((r) => r.data?.userId)).toEqual([server.users.waiter.id]);
    // A name of nobody is wrong the same way.
    expect(((await pinLogin(cookie, nobody(), server.users.kitchen.pin, ip)).body as Err).error.code).toBe('wrong_pin');
    // The kitchen's own name with its PIN signs the kitchen in.
    const own = await pinLogin(cookie, server.users.kitchen.id, server.users.kitchen.pin, ip);
    expect(own.status).toBe(200);
    expect((own.body as Me).user).toMatchObject({ id: server.users.kitchen.id, role: 'kitchen' });
  });

  it('five wrong PINs for one person over two devices lock that person on every device (429, in Spanish); others still sign in; Desbloquear lifts it', async () => {
    advance(16 * 60_000);
    const person = server.users.barra;
    const [north, south, centre] = [await enroll('Tablet norte'), await enroll('Tablet sur'), await enroll('Tablet centro')];
    const [ipNorth, ipSouth, ipCentre] = [nextAddress(), nextAddress(), nextAddress()];
    const startedAt = clock.now();
    for (const pin of WRONG.slice(0, 3)) expect((await pinLogin(north.cookie, person.id, pin, ipNorth)).status).toBe(403);
    advance(60_000);
    for (const pin of WRONG.slice(3, 5)) expect((await pinLogin(south.cookie, person.id, pin, ipSouth)).status).toBe(403);

    // Neither device has spent its own five; the person has: even the right PIN on a third device waits.
    const locked = await pinLogin(centre.cookie, person.id, person.pin, ipCentre);
    expect(locked.status).toBe(429);
    expect((locked.body as Err).error.message).toBe(DEVICE_MESSAGES.personLocked(person.displayName, '14 minutos'));
    expect((locked.body as Err).error.message).toMatch(/^Demasiados PIN incorrectos para .+\. Espera 14 minutos/);
    const lockAudit = (await auditRows(server, 'pin.locked')).filter((r) => r.data?.userId === person.id);
    expect(lockAudit.map((r) => r.data?.scope)).toEqual(['person']);
    expect((await pinLogin(north.cookie, server.users.waiter.id, server.users.waiter.pin, ipNorth)).status).toBe(200);
    expect((await pinLogin(south.cookie, server.users.kitchen.id, server.users.kitchen.pin, ipSouth)).status).toBe(200);

    // The admin sees the lock in Usuarios and lifts it: the right PIN works at once.
    const users = await admin.get<{ users: { id: string; lock?: { until: number; failures: number } | null }[] }>('/api/users');
    expect(users.body.users.find((u) => u.id === person.id)?.lock).toEqual({ until: startedAt + 15 * 60_000, failures: 5 });
    expect((await admin.post(`/api/users/${person.id}/unlock`)).status).toBe(200);
    const unlocked = await pinLogin(centre.cookie, person.id, person.pin, ipCentre);
    expect(unlocked.status, JSON.stringify(unlocked.body)).toBe(200);
    expect((unlocked.body as Me).user.id).toBe(person.id);

    // Without the admin, the lock ends with its window.
    advance(5 * 60_000 + 1); // the north device's own window is over
    for (const pin of WRONG.slice(0, 5)) expect((await pinLogin(north.cookie, person.id, pin, nextAddress())).status).toBe(403);
    expect((await pinLogin(centre.cookie, person.id, person.pin, ipCentre)).status).toBe(429);
    advance(15 * 60_000 + 1);
    expect((await pinLogin(centre.cookie, person.id, person.pin, ipCentre)).status).toBe(200);
  });
});
