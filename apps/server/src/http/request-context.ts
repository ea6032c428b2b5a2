import type { AppContext } from './context.ts';
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

/**
 * The context a write runs with: the app's context and the key of the request it serves (null for
 * a request without one and for work no request asked for, like the card poller). Route handlers
 * hand `request.ctx` to their commands; a command that writes takes a WriteContext, so a handler
 * cannot hand it the app's bare context and lose its key (docs/decisions/0047-the-key-handed-to-the-write.md).
 */
export interface WriteContext extends AppContext {
  readonly keyed: KeyedRequest | null;
}

const unkeyed = new WeakMap<AppContext, WriteContext>();

/** The write context of work no keyed request asked for (one per app context, made once). */
export function withoutKey(ctx: AppContext): WriteContext {
  let scoped = unkeyed.get(ctx);
  if (!scoped) {
    scoped = Object.assign(Object.create(ctx) as AppContext, { keyed: null });
    unkeyed.set(ctx, scoped);
  }
  return scoped;
}

/** The write context of a request that carries a key: the app's context, seen through, with its key. */
export function withKey(ctx: AppContext, keyed: KeyedRequest): WriteContext {
  return Object.assign(Object.create(ctx) as AppContext, { keyed });
}
