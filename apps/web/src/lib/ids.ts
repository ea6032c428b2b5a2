/**
 * Ids made in the browser: idempotency keys, attempt keys. `crypto.randomUUID` exists only in
 * secure contexts (https or localhost); the waiters' phones open the app over plain http on the
 * bar's LAN, so the fallback builds a version-4 UUID from `crypto.getRandomValues`, which every
 * context has. The only place in the web app allowed to call `crypto.randomUUID` (lint rule).
 */
export function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An Idempotency-Key for one attempt of a write, e.g. `card-…`; the prefix says what it was for. */
export function newIdempotencyKey(prefix: string): string {
  return `${prefix}-${newId()}`;
}
