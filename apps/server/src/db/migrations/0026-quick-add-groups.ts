/**
 * History: `comanda_quick_add_many`, PostgreSQL's adds in groups (decision 0048), was made here. It lives in
 * db/functions/quick-add-many.ts now, made again by the migrator whenever its text changes; this step
 * stays, empty, so every database lists the same migrations.
 */
export function quickAddGroups() {
  return { up: (): Promise<void> => Promise.resolve() };
}
