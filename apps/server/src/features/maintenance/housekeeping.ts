import type { AppContext } from '../../http/context.ts';
import { SESSION_LIMITS } from '../../auth/sessions.ts';
import { pruneThrottles } from '../../auth/throttle.ts';

const EVERY_MS = 60 * 60_000;
/** A retry of a payment arrives within seconds or minutes; a week is far beyond any client's retry. */
export const IDEMPOTENCY_KEEP_MS = 7 * 24 * 60 * 60_000;

/**
 * Deletes what has no further use: expired sessions and one-time links, idempotency keys
 * past any retry window, and sign-in/PIN throttle rows past every window (auth/throttle.ts). Nothing of an order, a payment or the audit log is ever touched.
 */
export async function sweep(ctx: AppContext): Promise<{ sessions: number; tokens: number; keys: number }> {
  const now = ctx.clock.now();
  const { db } = ctx.db;
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', now - SESSION_LIMITS.idleMs)]))
    .executeTakeFirst();
  const tokens = await db.deleteFrom('user_tokens').where('expires_at', '<=', now).executeTakeFirst();
  const keys = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<=', now - IDEMPOTENCY_KEEP_MS)
    .executeTakeFirst();
  await pruneThrottles(db, now);
  return { sessions: Number(sessions.numDeletedRows), tokens: Number(tokens.numDeletedRows), keys: Number(keys.numDeletedRows) };
}

const timers = new WeakMap<AppContext, ReturnType<typeof setInterval>>();

export async function startHousekeeping(ctx: AppContext): Promise<void> {
  await sweep(ctx).catch(() => undefined);
  const timer = setInterval(() => void sweep(ctx).catch(() => undefined), EVERY_MS);
  timer.unref();
  timers.set(ctx, timer);
}

export async function stopHousekeeping(ctx: AppContext): Promise<void> {
  const timer = timers.get(ctx);
  if (timer) clearInterval(timer);
}
