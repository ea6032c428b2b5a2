import type { OrderItem, SessionUser } from '@comanda/contract';
import { mayMoveStationItems, type ItemStatus } from '@comanda/domain';
import { mutate } from '../../http/transaction.ts';
import { auditInsert } from '../../http/audit.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { findOpenOrderItem, touchOrderRow } from '../../model/orders/order-repository.ts';
import { presentItem } from '../../model/orders/order-presenter.ts';
import { boardLineOf } from '../../model/orders/board-lines.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { MESSAGES } from '../../http/messages.ts';
import { lockOpenOrder } from '../../model/orders/order-access.ts';
import type { WriteContext } from '../../http/request-context.ts';

export const BOARD_MESSAGES = MESSAGES.board;

export interface SetItemStatusInput {
  orderId: string;
  itemId: string;
  status: ItemStatus;
  actor: SessionUser;
}

/**
 * Moves one item to any status (SPEC §4 allows going backwards). Kitchen and bar may only
 * touch their own station's items; deleted items and closed orders never change.
 */
export async function setItemStatus(ctx: WriteContext, input: SetItemStatusInput): Promise<OrderItem> {
  return mutate(ctx, async (trx, emit) => {
    const { order, item } = await findOpenOrderItem(trx, input.orderId, input.itemId);
    if (!item) throw notFound(BOARD_MESSAGES.itemNotFound);
    // The route admits admin, kitchen and bar staff; the board shows the same rule (domain).
    if (!mayMoveStationItems(input.actor.role, item.station)) throw forbidden(BOARD_MESSAGES.otherStation);
    if (item.is_deleted === 1) throw conflict(BOARD_MESSAGES.itemDeleted, 'item_deleted');
    // A repeated click is not a change: no new version, no audit entry, no retention reset.
    if (item.status === input.status) return presentItem(item);

    const now = ctx.clock.now();
    // The order's row lock first, in a statement of its own, as every other item change takes it:
    // an add raising this very line holds the order, then the line, so the other way round could
    // deadlock on PostgreSQL; and only statements after the lock see every line committed before
    // it, so touchOrderRow's subtotal is never stale.
    await lockOpenOrder(trx, input.orderId, now);
    const updated = await trx
      .updateTable('order_items')
      .set({ status: input.status, updated_at: now })
      .where('id', '=', item.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    // The audit entry rides on touchOrderRow's UPDATE (one round trip on PostgreSQL).
    const entry = auditInsert(trx, now, {
      actor: { id: input.actor.id, displayName: input.actor.displayName },
      action: 'item.status_changed',
      entity: 'order_item',
      entityId: item.id,
      data: { orderId: input.orderId, from: item.status, to: input.status, station: item.station },
    });
    const { version, after } = await touchOrderRow(trx, input.orderId, now, [entry]);
    const lines = { lines: [boardLineOf(after, updated)], removed: [] };
    emitOrderChanged(emit, input.orderId, version, { owner: order.waiter_id, board: [item.station], lines });
    return presentItem(updated);
  });
}
