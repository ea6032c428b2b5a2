import { loadConfig } from '../config.ts';
import { createServer, type RunningServer, type ServerOptions } from '../server.ts';
import type { Clock } from '../http/clock.ts';
import type { Mailer } from '../mail/mailer.ts';
import { seedDemo } from '../seed/seed.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../seed/demo-data.ts';
import { createTestDatabase, type TestDatabase, type TestDbKind } from './databases.ts';
import { assertInvariants } from './invariants.ts';
import { inventoryWorker } from '../features/inventory/service.ts';
import { invoicingService } from '../model/invoicing/invoicing-service.ts';

export interface TestServer extends RunningServer {
  kind: TestDbKind;
  url: string;
  /** Signs in a demo (or any) account and returns an API client carrying its cookie. */
  login(email: string, password?: string): Promise<ApiClient>;
  anonymous(): ApiClient;
  /** Demo user by role key: admin, waiter (mesero), waiter2 (mesera), kitchen, barra. */
  users: Record<'admin' | 'waiter' | 'waiter2' | 'kitchen' | 'barra', { id: string; email: string; pin: string; displayName: string }>;
}

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
}

export interface ApiClient {
  cookie: string | null;
  request<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  get<T = unknown>(path: string): Promise<ApiResponse<T>>;
  post<T = unknown>(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  patch<T = unknown>(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  put<T = unknown>(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  delete<T = unknown>(path: string, body?: unknown): Promise<ApiResponse<T>>;
}

export interface TestServerOptions {
  clock?: Clock;
  mailer?: Mailer;
  env?: Record<string, string>;
  seed?: boolean;
  /**
   * Checks the data invariants of QUALITY.md when the server closes (default on). Suites that
   * build impossible states on purpose (rows written directly) turn it off and say why.
   */
  checkInvariants?: boolean;
  /** Told of every route the app declares (see BuildOptions.onRoute). */
  onRoute?: ServerOptions['onRoute'];
  /** A built web app to serve (see BuildOptions.webDist). */
  webDist?: string;
  /**
   * False: the inventory's and the receipts' workers stay still (flush() still runs the inventory's
   * by hand), so a suite counting a request's statements sees none of theirs.
   */
  backgroundWorkers?: boolean;
}

/** An API client for any base URL, carrying a session cookie (or none). */
export function apiClient(base: string, cookie: string | null): ApiClient {
  const request = async <T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> => {
    const res = await fetch(base + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : null,
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed as T };
  };
  return {
    cookie,
    request,
    get: (p) => request('GET', p),
    post: (p, b, h) => request('POST', p, b, h),
    patch: (p, b, h) => request('PATCH', p, b, h),
    put: (p, b, h) => request('PUT', p, b, h),
    delete: (p, b) => request('DELETE', p, b),
  };
}

/** Signs in at any base URL (also servers started as separate processes) and returns a client with the cookie. */
export async function loginAt(base: string, email: string, password = DEMO_PASSWORD): Promise<ApiClient> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${await res.text()}`);
  return apiClient(base, (res.headers.get('set-cookie') ?? '').split(';')[0] ?? null);
}

/**
 * The configuration of a server under test on `database`: a fixed PIN secret, no logs, no demo
 * data of its own (tests seed it), then `env` on top.
 */
export function testServerConfig(database: Pick<TestDatabase, 'url' | 'dataDir'>, env: Record<string, string> = {}) {
  return loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    PIN_SECRET: 'test-pin-secret-0123456789',
    LOG_LEVEL: 'silent',
    DEMO_DATA: 'off',
    CHECK_RESPONSES: 'on',
    ...env,
  });
}

/** Starts `server` listening on an ephemeral loopback port; resolves with its base URL. */
export async function listenOnLoopback(server: Pick<RunningServer, 'app'>): Promise<string> {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** A real server on an ephemeral port against a fresh database, with the demo data loaded. */
export async function startTestServer(kind: TestDbKind, opts: TestServerOptions = {}): Promise<TestServer> {
  const database = await createTestDatabase(kind, { migrated: true });
  // Scheduled backups only where a suite asks for them (BACKUP_EVERY in opts.env).
  const config = testServerConfig(database, { BACKUP_EVERY: 'off', ...opts.env });
  const server = await createServer({
    config,
    clock: opts.clock,
    mailer: opts.mailer,
    log: () => undefined,
    onRoute: opts.onRoute,
    webDist: opts.webDist,
  });
  if (opts.backgroundWorkers === false) {
    await inventoryWorker(server.ctx)?.stop();
    await invoicingService(server.ctx)?.worker.stop();
  }
  if (opts.seed !== false) await seedDemo(server.ctx);
  const url = await listenOnLoopback(server);
  const rows = await server.ctx.db.db.selectFrom('users').select(['id', 'email', 'display_name']).execute();
  const byEmail = (email: string) => {
    const row = rows.find((r) => r.email === email);
    const demo = DEMO_USERS.find((u) => u.email === email);
    return { id: row?.id ?? '', email, pin: demo?.pin ?? '', displayName: row?.display_name ?? '' };
  };
  const emails = DEMO_USERS.map((u) => u.email);
  return {
    ...server,
    kind,
    url,
    users: {
      admin: byEmail(emails[0]!),
      waiter: byEmail(emails[1]!),
      waiter2: byEmail(emails[2]!),
      kitchen: byEmail(emails[3]!),
      barra: byEmail(emails[4]!),
    },
    anonymous: () => apiClient(url, null),
    login: (email, password) => loginAt(url, email, password),
    async close() {
      try {
        if (opts.checkInvariants !== false) await assertInvariants(server.ctx.db);
      } finally {
        await server.close();
        await database.drop();
      }
    },
  };
}
