import { ROLES, type Role, type SessionUser } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { AppError } from '../../http/errors.ts';
import { randomToken, sha256 } from '../../http/ids.ts';
import { verifyPin } from '../../auth/verify-pin.ts';
import { PIN_LIMITS, pinKeys } from '../../auth/throttle.ts';
import { SESSION_LIMITS } from '../../auth/sessions.ts';
import { DEVICE_MESSAGES, type DeviceRow } from './device-store.ts';
import { MESSAGES } from '../../http/messages.ts';
import type { WriteContext } from '../../http/request-context.ts';

export const PIN_LOGIN_PURPOSE = 'pin-login';

/**
 * PIN sign-in on an enrolled shared device: the PIN identifies an active user (verifyPin's lookup),
 * and a normal session opens for them, marked with the device so revoking it ends the session.
 * Guesses count per device, per address and against one budget shared by every device
 * ('pin-login'); a correct PIN never clears them. A session already open in this browser ends
 * first (switching user).
 */
export async function pinLogin(
  ctx: WriteContext,
  input: { device: DeviceRow | null; pin: string; ip: string; previousSession: string | null },
): Promise<{ user: SessionUser; token: string }> {
  const device = input.device;
  if (!device) throw new AppError(403, 'device_not_enrolled', DEVICE_MESSAGES.notEnrolled);
  const found = await verifyPin(ctx, {
    pin: input.pin,
    actorId: null,
    ip: input.ip,
    purpose: PIN_LOGIN_PURPOSE,
    extraLimits: [[pinKeys.device(device.id), PIN_LIMITS.perDevice]],
    auditData: { deviceId: device.id },
  });
  if (!(ROLES as readonly string[]).includes(found.role)) throw new AppError(403, 'unknown_role', MESSAGES.session.unknownRole);
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
