import type { CreateAdjustmentBody, Order, SessionUser } from '@comanda/contract';
import { ADJUSTMENT_MESSAGES, cents, checkDiscountOverBill, formatMXN, uncompedUnits, type AdjustmentSpec } from '@comanda/domain';
import { audit } from '../../http/audit.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { newId } from '../../http/ids.ts';
import { adjustmentSpec, computeOrderFigures, liveAdjustmentRows } from '../../model/orders/order-adjustments.ts';
import { findOrderItem } from '../../model/orders/order-repository.ts';
import { adjustOrder } from './adjustment-guards.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * A discount or a comp (cortesía), always authorised by an admin PIN, with a reason. The server
 * computes what it takes off (never more than what is left; an amount off the check beyond it is
 * refused), stores it, recomputes the order's cached figures and audits who asked, who authorised
 * and why, in one transaction.
 */
export async function addAdjustment(
  ctx: WriteContext,
  user: SessionUser,
  input: { orderId: string; body: CreateAdjustmentBody; ip: string; sessionHash?: string | null },
): Promise<Order> {
  const { body } = input;
  return adjustOrder(
    ctx,
    { user, ...input, pin: body.pin },
    {
      async apply({ trx, order, authorizer, now }) {
        const itemId = body.scope === 'item' ? (body.itemId ?? null) : null;
        if (itemId !== null) {
          const item = await findOrderItem(trx, order.id, itemId);
          if (!item) throw notFound(ADJUSTMENT_MESSAGES.itemNotFound);
          if (Number(item.is_deleted) === 1) throw conflict(ADJUSTMENT_MESSAGES.itemDeleted, 'item_deleted');
          if (body.kind === 'comp') {
            const line = {
              id: item.id,
              productPrice: cents(Number(item.product_price)),
              quantity: Number(item.quantity),
              isDeleted: false,
            };
            const left = uncompedUnits(line, (await liveAdjustmentRows(trx, order.id)).map(adjustmentSpec));
            if ((body.units ?? 0) > left) throw conflict(ADJUSTMENT_MESSAGES.tooManyUnits, 'too_many_units');
          }
        }
        const spec: AdjustmentSpec = {
          id: newId(),
          kind: body.kind,
          itemId,
          units: body.kind === 'comp' && itemId !== null ? (body.units ?? null) : null,
          percentBps: body.kind === 'discount' ? (body.percentBps ?? null) : null,
          requestedAmount: body.kind === 'discount' && body.amount !== undefined ? cents(body.amount) : null,
        };
        // What it would take off with everything else as it is: nothing left means nothing to do.
        const amount = (await computeOrderFigures(trx, order.id, { extra: { ...spec, id: spec.id } })).amounts.get(spec.id) ?? 0;
        if (amount <= 0) throw conflict(ADJUSTMENT_MESSAGES.nothingLeft, 'nothing_left');
        if (checkDiscountOverBill(spec, amount))
          throw conflict(`${ADJUSTMENT_MESSAGES.overBill} Quedan ${formatMXN(cents(amount))}.`, 'discount_over_bill');
        const note = body.note?.trim() || null;
        await trx
          .insertInto('order_adjustments')
          .values({
            id: spec.id,
            order_id: order.id,
            item_id: spec.itemId,
            kind: spec.kind,
            units: spec.units,
            percent_bps: spec.percentBps,
            requested_amount: spec.requestedAmount,
            amount,
            reason: body.reason,
            note,
            authorized_by: authorizer.id,
            authorized_by_name: authorizer.displayName,
            created_by: user.id,
            created_by_name: user.displayName,
            created_at: now,
            removed_at: null,
            removed_by: null,
            removed_by_name: null,
          })
          .execute();
        return { spec, note };
      },
      async record({ trx, order, authorizer, now }, { spec, note }) {
        const stored = await trx.selectFrom('order_adjustments').select('amount').where('id', '=', spec.id).executeTakeFirstOrThrow();
        await audit(trx, now, {
          actor: user,
          action: spec.kind === 'comp' ? 'order.comp-added' : 'order.discount-added',
          entity: 'order',
          entityId: order.id,
          authorizedBy: authorizer.id,
          data: {
            adjustmentId: spec.id,
            kind: spec.kind,
            scope: body.scope,
            itemId: spec.itemId,
            units: spec.units,
            percentBps: spec.percentBps,
            requestedAmount: spec.requestedAmount,
            amount: Number(stored.amount),
            reason: body.reason,
            note,
            authorizedByName: authorizer.displayName,
          },
        });
      },
    },
  );
}
