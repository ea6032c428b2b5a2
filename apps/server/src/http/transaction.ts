import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AppContext } from './context.ts';
import type { LiveEventDraft, TableLiveCard } from '@comanda/contract';
import { attachTableCards } from './table-live-cards.ts';
import { claimKey, IdempotentReplay } from './idempotency.ts';
import type { KeyedRequest, WriteContext } from './request-context.ts';
import { transact } from '../db/transact.ts';

/** An event to publish after commit; its topic and type must be ones the contract lists (live-events.ts). */
export type EmitEvent = LiveEventDraft & {
  owner?: string | null;
  table?: TableLiveCard;
  /** On a table-level 'tables' event: the change touched only this waiter's orders (TableLiveCard.changedOrdersOf). */
  changedOrdersOf?: string | null;
};
export type Emit = (event: EmitEvent) => void;
export type { Trx } from '../db/trx.ts';

/**
 * Runs one mutation in one transaction and publishes its live events only after commit,
 * so no screen ever sees a change that was rolled back. A table-level event on 'tables' leaves
 * with the table's public state (table-live-cards.ts), so phones patch that card.
 *
 * When the request carries an Idempotency-Key (ctx.keyed, handed from its route handler), its
 * first mutate() claims the key inside the same transaction: the write and the claim commit
 * together or not at all, so a repeat of the key can never write twice (decisions 0009, 0047).
 */
export async function mutate<T>(ctx: WriteContext, work: (trx: Transaction<Database>, emit: Emit) => Promise<T>): Promise<T> {
  const events: EmitEvent[] = [];
  const result = await claimingKey(ctx, (claim) =>
    transact(ctx.db, async (trx) => {
      if (claim) {
        const stored = await claimKey(trx, {
          key: claim.key,
          scope: claim.scope,
          hash: claim.hash,
          now: ctx.clock.now(),
          repeat: claim.repeat,
        });
        // A twin committed while this request waited on the key: answer what it answered.
        if (stored) throw new IdempotentReplay(stored);
      }
      const out = await work(trx, (e) => events.push(e));
      // Table-level events carry the table's public state, read as this transaction leaves it.
      await attachTableCards(trx, events);
      return out;
    }),
  );
  publishEvents(ctx, events);
  return result;
}

/**
 * A keyed request answered without writing anything (a menu sheet that could not be read, a cancel
 * of a card payment already over): there is no claim to keep, and a repeat runs again and answers
 * the same. Marks the key so, for the suites' check that refuses a keyed write answered unclaimed.
 */
export function answeredWithoutWrite(ctx: WriteContext): void {
  if (ctx.keyed?.state === 'open') ctx.keyed.state = 'closed';
}

/**
 * Runs `write` with the request's Idempotency-Key when it is still to be claimed (else null), the
 * key marked as being claimed meanwhile: claimed once `write` returns (its claim committed with it),
 * open again when it throws (rolled back with the claim: a later write of this request may claim),
 * closed when its claim met the key's first request (the request answers that request's answer).
 */
export async function claimingKey<T>(ctx: WriteContext, write: (claim: KeyedRequest | null) => Promise<T>): Promise<T> {
  const keyed = ctx.keyed;
  const claim = keyed?.state === 'open' ? keyed : null;
  if (claim) claim.state = 'claiming';
  let result: T;
  try {
    result = await write(claim);
  } catch (error) {
    // A repeat of a key already claimed is answered the first answer: nothing more may claim it.
    if (claim) claim.state = error instanceof IdempotentReplay ? 'closed' : 'open';
    throw error;
  }
  if (claim) claim.state = 'claimed';
  return result;
}

/** Publishes a committed write's events, all stamped with one time. */
export function publishEvents(ctx: AppContext, events: readonly EmitEvent[]): void {
  const at = ctx.clock.now();
  for (const e of events) ctx.live.publish({ ...e, at });
}
