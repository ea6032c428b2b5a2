/**
 * History: `comanda_quick_delete`, PostgreSQL's one-statement delete with PIN (decision 0049), was made here. It lives in
 * db/functions/quick-delete.ts now, made again by the migrator whenever its text changes; this step
 * stays, empty, so every database lists the same migrations.
 */
export function quickDelete() {
  return { up: (): Promise<void> => Promise.resolve() };
}
