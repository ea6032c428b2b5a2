import { MESSAGES } from '../../http/messages.ts';
export const TABLE_MESSAGES = MESSAGES.tables;

/** SQLite and PostgreSQL report a broken unique constraint differently. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
