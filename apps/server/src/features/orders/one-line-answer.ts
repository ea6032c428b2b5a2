import type { BoardLiveChange } from '@comanda/contract';
import type { OrderItemRow, OrderRow } from '../../db/schema.ts';
import { publishEvents, type EmitEvent } from '../../http/transaction.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { orderChangeOf, type ItemWrite } from '../../model/orders/order-change.ts';
import { tellPrintWorkers } from '../../model/printing/enqueue.ts';
import type { AppContext } from '../../http/context.ts';

/** What a one-statement write of one line (comanda_quick_add, comanda_quick_delete) gave back. */
export interface OneLineResult {
  order: OrderRow;
  item: OrderItemRow;
  /** Print jobs it wrote (comandas or cancelation slips). */
  jobs: number;
}

/**
 * The tail of a one-statement write of one line, after its commit: the print workers woken when it
 * wrote jobs, the live events as the TypeScript write emits them (the line's station told `lines`,
 * which the boards patch in), and the answer of the changed line with the order's figures.
 */
export function answerOneLine(ctx: AppContext, orderId: string, { order, item, jobs }: OneLineResult, lines: BoardLiveChange): ItemWrite {
  if (jobs > 0) tellPrintWorkers([item.station]);
  const events: EmitEvent[] = [];
  emitOrderChanged((e) => events.push(e), orderId, order.version, { owner: order.waiter_id, board: [item.station], lines });
  publishEvents(ctx, events);
  return { orderId, itemIds: [item.id], change: orderChangeOf(order, [item]) };
}
