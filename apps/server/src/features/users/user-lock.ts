import type { SessionUser, User, UserLock } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { LOGIN_BACKOFF, PIN_LIMITS, loginKeys, pinKeys, type ThrottleDb } from '../../auth/throttle.ts';
import { presentUser, requireUserRow } from './user-store.ts';
import type { AppContext } from '../../http/context.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * The account's sign-in lock as the admin sees it: the account's own back-off, the longest of
 * its account+address pairs once it has reached its threshold, or its PIN sign-in budget on the
 * shared devices once spent. The throttle lives in the database (see auth/throttle.ts): every
 * server process shows and lifts the same lock.
 */
export async function userLock(ctx: AppContext, user: { id: string; email: string }, db?: ThrottleDb): Promise<UserLock | null> {
  const { email } = user;
  const pairs = await ctx.throttle.keys(loginKeys.pairsOf(email), db);
  const states = [
    { state: await ctx.throttle.backoffState(loginKeys.account(email), LOGIN_BACKOFF.account, db), rule: LOGIN_BACKOFF.account },
    ...(await Promise.all(
      pairs.map(async (key) => ({ state: await ctx.throttle.backoffState(key, LOGIN_BACKOFF.pair, db), rule: LOGIN_BACKOFF.pair })),
    )),
  ];
  let lock: UserLock | null = null;
  for (const { state, rule } of states) {
    if (!state || state.failures < rule.threshold) continue;
    if (!lock || state.until > lock.until) lock = { until: state.until, failures: state.failures };
  }
  const { limit, windowMs } = PIN_LIMITS.perPerson;
  const pinHits = await ctx.throttle.windowHits(pinKeys.person(user.id), windowMs, db);
  if (pinHits.length >= limit) {
    // Locked until enough failures leave the window to fall below the limit.
    const until = pinHits[pinHits.length - limit]! + windowMs;
    if (!lock || until > lock.until) lock = { until, failures: pinHits.length };
  }
  return lock;
}

export async function withLock(ctx: AppContext, user: User): Promise<User> {
  return { ...user, lock: await userLock(ctx, user) };
}

/**
 * 'Desbloquear': forgets the account's sign-in failures (from every address) and its PIN
 * failures (as the one asking and as the person signing in on a shared device), so the next
 * correct password or PIN works at once. Audited with what was lifted.
 */
export async function unlockUser(ctx: WriteContext, admin: SessionUser, id: string): Promise<User> {
  return mutate(ctx, async (trx, emit) => {
    const row = await requireUserRow(trx, id);
    const lifted = await userLock(ctx, row, trx);
    await ctx.throttle.reset(loginKeys.account(row.email), trx);
    await ctx.throttle.resetPrefix(loginKeys.pairsOf(row.email), trx);
    await ctx.throttle.reset(pinKeys.user(row.id), trx);
    await ctx.throttle.reset(pinKeys.person(row.id), trx);
    const now = ctx.clock.now();
    await audit(trx, now, {
      actor: admin,
      action: 'user.unlocked',
      entity: 'user',
      entityId: row.id,
      data: { email: row.email, lock: lifted },
    });
    emit({ topic: 'users', type: 'user.updated', id: row.id, version: now });
    return { ...presentUser(row), lock: null };
  });
}
