import { sql } from 'kysely';
import type { OrderAdjustmentRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { newId } from '../../http/ids.ts';

/**
 * A line's discounts and comps follow its units (docs/decisions/0022-equal-shares-are-checks.md,
 * amending 0017): moved to another order (move items, merge, split by item) they go with the
 * units; voided or deleted they are removed, with the reason audited. Called inside the moving or
 * voiding transaction, after the order row locks, before touchOrder recomputes the figures.
 */

type Actor = { id: string; displayName: string };

async function liveOnLine(trx: Trx, itemId: string): Promise<OrderAdjustmentRow[]> {
  return trx
    .selectFrom('order_adjustments')
    .selectAll()
    .where('item_id', '=', itemId)
    .where('removed_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * The units of a line went from `fromItemId` to `toItemId` in `toOrderId` (the same id when the
 * whole row moved as itself; otherwise the source row keeps what it holds now). A comp of u units keeps on the source as many as it
 * still has (min(u, left)) and the rest go with the moved units; a percent discount applies to
 * both parts; an amount discount is shared in proportion to the units, to the centavo.
 * Returns how many adjustments now apply to the moved units.
 */
export async function carryLineAdjustments(
  trx: Trx,
  input: { fromItemId: string; toItemId: string; toOrderId: string; moved: number; actor: Actor; now: number },
): Promise<number> {
  const rows = await liveOnLine(trx, input.fromItemId);
  if (rows.length === 0) return 0;
  const left =
    input.fromItemId === input.toItemId
      ? 0
      : Number(
          (await trx.selectFrom('order_items').select('quantity').where('id', '=', input.fromItemId).executeTakeFirstOrThrow()).quantity,
        );
  let carried = 0;
  for (const row of rows) {
    const fromOrderId = row.order_id;
    const split = splitFor(row, left, input.moved);
    if (split === null) continue;
    if (split.keep === null) {
      // Nothing of it stays: the adjustment itself goes with the units.
      await trx
        .updateTable('order_adjustments')
        .set({ order_id: input.toOrderId, item_id: input.toItemId })
        .where('id', '=', row.id)
        .execute();
    } else {
      if (Object.keys(split.keep).length > 0) await trx.updateTable('order_adjustments').set(split.keep).where('id', '=', row.id).execute();
      await trx
        .insertInto('order_adjustments')
        .values({ ...row, id: newId(), order_id: input.toOrderId, item_id: input.toItemId, amount: 0, ...split.moved })
        .execute();
    }
    carried += 1;
    await audit(trx, input.now, {
      actor: input.actor,
      action: 'order.adjustment-moved',
      entity: 'order',
      entityId: input.toOrderId,
      data: {
        adjustmentId: row.id,
        kind: row.kind,
        fromOrderId,
        fromItemId: input.fromItemId,
        toItemId: input.toItemId,
        split: split.keep !== null,
      },
    });
  }
  return carried;
}

type Part = { units?: number; requested_amount?: number };

/** How one adjustment divides between the units left and moved; null: it all stays. */
function splitFor(row: OrderAdjustmentRow, left: number, moved: number): { keep: Part | null; moved: Part } | null {
  if (left === 0) return { keep: null, moved: {} };
  if (row.units !== null) {
    const units = Number(row.units);
    const keep = Math.min(units, left);
    if (keep === units) return null;
    return { keep: { units: keep }, moved: { units: units - keep } };
  }
  if (row.requested_amount !== null) {
    const asked = Number(row.requested_amount);
    const movedAmount = Math.floor((asked * moved) / (left + moved));
    if (movedAmount === 0) return null;
    return { keep: { requested_amount: asked - movedAmount }, moved: { requested_amount: movedAmount } };
  }
  // A percent discount: the same percent on both parts.
  return { keep: {}, moved: {} };
}

/** 1 when a live adjustment is on the line, else 0: a column for the line's own statement (a delete's UPDATE returns it). */
export function lineAdjusted(itemId: string) {
  return sql<number>`CASE WHEN EXISTS (SELECT 1 FROM order_adjustments WHERE item_id = ${itemId} AND removed_at IS NULL) THEN 1 ELSE 0 END`;
}

/**
 * The lines are gone (voided, deleted, or their order cancelled): their live adjustments are
 * removed — never left listed at $0 — by the user who removed the units, the reason audited.
 */
export async function dropLineAdjustments(
  trx: Trx,
  input: { itemIds: readonly string[]; actor: Actor; now: number; why: 'item-voided' | 'item-deleted' | 'order-cancelled' },
): Promise<number> {
  if (input.itemIds.length === 0) return 0;
  const rows = await trx
    .selectFrom('order_adjustments')
    .selectAll()
    .where('item_id', 'in', [...input.itemIds])
    .where('removed_at', 'is', null)
    .execute();
  return removeAll(trx, rows, input);
}

/**
 * A merged-away order keeps no check-level discount or comp: applied to the
 * other table's whole order it would take off what was never given, so it is removed, audited.
 */
export async function dropCheckAdjustments(
  trx: Trx,
  input: { orderId: string; actor: Actor; now: number; why: 'order-merged' | 'order-cancelled' },
): Promise<number> {
  const rows = await trx
    .selectFrom('order_adjustments')
    .selectAll()
    .where('order_id', '=', input.orderId)
    .where('item_id', 'is', null)
    .where('removed_at', 'is', null)
    .execute();
  return removeAll(trx, rows, input);
}

async function removeAll(trx: Trx, rows: OrderAdjustmentRow[], input: { actor: Actor; now: number; why: string }): Promise<number> {
  for (const row of rows)
    await markAdjustmentRemoved(trx, row, { actor: input.actor, now: input.now, data: { removedBecause: input.why } });
  return rows.length;
}

/**
 * A discount or comp marked removed (the row stays for the audit trail) and the audit entry
 * that says so: by an admin's PIN from the order screen (`authorizer`), or by the server when
 * the lines it was on went away (`data.removedBecause`).
 */
export async function markAdjustmentRemoved(
  trx: Trx,
  row: OrderAdjustmentRow,
  input: { actor: Actor; now: number; authorizer?: Actor; data?: Record<string, unknown> },
): Promise<void> {
  const remover = input.authorizer ?? input.actor;
  await trx
    .updateTable('order_adjustments')
    .set({ removed_at: input.now, removed_by: remover.id, removed_by_name: remover.displayName })
    .where('id', '=', row.id)
    .where('removed_at', 'is', null)
    .execute();
  await audit(trx, input.now, {
    actor: input.actor,
    action: row.kind === 'comp' ? 'order.comp-removed' : 'order.discount-removed',
    entity: 'order',
    entityId: row.order_id,
    ...(input.authorizer ? { authorizedBy: input.authorizer.id } : {}),
    data: {
      adjustmentId: row.id,
      kind: row.kind,
      itemId: row.item_id,
      amount: Number(row.amount),
      reason: row.reason,
      ...(input.authorizer ? { authorizedByName: input.authorizer.displayName } : {}),
      ...input.data,
    },
  });
}
