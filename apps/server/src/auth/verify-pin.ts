import type { Role } from '@comanda/contract';
import { isValidPin, PIN_MESSAGES } from '@comanda/domain';
import type { AppContext } from '../http/context.ts';
import { AppError, tooManyRequests } from '../http/errors.ts';
import { audit } from '../http/audit.ts';
import { PIN_LIMITS } from './throttle.ts';

export interface PinUser {
  id: string;
  displayName: string;
  role: Role;
}

/**
 * Identifies the active user a PIN belongs to (the spec's "PIN identifies a user").
 * Failures are throttled per signed-in user and per address, and audited.
 */
export async function verifyPin(ctx: AppContext, input: { pin: string; actorId: string; ip: string; purpose: string }): Promise<PinUser> {
  const userKey = `pin:user:${input.actorId}`;
  const ipKey = `pin:ip:${input.ip}`;
  const { perUser, perAddress } = PIN_LIMITS;
  if (
    ctx.throttle.isBlocked(userKey, perUser.limit, perUser.windowMs) ||
    ctx.throttle.isBlocked(ipKey, perAddress.limit, perAddress.windowMs)
  ) {
    throw tooManyRequests();
  }
  const user = isValidPin(input.pin)
    ? await ctx.db.db
        .selectFrom('users')
        .select(['id', 'display_name', 'role', 'active'])
        .where('pin_hash', '=', ctx.pins.hash(input.pin))
        .executeTakeFirst()
    : undefined;
  if (!user || user.active === 0) {
    ctx.throttle.fail(userKey);
    ctx.throttle.fail(ipKey);
    await audit(ctx.db.db, ctx.clock.now(), {
      actor: { id: input.actorId, displayName: '' },
      action: 'pin.failed',
      entity: 'pin',
      entityId: null,
      data: { purpose: input.purpose, ip: input.ip },
    });
    throw new AppError(403, 'wrong_pin', PIN_MESSAGES.wrong);
  }
  ctx.throttle.reset(userKey);
  return { id: user.id, displayName: user.display_name, role: user.role };
}
