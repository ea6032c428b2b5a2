/**
 * History: `comanda_quick_add`, PostgreSQL's one-statement add (decision 0042), was made here. It lives in
 * db/functions/quick-add.ts now, made again by the migrator whenever its text changes; this step
 * stays, empty, so every database lists the same migrations.
 */
export function quickAdd() {
  return { up: (): Promise<void> => Promise.resolve() };
}
