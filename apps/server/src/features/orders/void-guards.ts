import type { SessionUser } from '@comanda/contract';
import { VOID_MESSAGES } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import type { Trx } from '../../http/transaction.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { verifyPin, type PinUser } from '../../auth/verify-pin.ts';
import { matchVoidReason } from '../../model/voids/void-reasons.ts';
import { requireOrderToEdit, thawTimedOut } from '../../model/orders/order-guards.ts';

/** What a void or a cancellation carries besides its subject: the optional admin PIN and where it came from. */
export interface VoidRequest {
  orderId: string;
  note?: string | null | undefined;
  pin?: string | undefined;
  ip: string;
  sessionHash?: string | null;
}

/**
 * Before the transaction of a void or a cancellation: the order exists and this user may work
 * it, the admin PIN (when typed) is checked, and a freeze left by a card charge that timed out
 * is lifted. Returns the authorising admin, or null.
 */
export async function beginVoid(ctx: AppContext, user: SessionUser, input: VoidRequest, purpose: string): Promise<PinUser | null> {
  const { timedOut } = await requireOrderToEdit(ctx, user, input.orderId);
  const authorizer = await optionalAdminPin(ctx, user, { ...input, purpose });
  if (timedOut) await thawTimedOut(ctx, input.orderId);
  return authorizer;
}

/**
 * An admin's PIN, when one was typed (voids and cancellations). Only an admin's PIN authorises;
 * another user's PIN is answered exactly like a wrong one, as the SPEC delete does.
 */
export async function optionalAdminPin(
  ctx: AppContext,
  user: SessionUser,
  input: { pin?: string | undefined; ip: string; sessionHash?: string | null; purpose: string },
): Promise<PinUser | null> {
  if (input.pin === undefined || input.pin === '') return null;
  return verifyPin(ctx, {
    pin: input.pin,
    actorId: user.id,
    sessionHash: input.sessionHash ?? null,
    ip: input.ip,
    purpose: input.purpose,
    roles: ['admin'],
    ownPinRefused: new AppError(403, 'not_admin_pin', VOID_MESSAGES.notAdminPin),
  });
}

export const pinRequired = (message: string) => new AppError(403, 'pin_required', message);

/** The reason as listed in Configuración, or a 400 when it is missing or not on the list. */
export async function listedReason(trx: Trx, reason: string | undefined): Promise<string> {
  if (!reason?.trim()) throw badRequest(VOID_MESSAGES.reasonRequired, 'reason_required');
  const listed = await matchVoidReason(trx, reason);
  if (!listed) throw badRequest(VOID_MESSAGES.reasonUnknown, 'reason_unknown');
  return listed;
}
