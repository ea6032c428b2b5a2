/**
 * History: `comanda_add_rollups`, PostgreSQL's rollups in one call (decision 0043), was made here. It lives in
 * db/functions/add-rollups.ts now, made again by the migrator whenever its text changes; this step
 * stays, empty, so every database lists the same migrations.
 */
export function rollupFunction() {
  return { up: (): Promise<void> => Promise.resolve() };
}
