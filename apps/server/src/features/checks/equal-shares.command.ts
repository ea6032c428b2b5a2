import type { Order, SessionUser } from '@comanda/contract';
import { checkName, EQUAL_SHARE_MESSAGES, planEqualShares, shareGuests, sumBreakdowns } from '@comanda/domain';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { AppError, conflict } from '../../http/errors.ts';
import { loadOrder, touchOrder } from '../../model/orders/order-repository.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { computeOrderFigures, linesOf, liveAdjustmentRows } from '../../model/orders/order-adjustments.ts';
import { orderItemRows } from '../../model/checkout/close-order.ts';
import { itemsBreakdown, productTaxRows, sharesBreakdown } from '../../model/checkout/tax-breakdown.ts';
import { lockOrderToSplit, prepareSplit } from './check-guards.ts';
import { insertCheck, nextCheckIndex } from './new-check.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * Equal shares are separate checks (docs/decisions/0022-equal-shares-are-checks.md): the order
 * keeps its items and the first share; N − 1 new share checks on the same table owe the others
 * (`share_amount`), and the order records what they owe of its items (`shared_out`). Each check
 * is then paid on its own with any method, its own tip, ticket and folio; the table is freed
 * when the last is paid. One transaction under the table's lock, then the order's: two devices
 * splitting the same order at once → the second finds it already split (409).
 */
export async function splitEqualShares(ctx: WriteContext, user: SessionUser, orderId: string, count: number): Promise<Order[]> {
  await prepareSplit(ctx, user, orderId);

  const ids = await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockOrderToSplit(trx, user, orderId, now);
    if (Number(order.share_amount) > 0 || Number(order.shared_out) > 0)
      throw conflict(EQUAL_SHARE_MESSAGES.alreadyShared, 'already_shared');
    const paid = await trx.selectFrom('payments').select('id').where('order_id', '=', orderId).executeTakeFirst();
    if (paid) throw conflict(EQUAL_SHARE_MESSAGES.paidParts, 'order_has_payments');

    // What is owed now, from the items and adjustments as they are under the lock.
    const items = await orderItemRows(trx, orderId);
    const adjustments = await liveAdjustmentRows(trx, orderId);
    const { owed } = await computeOrderFigures(trx, orderId, { lines: linesOf(items), rows: adjustments });
    const plan = planEqualShares(owed, count);
    if (!plan.ok) throw new AppError(422, plan.reason === 'count' ? 'share_count' : 'share_too_small', plan.message);
    // The taxes each share carries, divided from the order's now: the parts add up to it exactly.
    // The order holds what its shares carry until its close, which keeps the rest.
    const taxes = await productTaxRows(
      trx,
      items.map((i) => i.product_id),
    );
    const split = sharesBreakdown(await itemsBreakdown(trx, { items, adjustments, taxes }), plan.keep, plan.shares);

    const root = order.parent_order_id ?? order.id;
    const firstIndex = await nextCheckIndex(trx, root);
    // The table's guests go with the checks, shared out (each check's ticket names its own).
    const guests = shareGuests(Number(order.people_count), plan.shares.length + 1);
    await trx
      .updateTable('orders')
      .set({
        shared_out: plan.sharedOut,
        people_count: guests[0]!,
        tab_name: order.tab_name ?? checkName(0),
        tax_breakdown: JSON.stringify(sumBreakdowns(split.shares)),
      })
      .where('id', '=', orderId)
      .execute();

    const created: { orderId: string; tabName: string; amount: number }[] = [];
    for (const [k, amount] of plan.shares.entries()) {
      const { orderId: checkId, tabName } = await insertCheck(trx, order, {
        rootId: root,
        index: firstIndex + k,
        k,
        now,
        shareAmount: amount,
        peopleCount: guests[k + 1]!,
      });
      await trx
        .updateTable('orders')
        .set({ tax_breakdown: JSON.stringify(split.shares[k]) })
        .where('id', '=', checkId)
        .execute();
      created.push({ orderId: checkId, tabName, amount });
    }

    const version = await touchOrder(trx, orderId, now);
    await audit(trx, now, {
      actor: user,
      action: 'order.split-equal',
      entity: 'order',
      entityId: orderId,
      data: { tableNumber: order.table_number, count, owed, keep: plan.keep, shares: created },
    });
    emitOrderChanged(emit, orderId, version, { owner: order.waiter_id, board: false });
    for (const c of created) emitOrderChanged(emit, c.orderId, 1, { owner: order.waiter_id, board: false });
    emit({ topic: 'tables', type: 'table.updated', id: order.table_id, version });
    return [orderId, ...created.map((c) => c.orderId)];
  });
  return Promise.all(ids.map((id) => loadOrder(ctx.db.db, id)));
}
