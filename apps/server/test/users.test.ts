import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import WebSocket from 'ws';
import type { User } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';

type Err = { error: { message: string } };
interface Received {
  to: string[];
  subject: string;
  text: string;
}

/** A real SMTP server on loopback: the app talks SMTP to it exactly as it would to a provider. */
async function startSmtp(): Promise<{ url: string; inbox: Received[]; close: () => Promise<void> }> {
  const inbox: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), ...parseMime(Buffer.concat(chunks).toString('utf8')) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const address = smtp.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `smtp://127.0.0.1:${port}`, inbox, close: () => new Promise((resolve) => smtp.close(() => resolve())) };
}

/** Just enough MIME for a single-part text mail (7bit, quoted-printable or base64). */
function parseMime(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  let text = body;
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => `%${h}`);
    text = decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  } else if (encoding === 'base64') {
    text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { subject: header('Subject'), text: text.replace(/\r\n/g, '\n') };
}

function tokenFrom(mail: Received | undefined): string {
  const match = /\/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mail?.text ?? '');
  if (!match?.[1]) throw new Error(`no link in mail: ${mail?.text}`);
  return decodeURIComponent(match[1]);
}

async function waitFor<T>(get: () => T | undefined, ms = 5_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(testDatabaseKinds())('users and password links on %s', (kind) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: ApiClient;
  const clock = { offset: 0, now: () => Date.now() + clock.offset };
  const mailTo = (email: string, after = 0) => waitFor(() => smtp.inbox.slice(after).findLast((m) => m.to.includes(email)));

  /** Creates an account through the API and sets its password through the e-mailed invitation. */
  async function invitedUser(email: string, role = 'waiter', password = 'clave-segura-1'): Promise<{ user: User; api: ApiClient }> {
    const before = smtp.inbox.length;
    const res = await admin.post<{ user: User; inviteSent: boolean }>('/api/users', { displayName: `Persona ${email}`, email, role });
    expect(res.status).toBe(201);
    const token = tokenFrom(await mailTo(email, before));
    expect((await server.anonymous().post('/api/auth/reset-password', { token, password })).status).toBe(200);
    return { user: res.body.user, api: await server.login(email, password) };
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer(kind, { clock, env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://pos.example.mx' } });
    admin = await server.login(server.users.admin.email);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('lists users for an admin only, without hashes or PINs', async () => {
    const res = await admin.get<{ users: User[] }>('/api/users');
    expect(res.status).toBe(200);
    expect(res.body.users.map((u) => u.email)).toContain(server.users.waiter.email);
    expect(res.body.users.every((u) => u.hasPin && u.active)).toBe(true);
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/hash|"pin"|1111/i);
    for (const key of ['waiter', 'kitchen', 'barra'] as const) {
      const api = await server.login(server.users[key].email);
      expect((await api.get('/api/users')).status).toBe(403);
      expect((await api.post('/api/users', { displayName: 'X', email: 'x@comanda.mx', role: 'admin' })).status).toBe(403);
      expect((await api.patch(`/api/users/${server.users.admin.id}/active`, { active: false })).status).toBe(403);
      expect((await api.post(`/api/users/${server.users.admin.id}/reset`)).status).toBe(403);
    }
    expect((await server.anonymous().get('/api/users')).status).toBe(401);
  });

  it('creates a real account: the e-mailed invitation sets the password and the person signs in', async () => {
    const email = `nueva.${kind}@comanda.mx`;
    const before = smtp.inbox.length;
    const res = await admin.post<{ user: User; inviteSent: boolean }>('/api/users', {
      displayName: 'Nueva Mesera',
      email: email.toUpperCase(),
      role: 'waiter',
      pin: '5678',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ inviteSent: true, user: { email, role: 'waiter', active: true, hasPin: true, hasPassword: false } });

    const mail = await mailTo(email, before);
    expect(mail.subject).toMatch(/Invitaci/);
    expect(mail.text).toContain('https://pos.example.mx/reset-password?token=');
    const token = tokenFrom(mail);

    // Before the password exists nobody can sign in to the account.
    expect((await server.anonymous().post('/api/auth/login', { email, password: 'cualquier-cosa' })).status).toBe(401);
    const info = await server.anonymous().get<{ email: string; purpose: string }>(`/api/auth/reset-password/${token}`);
    expect(info.body).toEqual({ email, purpose: 'invite' });
    expect((await server.anonymous().post<Err>('/api/auth/reset-password', { token, password: 'corta' })).status).toBe(400);
    expect((await server.anonymous().post('/api/auth/reset-password', { token, password: 'mi-clave-nueva' })).status).toBe(200);

    const api = await server.login(email, 'mi-clave-nueva');
    const me = await api.get<{ user: { role: string } }>('/api/auth/me');
    expect(me.body.user.role).toBe('waiter');
    const again = await server.anonymous().post<Err>('/api/auth/reset-password', { token, password: 'otra-clave-9' });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe('El enlace no es válido o ha expirado');
  });

  it('refuses a duplicate e-mail and a duplicate PIN', async () => {
    const dupEmail = await admin.post<Err>('/api/users', {
      displayName: 'Otro',
      email: server.users.kitchen.email.toUpperCase(),
      role: 'kitchen',
    });
    expect(dupEmail.status).toBe(409);
    expect(dupEmail.body.error.message).toBe('El correo ya está registrado');
    const dupPin = await admin.post<Err>('/api/users', {
      displayName: 'Otro',
      email: `otro.${kind}@comanda.mx`,
      role: 'kitchen',
      pin: server.users.waiter.pin,
    });
    expect(dupPin.status).toBe(409);
    expect(dupPin.body.error.message).toBe('El PIN ya está en uso');
    const edit = await admin.patch<Err>(`/api/users/${server.users.kitchen.id}`, { pin: server.users.barra.pin });
    expect(edit.status).toBe(409);
    expect(edit.body.error.message).toBe('El PIN ya está en uso');
    // Its own PIN again, or clearing it, is fine.
    expect((await admin.patch(`/api/users/${server.users.kitchen.id}`, { pin: server.users.kitchen.pin })).status).toBe(200);
    for (const bad of [
      { displayName: 'X', email: 'no-correo', role: 'waiter' },
      { displayName: 'X', email: 'a@b.mx', role: 'dueño' },
      { displayName: 'X', email: 'a@b.mx', role: 'waiter', pin: '12a4' },
      { displayName: 'X', email: 'a@b.mx', role: 'waiter', active: false },
    ]) {
      expect((await admin.post('/api/users', bad)).status).toBe(400);
    }
  });

  it('deactivating a user ends their open session and live connection at once', async () => {
    const { user, api } = await invitedUser(`baja.${kind}@comanda.mx`);
    expect((await api.get('/api/auth/me')).status).toBe(200);
    const ws = new WebSocket(server.url.replace('http', 'ws') + '/api/live', { headers: { cookie: api.cookie ?? '' } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

    const res = await admin.patch<{ user: User }>(`/api/users/${user.id}/active`, { active: false });
    expect(res.status).toBe(200);
    expect(res.body.user.active).toBe(false);
    expect(await closed).toBe(4401);
    expect((await api.get('/api/auth/me')).status).toBe(401);
    const login = await server.anonymous().post<Err>('/api/auth/login', { email: user.email, password: 'clave-segura-1' });
    expect(login.status).toBe(403);

    expect((await admin.patch<{ user: User }>(`/api/users/${user.id}/active`, { active: true })).body.user.active).toBe(true);
    expect((await server.login(user.email, 'clave-segura-1')).cookie).toBeTruthy();
    const actions = await server.ctx.db.db.selectFrom('audit_log').select('action').where('entity_id', '=', user.id).execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['user.create', 'user.deactivate', 'user.activate']));
  });

  it('does not let an admin deactivate themself or change their own role', async () => {
    const res = await admin.patch<Err>(`/api/users/${server.users.admin.id}/active`, { active: false });
    expect(res.status).toBe(409);
    expect((await admin.get('/api/auth/me')).status).toBe(200);
    expect((await admin.patch(`/api/users/${server.users.admin.id}`, { role: 'waiter' })).status).toBe(409);
  });

  it("'Restablecer' e-mails a single-use link that ends old sessions", async () => {
    const { user, api: oldSession } = await invitedUser(`olvido.${kind}@comanda.mx`);
    const before = smtp.inbox.length;
    const res = await admin.post<{ message: string }>(`/api/users/${user.id}/reset`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(`Enlace enviado a ${user.email}`);
    const mail = await mailTo(user.email, before);
    expect(mail.subject).toMatch(/Restablecer/);
    const token = tokenFrom(mail);

    expect((await server.anonymous().post('/api/auth/reset-password', { token, password: 'nueva-clave-22' })).status).toBe(200);
    expect((await oldSession.get('/api/auth/me')).status).toBe(401);
    expect((await server.anonymous().post('/api/auth/login', { email: user.email, password: 'clave-segura-1' })).status).toBe(401);
    expect((await server.login(user.email, 'nueva-clave-22')).cookie).toBeTruthy();
    const reuse = await server.anonymous().post<Err>('/api/auth/reset-password', { token, password: 'tercera-clave-3' });
    expect(reuse.body.error.message).toBe('El enlace no es válido o ha expirado');
  });

  it('a reset link expires after one hour, and a newer link replaces an older one', async () => {
    const { user } = await invitedUser(`tarde.${kind}@comanda.mx`);
    let before = smtp.inbox.length;
    await admin.post(`/api/users/${user.id}/reset`);
    const first = tokenFrom(await mailTo(user.email, before));
    before = smtp.inbox.length;
    await admin.post(`/api/users/${user.id}/reset`);
    const second = tokenFrom(await mailTo(user.email, before));
    expect((await server.anonymous().get(`/api/auth/reset-password/${first}`)).status).toBe(400);
    expect((await server.anonymous().get(`/api/auth/reset-password/${second}`)).status).toBe(200);

    clock.offset += 59 * 60_000;
    expect((await server.anonymous().get(`/api/auth/reset-password/${second}`)).status).toBe(200);
    clock.offset += 2 * 60_000;
    const late = await server.anonymous().post<Err>('/api/auth/reset-password', { token: second, password: 'demasiado-tarde' });
    expect(late.status).toBe(400);
    expect(late.body.error.message).toBe('El enlace no es válido o ha expirado');
    expect((await server.anonymous().get(`/api/auth/reset-password/${second}`)).status).toBe(400);
    expect((await server.anonymous().post('/api/auth/reset-password', { token: 'inventado', password: 'lo-que-sea-1' })).status).toBe(400);
    admin = await server.login(server.users.admin.email);
  });

  it("answers 'Error al enviar enlace' when the mail server is down, and still creates the account", async () => {
    const down = await startTestServer(kind, { env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    try {
      const api = await down.login(down.users.admin.email);
      const reset = await api.post<Err>(`/api/users/${down.users.waiter.id}/reset`);
      expect(reset.status).toBe(502);
      expect(reset.body.error.message).toBe('Error al enviar enlace');
      const created = await api.post<{ inviteSent: boolean; user: User }>('/api/users', {
        displayName: 'Sin correo',
        email: 'sin.correo@comanda.mx',
        role: 'barra',
      });
      expect(created.status).toBe(201);
      expect(created.body.inviteSent).toBe(false);
    } finally {
      await down.close();
    }
  });
});
