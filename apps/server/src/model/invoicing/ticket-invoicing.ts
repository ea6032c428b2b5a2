import type { TicketInvoicing } from '@comanda/contract';
import type { Trx } from '../../http/transaction.ts';

/** The CFDI state of each of these tickets that has one (a receipt row other than 'sin_importe'). */
export async function ticketInvoicing(db: Trx, orderIds: readonly string[]): Promise<Map<string, TicketInvoicing>> {
  if (!orderIds.length) return new Map();
  const rows = await db
    .selectFrom('invoice_receipts')
    .select(['order_id', 'state', 'self_invoice_url', 'receipt_key', 'expires_at', 'last_error'])
    .where('order_id', 'in', orderIds)
    .where('state', '!=', 'sin_importe')
    .execute();
  return new Map(
    rows.map((r) => [
      r.order_id,
      {
        state: r.state as TicketInvoicing['state'],
        selfInvoiceUrl: r.self_invoice_url,
        receiptKey: r.receipt_key,
        expiresAt: r.expires_at === null ? null : Number(r.expires_at),
        lastError: r.last_error,
      },
    ]),
  );
}
