import { sql } from 'kysely';
import type { AppContext } from '../../http/context.ts';
import { PacError, type Pac } from '../../invoicing/pac.ts';
import { backoff } from '../../model/invoicing/receipt-queue.ts';
import { syncReceipt } from './global-invoice.ts';
import { invoiceTiming } from './invoice-store.ts';

/**
 * A customer who invoices a receipt at the PAC's self-invoice page is seen here without waiting
 * for the next global: the open receipts' states are read again from the PAC (GET
 * /v2/receipts/{id}; the bar's server cannot receive the PAC's webhooks from its LAN), a few per
 * round, the ones read longest ago first, so every open receipt comes round in turn. While the
 * PAC is down the sync waits a back-off that grows up to the queue's longest.
 */
export const SYNC_BATCH = 20;
const SERVICE = 'invoicing-sync';

interface SyncState {
  failures: number;
  nextAt: number;
}

function stateOf(ctx: AppContext): SyncState {
  let state = ctx.services.get(SERVICE) as SyncState | undefined;
  if (!state) {
    state = { failures: 0, nextAt: 0 };
    ctx.services.set(SERVICE, state);
  }
  return state;
}

export interface SyncResult {
  checked: number;
  changed: number;
  /** The PAC did not answer: the rest waits until then (epoch ms). */
  waitUntil: number | null;
}

/** One round of the sync: at most `limit` open receipts read from the PAC; none while its back-off lasts. */
export async function syncOpenReceipts(ctx: AppContext, pac: Pac, limit = SYNC_BATCH): Promise<SyncResult> {
  const state = stateOf(ctx);
  const now = ctx.clock.now();
  if (now < state.nextAt) return { checked: 0, changed: 0, waitUntil: state.nextAt };
  const rows = await ctx.db.db
    .selectFrom('invoice_receipts')
    .select('order_id')
    .where('state', '=', 'emitido')
    .where('pac_receipt_id', 'is not', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy(sql`coalesce(synced_at, 0)`)
    .orderBy('folio')
    .limit(limit)
    .execute();
  const result: SyncResult = { checked: 0, changed: 0, waitUntil: null };
  for (const { order_id } of rows) {
    try {
      if (await syncReceipt(ctx, pac, order_id)) result.changed += 1;
      result.checked += 1;
    } catch (error) {
      if (error instanceof PacError && !error.retryable) {
        // The PAC refused this one (gone from its records): the next round reads the others first.
        await ctx.db.db.updateTable('invoice_receipts').set({ synced_at: ctx.clock.now() }).where('order_id', '=', order_id).execute();
        result.checked += 1;
        continue;
      }
      state.failures += 1;
      state.nextAt = ctx.clock.now() + backoff(state.failures, invoiceTiming(ctx));
      result.waitUntil = state.nextAt;
      return result;
    }
  }
  state.failures = 0;
  state.nextAt = 0;
  return result;
}
