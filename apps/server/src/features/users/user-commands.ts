import type { CreateUserBody, SessionUser, UpdateUserBody, User } from '@comanda/contract';
import { USER_MESSAGES } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { AppError } from '../../http/errors.ts';
import { newId } from '../../http/ids.ts';
import { endUserSessions } from '../../auth/sessions.ts';
import { assertEmailFree, assertPinFree, presentUser, requireUserRow, uniqueViolation } from './user-store.ts';
import { issueToken } from './user-tokens.ts';
import type { WriteContext } from '../../http/request-context.ts';

async function translatingUnique<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw uniqueViolation(error) ?? error;
  }
}

/** A real account without a password: the invitation link lets the person choose it. */
export function createUser(ctx: WriteContext, admin: SessionUser, body: CreateUserBody): Promise<{ user: User; token: string }> {
  const email = body.email.trim().toLowerCase();
  const pinHash = body.pin ? ctx.pins.hash(body.pin) : null;
  return translatingUnique(() =>
    mutate(ctx, async (trx, emit) => {
      await assertEmailFree(trx, email);
      if (pinHash) await assertPinFree(trx, pinHash, null);
      const now = ctx.clock.now();
      const row = {
        id: newId(),
        email,
        display_name: body.displayName,
        role: body.role,
        password_hash: null,
        pin_hash: pinHash,
        active: 1,
        created_at: now,
        updated_at: now,
      };
      await trx.insertInto('users').values(row).execute();
      const token = await issueToken(trx, row.id, 'invite', now);
      await audit(trx, now, {
        actor: admin,
        action: 'user.create',
        entity: 'user',
        entityId: row.id,
        data: { email, role: body.role, displayName: body.displayName, hasPin: pinHash !== null },
      });
      emit({ topic: 'users', type: 'user.created', id: row.id, version: now });
      return { user: presentUser(row), token };
    }),
  );
}

export function updateUser(ctx: WriteContext, admin: SessionUser, id: string, body: UpdateUserBody): Promise<User> {
  return translatingUnique(async () => {
    const user = await mutate(ctx, async (trx, emit) => {
      const before = await requireUserRow(trx, id);
      // An admin demoting themself could leave the business without anyone able to manage it.
      if (id === admin.id && body.role !== undefined && body.role !== before.role)
        throw new AppError(409, 'self_role', 'No puedes cambiar tu propio rol');
      const pinHash = body.pin === undefined ? undefined : body.pin === null ? null : ctx.pins.hash(body.pin);
      if (pinHash) await assertPinFree(trx, pinHash, id);
      const now = ctx.clock.now();
      const changes = {
        ...(body.displayName !== undefined ? { display_name: body.displayName } : {}),
        ...(body.role !== undefined ? { role: body.role } : {}),
        ...(pinHash !== undefined ? { pin_hash: pinHash } : {}),
        updated_at: now,
      };
      await trx.updateTable('users').set(changes).where('id', '=', id).execute();
      await audit(trx, now, {
        actor: admin,
        action: 'user.update',
        entity: 'user',
        entityId: id,
        data: { displayName: body.displayName, role: body.role, roleBefore: before.role, pinChanged: pinHash !== undefined },
      });
      emit({ topic: 'users', type: 'user.updated', id, version: now });
      return { user: presentUser({ ...before, ...changes }), roleChanged: body.role !== undefined && body.role !== before.role };
    });
    // A new role means new permissions: the person signs in again rather than keep stale screens.
    if (user.roleChanged) await endUserSessions(ctx, id);
    return user.user;
  });
}

export async function setUserActive(ctx: WriteContext, admin: SessionUser, id: string, active: boolean): Promise<User> {
  if (id === admin.id && !active) throw new AppError(409, 'self_deactivate', USER_MESSAGES.cannotDeactivateSelf);
  const user = await mutate(ctx, async (trx, emit) => {
    const before = await requireUserRow(trx, id);
    const now = ctx.clock.now();
    await trx
      .updateTable('users')
      .set({ active: active ? 1 : 0, updated_at: now })
      .where('id', '=', id)
      .execute();
    await audit(trx, now, {
      actor: admin,
      action: active ? 'user.activate' : 'user.deactivate',
      entity: 'user',
      entityId: id,
      data: { email: before.email },
    });
    emit({ topic: 'users', type: 'user.updated', id, version: now });
    return presentUser({ ...before, active: active ? 1 : 0, updated_at: now });
  });
  // After commit, so a rolled-back change never logs anyone out.
  if (!active) await endUserSessions(ctx, id);
  return user;
}

export function requestPasswordReset(ctx: WriteContext, admin: SessionUser, id: string): Promise<{ user: User; token: string }> {
  return mutate(ctx, async (trx) => {
    const row = await requireUserRow(trx, id);
    const now = ctx.clock.now();
    const token = await issueToken(trx, id, 'reset', now);
    await audit(trx, now, {
      actor: admin,
      action: 'user.reset_requested',
      entity: 'user',
      entityId: id,
      data: { email: row.email },
    });
    return { user: presentUser(row), token };
  });
}
