import type { Order, SessionUser, SplitChecksBody } from '@comanda/contract';
import { cents, checkName, planChecks, shareGuests, type CheckTake } from '@comanda/domain';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { AppError, conflict } from '../../http/errors.ts';
import { newId } from '../../http/ids.ts';
import { loadOrder, touchOrder } from '../../model/orders/order-repository.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { carryLineAdjustments } from '../../model/orders/adjustments-follow.ts';
import { lockOrderToSplit, prepareSplit } from './check-guards.ts';
import { insertCheck, nextCheckIndex } from './new-check.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * Separate checks by item (docs/decisions/0014-checks-are-orders.md): the chosen units move into
 * NEW sibling orders on the same table, one per check, each paid later by the usual checkout.
 * A line split between checks becomes two rows of the same product, price, status, notes and
 * time. One transaction: the table's lock, then the order's (a second device splitting the same
 * order waits, then finds the units gone and is refused: nothing is duplicated or lost).
 * Returns the order first, then its new checks.
 */
export async function splitChecks(ctx: WriteContext, user: SessionUser, orderId: string, body: SplitChecksBody): Promise<Order[]> {
  await prepareSplit(ctx, user, orderId);

  const ids = await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockOrderToSplit(trx, user, orderId, now);

    const items = await trx
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', '=', orderId)
      .where('is_deleted', '=', 0)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    // Repeated lines within one check add up.
    const takes: CheckTake[] = body.checks.map((check) => {
      const take: Record<string, number> = {};
      for (const line of check.lines) take[line.itemId] = (take[line.itemId] ?? 0) + line.quantity;
      return take;
    });
    const plan = planChecks(
      items.map((i) => ({ id: i.id, productPrice: cents(Number(i.product_price)), quantity: Number(i.quantity) })),
      takes,
    );
    if (!plan.ok) {
      if (plan.reason === 'unknown_line' || plan.reason === 'too_many') throw conflict(plan.message, 'check_units_changed');
      throw new AppError(422, plan.reason === 'empty_check' ? 'check_empty' : 'check_nothing_left', plan.message);
    }

    // Names go on from the checks this table's order already had: A is the order itself.
    const root = order.parent_order_id ?? order.id;
    const firstIndex = await nextCheckIndex(trx, root);
    // The table's guests go with the checks, shared out: 4 guests in 2 checks print 2 and 2.
    const guests = shareGuests(Number(order.people_count), takes.length + 1);
    await trx
      .updateTable('orders')
      .set({ tab_name: order.tab_name ?? checkName(0), people_count: guests[0]! })
      .where('id', '=', orderId)
      .execute();

    const remaining = new Map(items.map((i) => [i.id, Number(i.quantity)]));
    const created: { orderId: string; tabName: string; lines: { itemId: string; movedAs: string; quantity: number }[] }[] = [];
    for (const [k, take] of takes.entries()) {
      const { orderId: checkId, tabName } = await insertCheck(trx, order, {
        rootId: root,
        index: firstIndex + k,
        k,
        now,
        peopleCount: guests[k + 1]!,
      });
      const lines: (typeof created)[number]['lines'] = [];
      for (const item of items) {
        const qty = take[item.id] ?? 0;
        if (qty === 0) continue;
        const left = remaining.get(item.id)! - qty;
        remaining.set(item.id, left);
        if (left === 0) {
          // The rest of the line moves as it is.
          await trx.updateTable('order_items').set({ order_id: checkId, updated_at: now }).where('id', '=', item.id).execute();
          await carryLineAdjustments(trx, { fromItemId: item.id, toItemId: item.id, toOrderId: checkId, moved: qty, actor: user, now });
          lines.push({ itemId: item.id, movedAs: item.id, quantity: qty });
        } else {
          const newItemId = newId();
          await trx.updateTable('order_items').set({ quantity: left, updated_at: now }).where('id', '=', item.id).execute();
          await trx
            .insertInto('order_items')
            .values({ ...item, id: newItemId, order_id: checkId, quantity: qty, updated_at: now })
            .execute();
          await carryLineAdjustments(trx, { fromItemId: item.id, toItemId: newItemId, toOrderId: checkId, moved: qty, actor: user, now });
          lines.push({ itemId: item.id, movedAs: newItemId, quantity: qty });
        }
      }
      created.push({ orderId: checkId, tabName, lines });
    }

    const version = await touchOrder(trx, orderId, now);
    const versions: number[] = [];
    for (const c of created) versions.push(await touchOrder(trx, c.orderId, now));
    await audit(trx, now, {
      actor: user,
      action: 'order.split',
      entity: 'order',
      entityId: orderId,
      data: {
        tableNumber: order.table_number,
        subtotal: plan.remainingSubtotal + plan.subtotals.reduce((a, b) => a + b, 0),
        remainingSubtotal: plan.remainingSubtotal,
        checks: created.map((c, k) => ({ ...c, subtotal: plan.subtotals[k] })),
      },
    });
    emitOrderChanged(emit, orderId, version, { owner: order.waiter_id, board: true });
    created.forEach((c, k) => emitOrderChanged(emit, c.orderId, versions[k]!, { owner: order.waiter_id, board: true }));
    emit({ topic: 'tables', type: 'table.updated', id: order.table_id, version });
    return [orderId, ...created.map((c) => c.orderId)];
  });
  return Promise.all(ids.map((id) => loadOrder(ctx.db.db, id)));
}
