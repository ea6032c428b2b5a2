import { assertRoomFor, requireOrderToEdit } from '../../model/orders/order-guards.ts';
import type { MoveLine, Order, SessionUser } from '@comanda/contract';
import { claimFreeTable, newOrderRow } from '../../model/orders/new-order.ts';
import type { OrderRow } from '../../db/schema.ts';
import { mutate, type Trx } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { newId, newOrderId } from '../../http/ids.ts';
import { loadOrder, touchOrder } from '../../model/orders/order-repository.ts';
import { carryLineAdjustments } from '../../model/orders/adjustments-follow.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { lockOrdersInOrder, requireTable, SERVICE_MESSAGES, thawOrders } from './service-guards.ts';
import { isUniqueViolation } from './unique-violation.ts';
import type { WriteContext } from '../../http/request-context.ts';

interface MovedLine {
  itemId: string;
  /** The row now in the target: the same row when the whole line moved, a new one when it was split. */
  targetItemId: string;
  productName: string;
  quantity: number;
  split: boolean;
}

/**
 * Moves chosen units of chosen lines to another table: into its activo order when occupied, or
 * into a new order for the same waiter when free. A whole line moves as it is; part of a line is
 * split into two rows (same product, price, status, notes, created_at), so every unit belongs to
 * exactly one order. Moved units are not new comandas: nothing is printed.
 *
 * Both orders are locked (by id) before the items are read, so of two devices moving the same
 * units at once the second sees what the first left and is refused if the units are gone.
 */
export async function moveItems(
  ctx: WriteContext,
  user: SessionUser,
  input: { orderId: string; targetTableId: string; lines: readonly MoveLine[] },
): Promise<{ source: Order; target: Order }> {
  const { row: source, timedOut } = await requireOrderToEdit(ctx, user, input.orderId);
  if (source.table_id === input.targetTableId) throw conflict(SERVICE_MESSAGES.sameTable, 'same_table');
  const table = await requireTable(ctx.db.db, input.targetTableId);
  const knownTarget = table.status === 'ocupada' ? table.current_order_id : null;
  await thawOrders(ctx, ...(timedOut ? [source.id] : []), ...(knownTarget ? [knownTarget] : []));

  try {
    return await mutate(ctx, async (trx, emit) => {
      const now = ctx.clock.now();
      const locked = await lockOrdersInOrder(trx, user, knownTarget ? [source.id, knownTarget] : [source.id], now);
      const from = locked.get(source.id)!;
      let into: OrderRow;
      let opened = false;
      if (knownTarget) {
        into = locked.get(knownTarget)!;
        if (into.active_table_id !== input.targetTableId) throw conflict(SERVICE_MESSAGES.targetChanged, 'target_changed');
      } else {
        into = await openForWaiter(trx, from, input.targetTableId, now);
        opened = true;
      }

      const moved = await moveLines(trx, from.id, into.id, input.lines, (lines, amount) => assertRoomFor(trx, into, { lines, amount }));
      // Discounts and comps of the moved units go with them.
      for (const m of moved)
        await carryLineAdjustments(trx, {
          fromItemId: m.itemId,
          toItemId: m.targetItemId,
          toOrderId: into.id,
          moved: m.quantity,
          actor: user,
          now,
        });
      const sourceVersion = await touchOrder(trx, from.id, now);
      const targetVersion = await touchOrder(trx, into.id, now);
      await audit(trx, now, {
        actor: user,
        action: 'order.items-moved',
        entity: 'order',
        entityId: from.id,
        data: {
          fromTableId: from.table_id,
          fromNumber: from.table_number,
          toOrderId: into.id,
          toTableId: into.table_id,
          toNumber: into.table_number,
          openedOrder: opened,
          lines: moved,
        },
      });
      emitOrderChanged(emit, from.id, sourceVersion, { owner: from.waiter_id, board: true });
      emitOrderChanged(emit, into.id, targetVersion, { owner: into.waiter_id });
      emit({ topic: 'tables', type: 'table.updated', id: into.table_id, version: targetVersion });
      return { source: await loadOrder(trx, from.id), target: await loadOrder(trx, into.id) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(SERVICE_MESSAGES.targetChanged, 'target_changed');
    throw error;
  }
}

/** A free target table: claimed (only while libre) and given a new order of the source's waiter. */
async function openForWaiter(trx: Trx, from: OrderRow, tableId: string, now: number): Promise<OrderRow> {
  const id = newOrderId();
  const waiter = { id: from.waiter_id, name: from.waiter_name };
  const table = await claimFreeTable(trx, tableId, waiter, id, now);
  if (!table) throw conflict(SERVICE_MESSAGES.targetChanged, 'target_changed');
  return trx
    .insertInto('orders')
    .values(newOrderRow({ id, table, waiter, linked: true, now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function moveLines(
  trx: Trx,
  fromId: string,
  intoId: string,
  lines: readonly MoveLine[],
  checkRoom: (lines: number, amount: number) => Promise<void>,
): Promise<MovedLine[]> {
  const rows = await trx
    .selectFrom('order_items')
    .selectAll()
    .where(
      'id',
      'in',
      lines.map((l) => l.itemId),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  let newRows = 0;
  let amount = 0;
  for (const line of lines) {
    const row = byId.get(line.itemId);
    if (!row || row.order_id !== fromId) throw notFound(SERVICE_MESSAGES.itemNotInOrder);
    if (Number(row.is_deleted) !== 0) throw conflict(SERVICE_MESSAGES.itemDeleted, 'item_deleted');
    if (line.quantity > Number(row.quantity)) throw conflict(SERVICE_MESSAGES.tooManyUnits, 'units_gone');
    newRows++;
    amount += Number(row.product_price) * line.quantity;
  }
  await checkRoom(newRows, amount);

  const moved: MovedLine[] = [];
  for (const line of lines) {
    const row = byId.get(line.itemId)!;
    const whole = line.quantity === Number(row.quantity);
    if (whole) {
      // Every field stays as it is: status, notes, times; only the order it belongs to changes.
      await updateUnchanged(trx, row, fromId, { order_id: intoId });
      moved.push({ itemId: row.id, targetItemId: row.id, productName: row.product_name, quantity: line.quantity, split: false });
      continue;
    }
    await updateUnchanged(trx, row, fromId, { quantity: Number(row.quantity) - line.quantity });
    const targetItemId = newId();
    await trx
      .insertInto('order_items')
      .values({ ...row, id: targetItemId, order_id: intoId, quantity: line.quantity })
      .execute();
    moved.push({ itemId: row.id, targetItemId, productName: row.product_name, quantity: line.quantity, split: true });
  }
  return moved;
}

/**
 * Changes a line only while it is as it was read (same order, same units, not voided): a device
 * that moved or voided some of these units first makes this one refuse, never move them twice.
 */
async function updateUnchanged(
  trx: Trx,
  row: { id: string; quantity: number },
  fromId: string,
  set: { order_id: string } | { quantity: number },
): Promise<void> {
  const res = await trx
    .updateTable('order_items')
    .set(set)
    .where('id', '=', row.id)
    .where('order_id', '=', fromId)
    .where('quantity', '=', row.quantity)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict(SERVICE_MESSAGES.tooManyUnits, 'units_gone');
}
