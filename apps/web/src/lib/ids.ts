import { v7 } from 'uuid';

/**
 * Ids made in the browser: idempotency keys, attempt keys, outbox entries. Version-7 UUIDs: the
 * time they were made, then random bits from `crypto.getRandomValues`, which every context has
 * (`crypto.randomUUID` exists only over https or on localhost, and the waiters' phones open the
 * app over plain http on the bar's LAN). The server stores a time-ordered key behind its time.
 */
export function newId(): string {
  return v7();
}

/** An Idempotency-Key for one attempt of a write, e.g. `card-…`; the prefix says what it was for. */
export function newIdempotencyKey(prefix: string): string {
  return `${prefix}-${newId()}`;
}
