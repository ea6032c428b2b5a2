import { PIN_SIGN_IN_ROLES, type Role, type SessionUser, type SharedDevicePerson } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { AppError, tooManyRequests } from '../../http/errors.ts';
import { randomToken, sha256 } from '../../http/ids.ts';
import { verifyPin } from '../../auth/verify-pin.ts';
import { PIN_LIMITS, pinKeys, waitPhrase } from '../../auth/throttle.ts';
import { SESSION_LIMITS } from '../../auth/sessions.ts';
import { DEVICE_MESSAGES, type DeviceRow } from './device-store.ts';
import type { AppContext } from '../../http/context.ts';
import type { WriteContext } from '../../http/request-context.ts';

export const PIN_LOGIN_PURPOSE = 'pin-login';

/** The people a shared device offers, by name: active staff with a PIN, never the admin. */
export async function devicePeople(ctx: AppContext, device: DeviceRow | null): Promise<SharedDevicePerson[]> {
  if (!device) return [];
  const rows = await ctx.db.db
    .selectFrom('users')
    .select(['id', 'display_name', 'role'])
    .where('active', '!=', 0)
    .where('pin_hash', 'is not', null)
    .where('role', 'in', [...PIN_SIGN_IN_ROLES])
    .orderBy('display_name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, displayName: r.display_name, role: r.role as SharedDevicePerson['role'] }));
}

/**
 * PIN sign-in on an enrolled shared device: the person is chosen by name and only their PIN is
 * checked; a normal session opens for them, marked with the device so revoking it ends the session.
 * The admin role is never reached by a PIN alone (the admin signs in with the password there).
 * Guesses count per device, per person (across every device), per address and against one budget
 * shared by every device ('pin-login'); a correct PIN never clears them. A session already open in
 * this browser ends first (switching user).
 */
export async function pinLogin(
  ctx: WriteContext,
  input: { device: DeviceRow | null; userId: string; pin: string; ip: string; previousSession: string | null },
): Promise<{ user: SessionUser; token: string }> {
  const device = input.device;
  if (!device) throw new AppError(403, 'device_not_enrolled', DEVICE_MESSAGES.notEnrolled);
  const person = await ctx.db.db.selectFrom('users').select(['display_name', 'role']).where('id', '=', input.userId).executeTakeFirst();
  if (person?.role === 'admin') throw new AppError(403, 'admin_pin_login', DEVICE_MESSAGES.adminByPassword);
  const personKey = pinKeys.person(input.userId);
  const found = await verifyPin(ctx, {
    pin: input.pin,
    actorId: null,
    userId: input.userId,
    roles: PIN_SIGN_IN_ROLES,
    ip: input.ip,
    purpose: PIN_LOGIN_PURPOSE,
    extraLimits: [
      [pinKeys.device(device.id), PIN_LIMITS.perDevice],
      [personKey, PIN_LIMITS.perPerson],
    ],
    auditData: { deviceId: device.id, userId: input.userId },
  }).catch(async (error: unknown) => {
    // A person whose PIN budget is spent is told so, and for how long (or to ask for 'Desbloquear').
    if (!(error instanceof AppError) || error.statusCode !== 429 || !person) throw error;
    const hits = await ctx.throttle.windowHits(personKey, PIN_LIMITS.perPerson.windowMs);
    if (hits.length < PIN_LIMITS.perPerson.limit) throw error;
    const until = hits[hits.length - PIN_LIMITS.perPerson.limit]! + PIN_LIMITS.perPerson.windowMs;
    throw tooManyRequests(DEVICE_MESSAGES.personLocked(person.display_name, waitPhrase(until - ctx.clock.now())));
  });
  return mutate(ctx, async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'email', 'display_name', 'role', 'active'])
      .where('id', '=', found.id)
      .executeTakeFirstOrThrow();
    const now = ctx.clock.now();
    if (input.previousSession) await trx.deleteFrom('sessions').where('token_hash', '=', input.previousSession).execute();
    const token = randomToken();
    await trx
      .insertInto('sessions')
      .values({
        token_hash: sha256(token),
        user_id: user.id,
        created_at: now,
        last_seen_at: now,
        expires_at: now + SESSION_LIMITS.absoluteMs,
        device_id: device.id,
      })
      .execute();
    await audit(trx, now, {
      actor: { id: user.id, displayName: user.display_name },
      action: 'auth.pin_login',
      entity: 'user',
      entityId: user.id,
      data: { deviceId: device.id, deviceName: device.name, ip: input.ip },
    });
    return { token, user: { id: user.id, email: user.email, displayName: user.display_name, role: user.role as Role } };
  });
}
