import type { Role, User } from '@comanda/contract';
import type { UserRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { USER_MESSAGES } from '@comanda/contract';
import { MESSAGES } from '../../http/messages.ts';

export const USER_NOT_FOUND = MESSAGES.notFound.user;

const byName = new Intl.Collator('es-MX', { sensitivity: 'base' });

export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    role: row.role as Role,
    active: row.active !== 0,
    hasPin: row.pin_hash !== null,
    hasPassword: row.password_hash !== null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export async function listUsers(db: Trx): Promise<User[]> {
  const rows = await db.selectFrom('users').selectAll().execute();
  return rows.map(presentUser).sort((a, b) => byName.compare(a.displayName, b.displayName) || a.email.localeCompare(b.email));
}

export async function requireUserRow(db: Trx, id: string): Promise<UserRow> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(USER_NOT_FOUND);
  return row;
}

/** Checked before writing for a clear message; the unique indexes still decide a race. */
export async function assertEmailFree(db: Trx, email: string): Promise<void> {
  const taken = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (taken) throw new AppError(409, 'email_taken', USER_MESSAGES.emailTaken);
}

export async function assertPinFree(db: Trx, pinHash: string, exceptUserId: string | null): Promise<void> {
  let query = db.selectFrom('users').select('id').where('pin_hash', '=', pinHash);
  if (exceptUserId) query = query.where('id', '!=', exceptUserId);
  if (await query.executeTakeFirst()) throw new AppError(409, 'pin_taken', USER_MESSAGES.pinTaken);
}

/** Maps a unique-index violation (SQLite or PostgreSQL) that lost a race to the same 409s. */
export function uniqueViolation(error: unknown): AppError | null {
  const e = error as { code?: string; message?: string; constraint?: string; detail?: string };
  const isUnique = e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE';
  if (!isUnique) return null;
  const where = `${e.constraint ?? ''} ${e.detail ?? ''} ${e.message ?? ''}`;
  if (/pin_hash/.test(where)) return new AppError(409, 'pin_taken', USER_MESSAGES.pinTaken);
  if (/email/.test(where)) return new AppError(409, 'email_taken', USER_MESSAGES.emailTaken);
  return null;
}
