import { AsyncLocalStorage } from 'node:async_hooks';
import type { KeyRow, StoredResponse } from './idempotency.ts';

/** The Idempotency-Key of the request being handled, as mutate() needs it. */
export interface KeyedRequest {
  /** The stored key: the client's key scoped to user, method and route (see idempotent-routes.ts). */
  key: string;
  scope: string;
  hash: string;
  /**
   * open: no write yet; claiming: a mutate() holds the claim in its open transaction; claimed: it
   * committed; closed: the answer went out (work the request left running in the background must
   * not claim the key again).
   */
  state: 'open' | 'claiming' | 'claimed' | 'closed';
  /** What a repeat of the key is answered when the claim meets the first request's row. */
  repeat: (row: KeyRow) => StoredResponse;
}

const storage = new AsyncLocalStorage<KeyedRequest>();

/** Runs a route handler with its key visible to every mutate() it calls. */
export function runWithKey<T>(keyed: KeyedRequest, work: () => T): T {
  return storage.run(keyed, work);
}

export function currentKey(): KeyedRequest | undefined {
  return storage.getStore();
}
