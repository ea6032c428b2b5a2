import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import type { SessionUser, Role } from '@comanda/contract';
import { ROLES } from '@comanda/contract';
import type { AppContext } from '../http/context.ts';
import { randomToken, sha256 } from '../http/ids.ts';
import { compiledOnce, firstRow } from '../db/compiled.ts';
import { assertAllowed, type Access } from '../http/access.ts';

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
  if (!row) {
    memoOf(ctx).forget(hash);
    return null;
  }
  const expired = row.expires_at <= now || row.last_seen_at + IDLE_MS <= now;
  if (expired || row.active === 0 || !(ROLES as readonly string[]).includes(row.role)) {
    memoOf(ctx).forget(hash);
    await ctx.db.db.deleteFrom('sessions').where('token_hash', '=', hash).execute();
    return null;
  }
  let lastSeenAt = row.last_seen_at;
  if (now - row.last_seen_at > TOUCH_EVERY_MS) {
    await ctx.db.db.updateTable('sessions').set({ last_seen_at: now }).where('token_hash', '=', hash).execute();
    lastSeenAt = now;
  }
  const user: SessionUser = { id: row.id, email: row.email, displayName: row.display_name, role: row.role as Role };
  // Only PostgreSQL's add takes a remembered session (app.ts): SQLite's reads are in-process anyway.
  if (ctx.db.kind === 'postgres') memoOf(ctx).remember(hash, { user, expiresAt: row.expires_at, lastSeenAt, at: now });
  return { hash, user };
}

/**
 * Sessions this process resolved lately. Only a route whose write checks the
 * session again inside its own statement may take one from here without reading it first
 * (PostgreSQL's one-statement add: one round trip fewer on every add). Nothing else trusts it:
 * another process may have ended the session or changed its user meanwhile, and that write then
 * finds out and hands over to a fresh read (`resolveSession`).
 */
interface Remembered {
  user: SessionUser;
  expiresAt: number;
  lastSeenAt: number;
  at: number;
}
/** How long a remembered session is offered, and how many are kept (the oldest go first). */
const MEMO_MS = 10 * 60_000;
const MEMO_SIZE = 5_000;

class SessionMemo {
  private readonly entries = new Map<string, Remembered>();
  remember(hash: string, entry: Remembered): void {
    this.entries.delete(hash);
    this.entries.set(hash, entry);
    if (this.entries.size > MEMO_SIZE) this.entries.delete(this.entries.keys().next().value!);
  }
  recall(hash: string, now: number): Remembered | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    const stale = entry.at + MEMO_MS <= now || entry.expiresAt <= now || entry.lastSeenAt + IDLE_MS <= now;
    if (stale) this.entries.delete(hash);
    return stale ? undefined : entry;
  }
  forget(hash: string): void {
    this.entries.delete(hash);
  }
  forgetUser(userId: string): void {
    for (const [hash, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(hash);
  }
}
const MEMO_SERVICE = 'session-memo';
/** The process's memo, one per app: kept in its services, so a request's write context reaches the same one. */
function memoOf(ctx: AppContext): SessionMemo {
  let memo = ctx.services.get(MEMO_SERVICE) as SessionMemo | undefined;
  if (!memo) ctx.services.set(MEMO_SERVICE, (memo = new SessionMemo()));
  return memo;
}

/** A session this process resolved lately, not read again: for a write that checks it itself (`checkedSession`). */
export function rememberedSession(ctx: AppContext, token: string | undefined): ResolvedSession | null {
  if (!token || token.length > 200) return null;
  const hash = sha256(token);
  const entry = memoOf(ctx).recall(hash, ctx.clock.now());
  return entry ? { hash, user: entry.user } : null;
}

/**
 * The caller's session when the route took it as remembered, not read: a one-statement write checks
 * `hash` itself (comanda_session_ok); anything else must `read` it first (it throws 401 or 403 when
 * the session is no longer good for the route's access, and gives its user as it is now).
 */
export interface SessionToCheck {
  hash: string;
  read(): Promise<SessionUser>;
}

/** A request's remembered session as a SessionToCheck; its `read` also sets the request's user afresh. */
export function sessionToCheck(ctx: AppContext, request: FastifyRequest, access: Access): SessionToCheck {
  return {
    hash: request.sessionHash!,
    read: async () => {
      const session = await resolveSession(ctx, sessionToken(request.cookies));
      assertAllowed(access, session?.user);
      request.user = session!.user;
      return session!.user;
    },
  };
}

/**
 * A request that took its session as remembered: `attempt` runs with the session for its first
 * statement to check, and gives null when it did not hold (nothing kept); the session is then read
 * (401 or 403 when it no longer may) and `attempt` runs once more as the user now is, with none to check.
 */
export async function withSessionChecked<T>(
  user: SessionUser,
  session: SessionToCheck | undefined,
  attempt: (user: SessionUser, session: SessionToCheck | undefined) => Promise<T | null>,
): Promise<T> {
  if (session) {
    const first = await attempt(user, session);
    if (first !== null) return first;
    user = await session.read();
  }
  const result = await attempt(user, undefined);
  if (result === null) throw new Error('withSessionChecked: refused with no session to check');
  return result;
}

/** PostgreSQL: a remembered session's check (comanda_session_ok) for a statement to evaluate; true when there is none to check. */
export function sessionOkCall(session: SessionToCheck | null | undefined, user: SessionUser, now: number): RawBuilder<boolean> {
  if (!session) return sql<boolean>`true`;
  return sql<boolean>`comanda_session_ok(${session.hash}, ${user.id}, ${user.role}, ${user.displayName},
    ${SESSION_CHECK.idleMs}::bigint, ${SESSION_CHECK.touchEveryMs}::bigint, ${now}::bigint)`;
}

/** What a write that checks its session itself must hold it to: resolveSession's own rules, as figures. */
export const SESSION_CHECK = { idleMs: IDLE_MS, touchEveryMs: TOUCH_EVERY_MS } as const;

export async function endSession(ctx: AppContext, hash: string): Promise<void> {
  memoOf(ctx).forget(hash);
  await ctx.db.db.deleteFrom('sessions').where('token_hash', '=', hash).execute();
}

/** Ends every session of a user and drops their live connections at once. */
export async function endUserSessions(ctx: AppContext, userId: string): Promise<void> {
  memoOf(ctx).forgetUser(userId);
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
