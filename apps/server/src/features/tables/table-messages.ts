export const TABLE_MESSAGES = {
  notFound: 'Mesa no encontrada',
  openFailed: 'No se pudo abrir la mesa. Intenta de nuevo.',
  numberTaken: 'Ya existe una mesa con ese número',
  hasActiveOrder: 'No se puede eliminar una mesa con una orden activa',
  alreadyFree: 'La mesa ya está libre',
  releaseHasOrder: 'La mesa tiene una orden activa: cóbrala antes de liberar la mesa',
} as const;

/** SQLite and PostgreSQL report a broken unique constraint differently. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
