import type { FastifyReply } from 'fastify';
import type { SharedDevice } from '@comanda/contract';
import type { AppContext } from '../../http/context.ts';
import type { SharedDevicesTable } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { sha256 } from '../../http/ids.ts';
import { MESSAGES } from '../../http/messages.ts';

export const DEVICE_COOKIE = 'comanda_device';
/** Over HTTPS the cookie has its own name, like the session's (see auth/sessions.ts). */
export const SECURE_DEVICE_COOKIE = '__Host-comanda_device';
const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;
const TOUCH_EVERY_MS = 60_000;

export const DEVICE_MESSAGES = MESSAGES.devices;

export type DeviceRow = SharedDevicesTable;

/** The device secret a request carries: the Secure cookie first (only sent over HTTPS), else the plain one. */
export function deviceSecret(cookies: Record<string, string | undefined>): string | undefined {
  return cookies[SECURE_DEVICE_COOKIE] ?? cookies[DEVICE_COOKIE];
}

/** The enrolled, non-revoked device behind a request's cookie, or null. Touches last_seen_at now and then. */
export async function resolveDevice(ctx: AppContext, cookies: Record<string, string | undefined>): Promise<DeviceRow | null> {
  const secret = deviceSecret(cookies);
  if (!secret || secret.length > 200) return null;
  const row = await ctx.db.db
    .selectFrom('shared_devices')
    .selectAll()
    .where('token_hash', '=', sha256(secret))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const now = ctx.clock.now();
  if (row.last_seen_at === null || now - Number(row.last_seen_at) > TOUCH_EVERY_MS) {
    await ctx.db.db.updateTable('shared_devices').set({ last_seen_at: now }).where('id', '=', row.id).execute();
    row.last_seen_at = now;
  }
  return row;
}

/** Devices with the display name of the admin who enrolled each. */
export function selectDevices(db: Trx) {
  return db
    .selectFrom('shared_devices')
    .leftJoin('users', 'users.id', 'shared_devices.created_by')
    .selectAll('shared_devices')
    .select('users.display_name as created_by_name');
}

export function presentDevice(row: DeviceRow & { created_by_name: string | null }, currentId: string | null): SharedDevice {
  return {
    id: row.id,
    name: row.name,
    createdBy: row.created_by_name ?? '',
    createdAt: Number(row.created_at),
    lastSeenAt: row.last_seen_at === null ? null : Number(row.last_seen_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    idleLockSeconds: Number(row.idle_lock_seconds),
    current: row.id === currentId,
  };
}

export function isSecure(setting: 'auto' | 'true' | 'false', protocol: string): boolean {
  if (setting === 'auto') return protocol === 'https';
  return setting === 'true';
}

export function setDeviceCookie(reply: FastifyReply, secret: string, secure: boolean): void {
  reply.setCookie(secure ? SECURE_DEVICE_COOKIE : DEVICE_COOKIE, secret, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
  });
}

export function clearDeviceCookie(reply: FastifyReply): void {
  reply.clearCookie(DEVICE_COOKIE, { path: '/' });
  reply.clearCookie(SECURE_DEVICE_COOKIE, { path: '/', secure: true });
}
