import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { DevicesInfo, LiveServerMessage } from '@comanda/contract';
import { loadConfig } from '../src/config.ts';
import { lanIPv4, listensOnNetwork } from '../src/net/addresses.ts';
import { announceAddresses } from '../src/net/announce.ts';
import { startHttps, type HttpsListener } from '../src/net/https.ts';
import { certificateNames, ensureTls, LEAF_VALIDITY_DAYS, RENEW_BEFORE_MS, wantedNames } from '../src/net/local-ca.ts';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../src/testing/index.ts';

const DAY = 24 * 60 * 60_000;

interface HttpsResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A real TLS client: trusts only the CA it is given (none: the system's roots, which do not include ours). */
function httpsCall(
  port: number,
  path: string,
  opts: { ca?: string; host?: string; servername?: string; method?: string; body?: unknown; cookie?: string } = {},
): Promise<HttpsResponse> {
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = httpsRequest(
      {
        host: opts.host ?? '127.0.0.1',
        servername: opts.servername,
        port,
        path,
        method: opts.method ?? 'GET',
        ca: opts.ca,
        agent: false,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(opts.cookie ? { cookie: opts.cookie } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('HTTPS on the LAN with a local certificate authority', () => {
  let server: TestServer;
  let https: HttpsListener;
  let ca: string;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { HTTPS: 'on' } });
    https = await startHttps(server.app, { port: 0, host: '127.0.0.1' });
    ca = readFileSync(join(server.ctx.config.DATA_DIR, 'tls', 'ca.crt'), 'utf8');
  });
  afterAll(async () => {
    await https?.close();
    await server?.close();
  });

  it('answers /api/health over TLS to a client that trusts only the generated CA', async () => {
    const byIp = await httpsCall(https.port, '/api/health', { ca });
    expect(byIp.status).toBe(200);
    expect(JSON.parse(byIp.body)).toMatchObject({ ok: true });
    const byName = await httpsCall(https.port, '/api/health', { ca, servername: 'localhost' });
    expect(byName.status).toBe(200);
  });

  it('fails verification for a client without the CA', async () => {
    await expect(httpsCall(https.port, '/api/health')).rejects.toMatchObject({
      code: expect.stringMatching(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY/),
    });
    // The raw TLS handshake says the same: the chain is not trusted without our CA.
    const authorized = await new Promise<{ ok: boolean; error: string }>((resolve) => {
      const socket = tlsConnect({ host: '127.0.0.1', port: https.port, rejectUnauthorized: false }, () => {
        resolve({ ok: socket.authorized, error: String(socket.authorizationError) });
        socket.destroy();
      });
    });
    expect(authorized.ok).toBe(false);
  });

  it('issues a server certificate for localhost, 127.0.0.1, the host name and every LAN address', () => {
    const leaf = new X509Certificate(https.material().certPem);
    const san = leaf.subjectAltName ?? '';
    expect(san).toContain('DNS:localhost');
    expect(san).toContain('IP Address:127.0.0.1');
    expect(san).toContain(`DNS:${hostname().toLowerCase()}`);
    for (const ip of lanIPv4().filter((a) => /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(a)))
      expect(san).toContain(`IP Address:${ip}`);
    expect(leaf.checkIssued(new X509Certificate(ca))).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(new X509Certificate(ca).ca).toBe(true);
    // Within Apple's limit for server certificates under an installed CA (825 days).
    expect(Date.parse(leaf.validTo) - Date.parse(leaf.validFrom)).toBeLessThanOrEqual(825 * DAY);
  });

  it('serves the CA certificate over plain HTTP without signing in', async () => {
    const res = await fetch(`${server.url}/ca.crt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-x509-ca-cert');
    const der = Buffer.from(await res.arrayBuffer());
    expect(new X509Certificate(der).fingerprint256).toBe(new X509Certificate(ca).fingerprint256);
  });

  it('keeps the live channel working over wss on the HTTPS port', async () => {
    const login = await httpsCall(https.port, '/api/auth/login', {
      ca,
      method: 'POST',
      body: { email: server.users.kitchen.email, password: DEMO_PASSWORD },
    });
    expect(login.status).toBe(200);
    const cookie = String((login.headers['set-cookie'] as string[])[0]).split(';')[0]!;
    const ws = new WebSocket(`wss://127.0.0.1:${https.port}/api/live`, { ca, headers: { cookie } });
    const messages: LiveServerMessage[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const got = new Promise<LiveServerMessage>((resolve) =>
      ws.on('message', (raw: Buffer) => {
        const msg = JSON.parse(raw.toString()) as LiveServerMessage;
        messages.push(msg);
        if (msg.op === 'event') resolve(msg);
      }),
    );
    ws.send(JSON.stringify({ op: 'subscribe', topics: ['board'] }));
    await expect.poll(() => messages.some((m) => m.op === 'subscribed')).toBe(true);
    server.ctx.live.publish({ topic: 'board', type: 'board.updated', id: 'o1', version: 1, at: 1 });
    expect(await got).toMatchObject({ op: 'event', event: { topic: 'board', id: 'o1' } });
    ws.close();
  });

  it('SECURE_COOKIES=auto: Secure cookie over HTTPS, plain cookie that still works over HTTP', async () => {
    const body = { email: server.users.admin.email, password: DEMO_PASSWORD };
    const overHttps = await httpsCall(https.port, '/api/auth/login', { ca, method: 'POST', body });
    expect(String((overHttps.headers['set-cookie'] as string[])[0])).toMatch(/;\s*Secure/i);
    const httpsCookie = String((overHttps.headers['set-cookie'] as string[])[0]).split(';')[0]!;
    expect((await httpsCall(https.port, '/api/auth/me', { ca, cookie: httpsCookie })).status).toBe(200);

    const overHttp = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(overHttp.status).toBe(200);
    const setCookie = overHttp.headers.get('set-cookie') ?? '';
    expect(setCookie).not.toMatch(/;\s*Secure/i);
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { cookie: setCookie.split(';')[0]! } });
    expect(me.status).toBe(200);
  });

  it('names the HTTPS cookie apart, so a device that signed in over HTTPS can still sign in over HTTP', async () => {
    const body = { email: server.users.waiter.email, password: DEMO_PASSWORD };
    const overHttps = await httpsCall(https.port, '/api/auth/login', { ca, method: 'POST', body });
    const secureCookie = String((overHttps.headers['set-cookie'] as string[])[0]);
    // A browser refuses a plain-HTTP Set-Cookie named like a Secure cookie it holds: the names must differ.
    expect(secureCookie).toMatch(/^__Host-comanda_session=/);
    expect(secureCookie).toMatch(/;\s*Path=\//i);
    expect(secureCookie).not.toMatch(/;\s*Domain=/i);
    const overHttp = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(overHttp.headers.get('set-cookie') ?? '').toMatch(/^comanda_session=/);
    // Over HTTPS the browser sends both; the Secure one is the session used, and logout clears both.
    const both = `${overHttp.headers.get('set-cookie')!.split(';')[0]}; ${secureCookie.split(';')[0]}`;
    const logout = await httpsCall(https.port, '/api/auth/logout', { ca, method: 'POST', cookie: both });
    expect(logout.status).toBe(200);
    const cleared = (logout.headers['set-cookie'] as string[]).map((c) => c.split('=')[0]);
    expect(cleared).toEqual(expect.arrayContaining(['comanda_session', '__Host-comanda_session']));
    expect((await httpsCall(https.port, '/api/auth/me', { ca, cookie: secureCookie.split(';')[0] })).status).toBe(401);
  });

  it('tells the admin the addresses with QR codes, the HTTPS port and the CA', async () => {
    const admin = await server.login(server.users.admin.email);
    const res = await admin.get<DevicesInfo>('/api/devices');
    expect(res.status).toBe(200);
    const port = new URL(server.url).port;
    expect(res.body.addresses.map((a) => a.url)).toEqual(
      expect.arrayContaining([`http://localhost:${port}`, `https://localhost:${https.port}`]),
    );
    for (const a of res.body.addresses) expect(a.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // HOST is left at 0.0.0.0 here: phones can reach it.
    expect(res.body.listensOnNetwork).toBe(true);
    expect(res.body.https).toMatchObject({ enabled: true, port: https.port, caPath: '/ca.crt' });
    expect(res.body.https.caFingerprint).toBe(new X509Certificate(ca).fingerprint256);
    expect((await (await server.login(server.users.waiter.email)).get('/api/devices')).status).toBe(403);
    expect((await server.anonymous().get('/api/devices')).status).toBe(401);
  });

  it('keeps the certificate on a check when nothing changed', () => {
    const before = https.material();
    const again = https.refresh();
    expect(again.outcome).toBe('kept');
    expect(again.certPem).toBe(before.certPem);
  });
});

describe('server certificate renewal', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'comanda-tls-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a valid certificate, renews one near its end, and keeps the same CA', () => {
    const dir = dataDir();
    const now = Date.now();
    // Issued long enough ago that it ends within the renewal margin today.
    const issuedAt = now - (LEAF_VALIDITY_DAYS * DAY - RENEW_BEFORE_MS + DAY);
    const old = ensureTls({ dataDir: dir, hostName: 'caja', lanIps: ['192.168.1.20'], now: issuedAt });
    expect(old.outcome).toBe('created');
    expect(ensureTls({ dataDir: dir, hostName: 'caja', lanIps: ['192.168.1.20'], now: issuedAt + DAY }).outcome).toBe('kept');

    const renewed = ensureTls({ dataDir: dir, hostName: 'caja', lanIps: ['192.168.1.20'], now });
    expect(renewed.outcome).toBe('issued');
    expect(renewed.caPem).toBe(old.caPem);
    expect(renewed.notAfter).toBeGreaterThan(old.notAfter);
    expect(renewed.notAfter - now).toBeGreaterThan(RENEW_BEFORE_MS);
    expect(new X509Certificate(renewed.certPem).serialNumber).not.toBe(new X509Certificate(old.certPem).serialNumber);
  });

  it('re-issues on start (startHttps) a certificate that is about to expire', async () => {
    const server = await startTestServer('sqlite', { env: { HTTPS: 'on' }, seed: false });
    try {
      const short = ensureTls({
        dataDir: server.ctx.config.DATA_DIR,
        hostName: hostname(),
        lanIps: lanIPv4(),
        now: Date.now(),
        leafValidityDays: 10,
      });
      expect(short.notAfter - Date.now()).toBeLessThan(RENEW_BEFORE_MS);
      const https = await startHttps(server.app, { port: 0, host: '127.0.0.1' });
      try {
        expect(https.material().outcome).toBe('issued');
        expect(https.material().notAfter - Date.now()).toBeGreaterThan(300 * DAY);
        const served = await new Promise<string>((resolve, reject) => {
          const socket = tlsConnect({ host: '127.0.0.1', port: https.port, ca: short.caPem }, () => {
            resolve(socket.getPeerX509Certificate()?.validTo ?? '');
            socket.destroy();
          });
          socket.once('error', reject);
        });
        expect(Date.parse(served)).toBe(https.material().notAfter);
      } finally {
        await https.close();
      }
    } finally {
      await server.close();
    }
  });

  it('re-issues while running when the LAN addresses change, and serves the new certificate', async () => {
    const server = await startTestServer('sqlite', { env: { HTTPS: 'on' }, seed: false });
    let ips = ['192.168.1.20'];
    const https = await startHttps(server.app, { port: 0, host: '127.0.0.1', lanIps: () => ips });
    const peerSan = (ca: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = tlsConnect({ host: '127.0.0.1', port: https.port, ca }, () => {
          resolve(socket.getPeerX509Certificate()?.subjectAltName ?? '');
          socket.destroy();
        });
        socket.once('error', reject);
      });
    try {
      const ca = https.material().caPem;
      expect(await peerSan(ca)).not.toContain('10.0.0.7');
      ips = ['192.168.1.20', '10.0.0.7'];
      expect(https.refresh().outcome).toBe('issued');
      expect(await peerSan(ca)).toContain('IP Address:10.0.0.7');
    } finally {
      await https.close();
      await server.close();
    }
  });

  it('re-issues when the LAN addresses change, covering the new ones', () => {
    const dir = dataDir();
    const now = Date.now();
    ensureTls({ dataDir: dir, hostName: 'caja', lanIps: ['192.168.1.20'], now });
    const moved = ensureTls({ dataDir: dir, hostName: 'caja', lanIps: ['192.168.1.20', '10.0.0.7'], now });
    expect(moved.outcome).toBe('issued');
    expect(certificateNames(moved.certPem)).toEqual({
      dns: ['localhost', 'caja', 'caja.local'],
      ips: ['10.0.0.7', '127.0.0.1', '192.168.1.20'],
    });
  });

  it('signs only local names and private addresses (the CA is name-constrained)', () => {
    expect(wantedNames('caja', ['192.168.1.20', '8.8.8.8', '172.20.0.5'], ['caja'])).toEqual({
      dns: ['localhost', 'caja', 'caja.local'],
      ips: ['127.0.0.1', '172.20.0.5', '192.168.1.20'],
    });
    const dir = dataDir();
    const tls = ensureTls({ dataDir: dir, hostName: 'caja', lanIps: ['192.168.1.20', '8.8.8.8'], now: Date.now() });
    expect(tls.names.ips).not.toContain('8.8.8.8');
  });
});

describe('devices, CA download and manifest without HTTPS', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('has no CA to download and says HTTPS is off', async () => {
    expect((await fetch(`${server.url}/ca.crt`)).status).toBe(404);
    const admin = await server.login(server.users.admin.email);
    const res = await admin.get<DevicesInfo>('/api/devices');
    expect(res.body.https).toEqual({ enabled: false, port: null, caPath: null, caFingerprint: null, certificateExpiresAt: null });
    expect(res.body.addresses.every((a) => !a.secure)).toBe(true);
  });

  it('serves an installable manifest carrying the business name', async () => {
    const admin = await server.login(server.users.admin.email);
    await admin.put('/api/config/general', { name: 'La Cantina', logoUrl: '', address: '', phone: '' });
    const res = await fetch(`${server.url}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as {
      name: string;
      start_url: string;
      display: string;
      icons: { sizes: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ name: 'La Cantina', short_name: 'La Cantina', start_url: '/', display: 'standalone' });
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
  });

  it('lets the service worker and the manifest load under the CSP', async () => {
    const csp = (await fetch(`${server.url}/api/health`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });
});

describe('addresses printed on start', () => {
  it('lists localhost and each LAN address, with a QR code for each LAN address', async () => {
    const out: string[] = [];
    await announceAddresses({ host: '0.0.0.0', httpPort: 3000, httpsPort: 3443, lanIps: ['192.168.1.20'], log: (t) => out.push(t) });
    const text = out.join('\n');
    for (const url of ['http://localhost:3000', 'http://192.168.1.20:3000', 'https://localhost:3443', 'https://192.168.1.20:3443'])
      expect(text).toContain(url);
    expect(text).toContain('http://192.168.1.20:3000/ca.crt');
    // Two QR codes (http and https on the LAN address), drawn with block characters.
    expect(out.filter((block) => /[▀▄█]/.test(block))).toHaveLength(2);
  });

  it('lists only localhost when bound to loopback', async () => {
    const out: string[] = [];
    await announceAddresses({ host: '127.0.0.1', httpPort: 3000, httpsPort: null, lanIps: ['192.168.1.20'], log: (t) => out.push(t) });
    expect(out.join('\n')).toContain('http://localhost:3000');
    expect(out.join('\n')).not.toContain('192.168.1.20');
  });
});

describe('whether phones can reach the server', () => {
  it('is so on every interface or a LAN address, and not when HOST keeps it to this machine', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20']) expect(listensOnNetwork(host)).toBe(true);
    for (const host of ['127.0.0.1', '127.0.1.1', 'localhost', '::1']) expect(listensOnNetwork(host)).toBe(false);
  });
});

describe('HTTPS settings', () => {
  it('is off by default with port 3443, and refuses a bad value by name', () => {
    expect(loadConfig({})).toMatchObject({ HTTPS: 'off', HTTPS_PORT: 3443 });
    expect(loadConfig({ HTTPS: 'on', HTTPS_PORT: '8443' })).toMatchObject({ HTTPS: 'on', HTTPS_PORT: 8443 });
    expect(() => loadConfig({ HTTPS: 'yes' })).toThrow(/HTTPS/);
  });
});
