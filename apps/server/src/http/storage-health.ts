import type { AppContext } from './context.ts';
import { MESSAGES } from './messages.ts';
import type { StorageProblem } from '../db/unavailable.ts';

/**
 * The last time the disk refused the data (full, read-only, failing), for /api/health: the server
 * answers reads while the disk is full, so its health says "degraded" with the reason and when,
 * until a later write succeeds.
 */
const KEY = 'http.storage-health';

interface State {
  failure: { at: number; problem: StorageProblem; code: string } | null;
}

function stateOf(ctx: AppContext): State {
  let state = ctx.services.get(KEY) as State | undefined;
  if (!state) ctx.services.set(KEY, (state = { failure: null }));
  return state;
}

/** A request failed because the disk refused it (error-handler.ts). */
export function noteStorageFailure(ctx: AppContext, problem: StorageProblem, code: string): void {
  stateOf(ctx).failure = { at: ctx.clock.now(), problem, code };
}

/** A write request succeeded after the failure: the disk takes data again. */
export function noteWriteSucceeded(ctx: AppContext): void {
  const state = ctx.services.get(KEY) as State | undefined;
  if (state?.failure) state.failure = null;
}

export interface StorageHealth {
  state: 'ok' | 'degraded';
  /** The last write the disk refused since the last one it took: Spanish reason, code, when (ms). */
  lastWriteFailure: { reason: string; code: string; at: number } | null;
}

export function storageHealth(ctx: AppContext): StorageHealth {
  const failure = (ctx.services.get(KEY) as State | undefined)?.failure;
  if (!failure) return { state: 'ok', lastWriteFailure: null };
  return { state: 'degraded', lastWriteFailure: { reason: MESSAGES.storage[failure.problem], code: failure.code, at: failure.at } };
}
