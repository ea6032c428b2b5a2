import type { EnrollSharedDeviceBody, SessionUser, SharedDevice } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { AppError, conflict } from '../../http/errors.ts';
import { newId, randomToken, sha256 } from '../../http/ids.ts';
import { DEVICE_MESSAGES, presentDevice, selectDevices, type DeviceRow } from './device-store.ts';
import type { WriteContext } from '../../http/request-context.ts';

/** Enrolls the admin's browser as a shared device; answers the device and the secret for its cookie. */
export function enrollDevice(
  ctx: WriteContext,
  admin: SessionUser,
  body: EnrollSharedDeviceBody,
  current: DeviceRow | null,
): Promise<{ device: SharedDevice; secret: string }> {
  if (current) throw conflict(DEVICE_MESSAGES.alreadyEnrolled, 'device_already_enrolled');
  return mutate(ctx, async (trx) => {
    const now = ctx.clock.now();
    const secret = randomToken();
    const row: DeviceRow = {
      id: newId(),
      name: body.name.trim(),
      token_hash: sha256(secret),
      created_by: admin.id,
      created_at: now,
      last_seen_at: now,
      revoked_at: null,
      idle_lock_seconds: body.idleLockSeconds,
    };
    await trx.insertInto('shared_devices').values(row).execute();
    await audit(trx, now, {
      actor: admin,
      action: 'device.enrolled',
      entity: 'shared_device',
      entityId: row.id,
      data: { name: row.name, idleLockSeconds: row.idle_lock_seconds },
    });
    return { device: presentDevice({ ...row, created_by_name: admin.displayName }, row.id), secret };
  });
}

/**
 * Revokes a device: its PIN sign-in stops at once and the sessions it opened end, all but the
 * revoking admin's own (an admin revoking the tablet they stand at stays signed in there).
 */
export function revokeDevice(
  ctx: WriteContext,
  admin: SessionUser,
  input: { id: string; currentId: string | null; ownSession: string | null },
): Promise<SharedDevice> {
  const { id, currentId } = input;
  return mutate(ctx, async (trx) => {
    const row = await selectDevices(trx).where('shared_devices.id', '=', id).executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found', DEVICE_MESSAGES.notFound);
    if (row.revoked_at !== null) throw conflict(DEVICE_MESSAGES.alreadyRevoked, 'device_revoked');
    const now = ctx.clock.now();
    await trx.updateTable('shared_devices').set({ revoked_at: now }).where('id', '=', id).execute();
    let ending = trx.deleteFrom('sessions').where('device_id', '=', id);
    if (input.ownSession) ending = ending.where('token_hash', '!=', input.ownSession);
    const ended = await ending.executeTakeFirst();
    await audit(trx, now, {
      actor: admin,
      action: 'device.revoked',
      entity: 'shared_device',
      entityId: id,
      data: { name: row.name, sessionsEnded: Number(ended.numDeletedRows) },
    });
    return presentDevice({ ...row, revoked_at: now }, currentId);
  });
}
