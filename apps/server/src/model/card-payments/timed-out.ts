import type { AppContext } from '../../http/context.ts';
import { cardGateway } from './card-gateway.ts';
import { findCardPayment, isLive } from './card-payment-store.ts';

/**
 * Asks the provider about the order's attempts whose dialog timed out: a late approval closes
 * the order, a dead one frees it, one still queued is taken off the terminal. True when one is
 * still (or may still be) on the terminal, so the order must stay frozen and uncharged.
 */
export async function reconcileTimedOut(ctx: AppContext, orderId: string): Promise<boolean> {
  const rows = await ctx.db.db
    .selectFrom('card_payments')
    .select('id')
    .where('order_id', '=', orderId)
    .where('state', '=', 'timeout')
    .execute();
  if (rows.length === 0) return false;
  const gw = cardGateway(ctx);
  let stillThere = false;
  for (const row of rows) {
    try {
      await gw.driver.reconcile(row.id);
      const now = await findCardPayment(ctx.db.db, row.id);
      if (now && isLive(now.state) && now.provider_id) {
        await gw.driver.cancelAtProvider(now.terminal_id, now.provider_id, now.id);
        await gw.driver.reconcile(row.id);
      }
    } catch {
      // The provider could not confirm it: it stays timed out, and live.
    }
    const after = await findCardPayment(ctx.db.db, row.id);
    if (after?.state === 'timeout') stillThere = true;
  }
  return stillThere;
}
