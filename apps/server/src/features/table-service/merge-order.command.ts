import { assertNotSharing, assertRoomFor, requireOrderToEdit } from '../../model/orders/order-guards.ts';
import { sql } from 'kysely';
import type { Order, SessionUser } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { conflict } from '../../http/errors.ts';
import { loadOrder, touchOrder } from '../../model/orders/order-repository.ts';
import { dropCheckAdjustments } from '../../model/orders/adjustments-follow.ts';
import { orderPayments } from '../../model/checkout/order-payments.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { freeTableOf, lockOrdersInOrder, requireTable, SERVICE_MESSAGES, thawOrders } from './service-guards.ts';
import type { WriteContext } from '../../http/request-context.ts';

const MAX_PEOPLE = 999;
const MAX_COMMENTS = 2000;

/**
 * Merges an activo order into the activo order of another (occupied) table: every item row moves
 * as it is (status, notes, price, times; deleted rows too, so the audit trail moves with them),
 * the target's subtotal is recomputed, the guests add up, and the emptied source order becomes
 * 'cancelado' with no items and zero totals (out of every sale figure) while its table is freed.
 * See docs/decisions/0013-table-moves.md.
 */
export async function mergeOrder(ctx: WriteContext, user: SessionUser, input: { orderId: string; targetTableId: string }): Promise<Order> {
  const { row: source, timedOut } = await requireOrderToEdit(ctx, user, input.orderId);
  if (source.table_id === input.targetTableId) throw conflict(SERVICE_MESSAGES.sameTable, 'same_table');
  const table = await requireTable(ctx.db.db, input.targetTableId);
  const targetId = table.current_order_id;
  if (table.status !== 'ocupada' || !targetId) throw conflict(SERVICE_MESSAGES.targetNotOccupied, 'target_not_occupied');
  await thawOrders(ctx, ...(timedOut ? [source.id] : []), targetId);

  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const locked = await lockOrdersInOrder(trx, user, [source.id, targetId], now);
    const from = locked.get(source.id)!;
    const into = locked.get(targetId)!;
    if (into.active_table_id !== input.targetTableId) throw conflict(SERVICE_MESSAGES.targetChanged, 'target_changed');
    assertNotSharing(from);
    // Mixed payments (0015): parts already paid belong to this order; it is charged, not merged away.
    if ((await orderPayments(trx, from.id)).length > 0) throw conflict(SERVICE_MESSAGES.sourceHasPayments, 'order_has_payments');
    const items = await trx
      .selectFrom('order_items')
      .select(['id', 'product_price', 'quantity', 'is_deleted'])
      .where('order_id', '=', from.id)
      .execute();
    const live = items.filter((i) => Number(i.is_deleted) === 0);
    if (live.length === 0) throw conflict(SERVICE_MESSAGES.nothingToMerge, 'nothing_to_merge');
    const amount = live.reduce((acc, i) => acc + Number(i.product_price) * Number(i.quantity), 0);
    await assertRoomFor(trx, into, { lines: items.length, amount });

    await trx.updateTable('order_items').set({ order_id: into.id }).where('order_id', '=', from.id).execute();
    // Line discounts and comps go with their lines; the source's check-level ones are removed (0022).
    await trx
      .updateTable('order_adjustments')
      .set({ order_id: into.id })
      .where('order_id', '=', from.id)
      .where('item_id', 'is not', null)
      .execute();
    await dropCheckAdjustments(trx, { orderId: from.id, actor: user, now, why: 'order-merged' });
    const comments = [into.admin_comments, from.admin_comments].filter((c): c is string => !!c).join('\n');
    await trx
      .updateTable('orders')
      .set({
        people_count: Math.min(MAX_PEOPLE, Number(into.people_count) + Number(from.people_count)),
        admin_comments: comments ? comments.slice(0, MAX_COMMENTS) : null,
      })
      .where('id', '=', into.id)
      .execute();
    const version = await touchOrder(trx, into.id, now);
    const closed = await trx
      .updateTable('orders')
      .set({
        status: 'cancelado',
        active_table_id: null,
        subtotal: 0,
        tip: 0,
        total: 0,
        completed_at: now,
        version: sql<number>`version + 1`,
        updated_at: now,
      })
      .where('id', '=', from.id)
      .returning(['version'])
      .executeTakeFirstOrThrow();
    await freeTableOf(trx, from.table_id, from.id, now);
    await audit(trx, now, {
      actor: user,
      action: 'order.merged',
      entity: 'order',
      entityId: from.id,
      data: {
        reason: 'merged',
        fromTableId: from.table_id,
        fromNumber: from.table_number,
        intoOrderId: into.id,
        intoTableId: into.table_id,
        intoNumber: into.table_number,
        itemIds: items.map((i) => i.id),
        units: live.reduce((acc, i) => acc + Number(i.quantity), 0),
        amount,
      },
    });
    emitOrderChanged(emit, from.id, Number(closed.version), { owner: from.waiter_id, board: true });
    emitOrderChanged(emit, into.id, version, { owner: into.waiter_id });
    emit({ topic: 'tables', type: 'table.updated', id: from.table_id, version });
    emit({ topic: 'tables', type: 'table.updated', id: into.table_id, version });
    return loadOrder(trx, into.id);
  });
}
