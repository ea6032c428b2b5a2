/**
 * History: `comanda_pin_attempt`, PostgreSQL's PIN attempt in one round trip (decision 0044), was made here. It lives in
 * db/functions/pin-attempt.ts now, made again by the migrator whenever its text changes; this step
 * stays, empty, so every database lists the same migrations.
 */
export function pinAttempt() {
  return { up: (): Promise<void> => Promise.resolve() };
}
