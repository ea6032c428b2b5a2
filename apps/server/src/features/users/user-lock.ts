import type { SessionUser, User, UserLock } from '@comanda/contract';
import type { AppContext } from '../../http/context.ts';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { LOGIN_BACKOFF, loginKeys, pinKeys } from '../../auth/throttle.ts';
import { presentUser, requireUserRow } from './user-store.ts';

/**
 * The account's sign-in back-off as the admin sees it: the account's own, or the longest of
 * its account+address pairs, once it has reached its threshold. The throttle lives in this
 * process's memory (see auth/throttle.ts): with several processes each shows and lifts its own.
 */
export function userLock(ctx: AppContext, email: string): UserLock | null {
  const states = [
    { state: ctx.throttle.backoffState(loginKeys.account(email), LOGIN_BACKOFF.account), rule: LOGIN_BACKOFF.account },
    ...ctx.throttle
      .keys(loginKeys.pairsOf(email))
      .map((key) => ({ state: ctx.throttle.backoffState(key, LOGIN_BACKOFF.pair), rule: LOGIN_BACKOFF.pair })),
  ];
  let lock: UserLock | null = null;
  for (const { state, rule } of states) {
    if (!state || state.failures < rule.threshold) continue;
    if (!lock || state.until > lock.until) lock = { until: state.until, failures: state.failures };
  }
  return lock;
}

export function withLock(ctx: AppContext, user: User): User {
  return { ...user, lock: userLock(ctx, user.email) };
}

/**
 * 'Desbloquear': forgets the account's sign-in failures (from every address) and its PIN
 * failures, so the next correct password or PIN works at once. Audited with what was lifted.
 */
export async function unlockUser(ctx: AppContext, admin: SessionUser, id: string): Promise<User> {
  return mutate(ctx, async (trx, emit) => {
    const row = await requireUserRow(trx, id);
    const lifted = userLock(ctx, row.email);
    ctx.throttle.reset(loginKeys.account(row.email));
    ctx.throttle.resetPrefix(loginKeys.pairsOf(row.email));
    ctx.throttle.reset(pinKeys.user(row.id));
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
