import type { FastifyReply } from 'fastify';
import type { SessionUser, Role } from '@comanda/contract';
import { ROLES } from '@comanda/contract';
import type { AppContext } from '../http/context.ts';
import { randomToken, sha256 } from '../http/ids.ts';
import { compiledOnce, firstRow } from '../db/compiled.ts';

export const SESSION_COOKIE = 'comanda_session';
/**
 * The cookie set over HTTPS has its own name: a browser refuses a plain-HTTP Set-Cookie whose name
 * matches a Secure cookie it holds, so one shared name would lock the HTTP port's login out on a
 * device that ever signed in over HTTPS (both ports serve the same host with HTTPS=on).
 */
export const SECURE_SESSION_COOKIE = '__Host-comanda_session';

/** The session token a request carries: the Secure cookie first (only sent over HTTPS), else the plain one. */
export function sessionToken(cookies: Record<string, string | undefined>): string | undefined {
  return cookies[SECURE_SESSION_COOKIE] ?? cookies[SESSION_COOKIE];
}
const IDLE_MS = 12 * 60 * 60_000;
const ABSOLUTE_MS = 7 * 24 * 60 * 60_000;
export const SESSION_LIMITS = { idleMs: IDLE_MS, absoluteMs: ABSOLUTE_MS } as const;
const TOUCH_EVERY_MS = 60_000;

export async function createSession(ctx: AppContext, userId: string): Promise<string> {
  const token = randomToken();
  const now = ctx.clock.now();
  await ctx.db.db
    .insertInto('sessions')
    .values({ token_hash: sha256(token), user_id: userId, created_at: now, last_seen_at: now, expires_at: now + ABSOLUTE_MS })
    .execute();
  return token;
}

export interface ResolvedSession {
  user: SessionUser;
  hash: string;
}

/** Every request's first statement: built once (db/compiled.ts). */
const sessionByHash = compiledOnce((db, a: { hash: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.last_seen_at', 'sessions.expires_at', 'users.id', 'users.email', 'users.display_name', 'users.role', 'users.active'])
    .where('sessions.token_hash', '=', a.hash),
);

/** The session behind a cookie token, or null when unknown, expired, or its user is inactive. */
export async function resolveSession(ctx: AppContext, token: string | undefined): Promise<ResolvedSession | null> {
  if (!token || token.length > 200) return null;
  const hash = sha256(token);
  const now = ctx.clock.now();
  const row = await firstRow(sessionByHash, ctx.db.db, { hash });
  if (!row) return null;
  const expired = row.expires_at <= now || row.last_seen_at + IDLE_MS <= now;
  if (expired || row.active === 0 || !(ROLES as readonly string[]).includes(row.role)) {
    await ctx.db.db.deleteFrom('sessions').where('token_hash', '=', hash).execute();
    return null;
  }
  if (now - row.last_seen_at > TOUCH_EVERY_MS) {
    await ctx.db.db.updateTable('sessions').set({ last_seen_at: now }).where('token_hash', '=', hash).execute();
  }
  return { hash, user: { id: row.id, email: row.email, displayName: row.display_name, role: row.role as Role } };
}

export async function endSession(ctx: AppContext, hash: string): Promise<void> {
  await ctx.db.db.deleteFrom('sessions').where('token_hash', '=', hash).execute();
}

/** Ends every session of a user and drops their live connections at once. */
export async function endUserSessions(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  ctx.live.disconnectUser(userId);
}

export function setSessionCookie(ctx: AppContext, reply: FastifyReply, token: string, secure: boolean): void {
  void ctx;
  reply.setCookie(secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: ABSOLUTE_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  reply.clearCookie(SECURE_SESSION_COOKIE, { path: '/', secure: true });
}
