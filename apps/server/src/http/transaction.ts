import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AppContext } from './context.ts';
import type { HubEvent } from '../live/hub.ts';

export type Emit = (event: Omit<HubEvent, 'at'>) => void;
export type Trx = Transaction<Database> | Kysely<Database>;

/**
 * Runs one mutation in one transaction and publishes its live events only after commit,
 * so no screen ever sees a change that was rolled back.
 */
export async function mutate<T>(ctx: AppContext, work: (trx: Transaction<Database>, emit: Emit) => Promise<T>): Promise<T> {
  const events: Omit<HubEvent, 'at'>[] = [];
  const result = await ctx.db.db.transaction().execute((trx) => work(trx, (e) => events.push(e)));
  const at = ctx.clock.now();
  for (const e of events) ctx.live.publish({ ...e, at });
  return result;
}
