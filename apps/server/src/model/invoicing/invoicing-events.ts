import type { AppContext } from '../../http/context.ts';

/**
 * Tells the admins' screens (Facturación, a ticket's invoice section) that a receipt, an invoice
 * or a global changed, after the change committed: they read again instead of polling. `orderId`
 * names the ticket when the change was one ticket's.
 */
export function publishInvoicingChanged(ctx: Pick<AppContext, 'live' | 'clock'>, orderId?: string): void {
  ctx.live.publish({ topic: 'invoicing', type: 'invoicing.changed', ...(orderId ? { id: orderId } : {}), at: ctx.clock.now() });
}
