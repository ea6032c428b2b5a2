import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { badRequest } from '../../http/errors.ts';
import { hashPassword } from '../../auth/password.ts';
import { endUserSessions } from '../../auth/sessions.ts';
import { USER_MESSAGES } from '@comanda/contract';
import { consumeToken, findLiveToken } from './user-tokens.ts';
import type { WriteContext } from '../../http/request-context.ts';

const invalidLink = () => badRequest(USER_MESSAGES.invalidLink, 'invalid_token');

/** Sets the password from an e-mailed link: the link works once, and every old session ends. */
export async function setPasswordFromToken(ctx: WriteContext, token: string, password: string): Promise<void> {
  const live = await findLiveToken(ctx.db.db, token, ctx.clock.now());
  if (!live) throw invalidLink();
  // Hashing is slow on purpose; done before the transaction so it holds no lock meanwhile.
  const passwordHash = await hashPassword(password);
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    if (!(await consumeToken(trx, live.hash, now))) throw invalidLink();
    await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', live.userId).execute();
    await audit(trx, now, {
      actor: null,
      action: live.purpose === 'invite' ? 'user.password_created' : 'user.password_reset',
      entity: 'user',
      entityId: live.userId,
      data: { email: live.email },
    });
    emit({ topic: 'users', type: 'user.updated', id: live.userId, version: now });
  });
  await endUserSessions(ctx, live.userId);
}
