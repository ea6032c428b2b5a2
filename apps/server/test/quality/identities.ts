import type { Role } from '@comanda/contract';
import { SESSION_COOKIE, createSession } from '../../src/auth/sessions.ts';
import { newId } from '../../src/http/ids.ts';
import type { TestServer } from '../../src/testing/index.ts';

/** Who calls: the seven identities of the access matrix (QUALITY.md, Tests item 3). */
export type IdentityName = 'anonymous' | 'admin' | 'waiterA' | 'waiterB' | 'kitchen' | 'barra' | 'deactivated';
export const IDENTITIES: readonly IdentityName[] = ['anonymous', 'admin', 'waiterA', 'waiterB', 'kitchen', 'barra', 'deactivated'];

export interface Identity {
  name: IdentityName;
  role: Role | null;
  userId: string | null;
  /** A new session cookie: each call gets its own, so a logout or a session-ending route harms nothing else. */
  cookie(): Promise<string | null>;
}

/**
 * Sessions are created directly (no password check, no login throttle). The deactivated user is
 * an admin whose session was opened while active and who was then deactivated: its old cookie
 * must be worth nothing anywhere.
 */
export async function makeIdentities(server: TestServer): Promise<Record<IdentityName, Identity>> {
  const { ctx } = server;
  const now = ctx.clock.now();
  const deactivatedId = newId();
  await ctx.db.db
    .insertInto('users')
    .values({
      id: deactivatedId,
      email: `baja-${deactivatedId.slice(-8)}@comanda.test`,
      display_name: 'Usuario dado de baja',
      role: 'admin',
      password_hash: null,
      pin_hash: null,
      active: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const oldToken = await createSession(ctx, deactivatedId);
  await ctx.db.db.updateTable('users').set({ active: 0 }).where('id', '=', deactivatedId).execute();

  const session = (userId: string) => async () => `${SESSION_COOKIE}=${await createSession(ctx, userId)}`;
  const u = server.users;
  return {
    anonymous: { name: 'anonymous', role: null, userId: null, cookie: async () => null },
    admin: { name: 'admin', role: 'admin', userId: u.admin.id, cookie: session(u.admin.id) },
    waiterA: { name: 'waiterA', role: 'waiter', userId: u.waiter.id, cookie: session(u.waiter.id) },
    waiterB: { name: 'waiterB', role: 'waiter', userId: u.waiter2.id, cookie: session(u.waiter2.id) },
    kitchen: { name: 'kitchen', role: 'kitchen', userId: u.kitchen.id, cookie: session(u.kitchen.id) },
    barra: { name: 'barra', role: 'barra', userId: u.barra.id, cookie: session(u.barra.id) },
    // Its session row still exists: resolveSession must refuse it because the user is inactive.
    deactivated: { name: 'deactivated', role: 'admin', userId: deactivatedId, cookie: async () => `${SESSION_COOKIE}=${oldToken}` },
  };
}

export interface RawResponse {
  status: number;
  text: string;
  json: unknown;
}

/** One HTTP call with a raw body (so tests can send what JSON.stringify never would). */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  opts: { cookie?: string | null; body?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(baseUrl + path, { method, headers, body: opts.body ?? null });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, text, json };
}

/** The shape every refusal must have: { error: { message } } with a non-empty message. */
export function errorMessageOf(json: unknown): string | null {
  if (typeof json !== 'object' || json === null || !('error' in json)) return null;
  const error = (json as { error: unknown }).error;
  if (typeof error !== 'object' || error === null || !('message' in error)) return null;
  const message = (error as { message: unknown }).message;
  return typeof message === 'string' && message.length > 0 ? message : null;
}
