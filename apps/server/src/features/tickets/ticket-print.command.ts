import type { SessionUser } from '@comanda/contract';
import { selfInvoiceLine } from '@comanda/domain';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { notFound } from '../../http/errors.ts';
import type { WriteContext } from '../../http/request-context.ts';
import { ORDER_NOT_FOUND } from '../../model/orders/order-repository.ts';
import { enqueueReceipt } from '../../model/printing/enqueue.ts';
import { ticketInvoicing } from '../../model/invoicing/ticket-invoicing.ts';

/**
 * A paid ticket again on the caja printer(s), marked REIMPRESIÓN, with its self-invoice as the
 * receipt stands now: the QR once the PAC issued it. 0 jobs: no caja printer (the browser prints).
 */
export async function printTicketOnCaja(ctx: WriteContext, user: SessionUser, orderId: string): Promise<{ jobs: number }> {
  return mutate(ctx, async (trx, emit) => {
    const row = await trx
      .selectFrom('orders')
      .select([
        'id',
        'status',
        'table_number',
        'table_name',
        'waiter_name',
        'people_count',
        'split_count',
        'subtotal',
        'discount',
        'comp',
        'shared_out',
        'share_amount',
        'tip',
        'total',
        'payment_method',
        'folio',
        'tax_breakdown',
        'completed_at',
      ])
      .where('id', '=', orderId)
      .executeTakeFirst();
    if (!row || row.status !== 'pagado') throw notFound(ORDER_NOT_FOUND);
    const now = ctx.clock.now();
    const items = await trx
      .selectFrom('order_items')
      .select(['quantity', 'product_name', 'product_price', 'promotion_name', 'modifiers', 'is_deleted'])
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const payments = await trx
      .selectFrom('payments')
      .select(['method', 'amount', 'received_amount', 'change_amount', 'reference'])
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const receipt = (await ticketInvoicing(trx, [orderId])).get(orderId) ?? null;
    const selfInvoice = selfInvoiceLine(receipt);
    const jobs = await enqueueReceipt(trx, {
      orderId,
      now,
      paid: { row, items, payments },
      reprint: { selfInvoice, paidAt: Number(row.completed_at ?? now) },
    });
    await audit(trx, now, {
      actor: user,
      action: 'ticket.reprinted',
      entity: 'order',
      entityId: orderId,
      data: { jobs, selfInvoice: selfInvoice?.state ?? null },
    });
    // Wakes the print worker after commit.
    if (jobs > 0) emit({ topic: 'printers', type: 'jobs', id: 'caja' });
    return { jobs };
  });
}
