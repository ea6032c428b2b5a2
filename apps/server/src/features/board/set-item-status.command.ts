import { PostgresAdapter, sql, type QueryCreator } from 'kysely';
import type { OrderItem, SessionUser } from '@comanda/contract';
import { mayMoveStationItems, type ItemStatus } from '@comanda/domain';
import { mutate } from '../../http/transaction.ts';
import { IdempotentReplay } from '../../http/idempotency.ts';
import { auditInsert } from '../../http/audit.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { findOpenOrderItem, touchOrderRow } from '../../model/orders/order-repository.ts';
import { presentItem } from '../../model/orders/order-presenter.ts';
import { boardLineOf } from '../../model/orders/board-lines.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { MESSAGES } from '../../http/messages.ts';
import { lockOpenOrder } from '../../model/orders/order-access.ts';
import type { WriteContext } from '../../http/request-context.ts';
import type { Emit, Trx } from '../../http/transaction.ts';
import type { Database, OrderItemRow } from '../../db/schema.ts';
import { compiledOnce, firstRow } from '../../db/compiled.ts';
import { sessionOkCall, withSessionChecked, type SessionToCheck } from '../../auth/sessions.ts';

export const BOARD_MESSAGES = MESSAGES.board;

export interface SetItemStatusInput {
  orderId: string;
  itemId: string;
  status: ItemStatus;
  actor: SessionUser;
}

/**
 * Moves one item to any status (SPEC §4 allows going backwards). Kitchen and bar may only
 * touch their own station's items; deleted items and closed orders never change. With a session
 * the route took as remembered (PostgreSQL), the first read checks it; when it does not hold, the
 * transaction is rolled back and the session read again before the move is tried once more.
 */
export function setItemStatus(ctx: WriteContext, input: SetItemStatusInput, session?: SessionToCheck): Promise<OrderItem> {
  return withSessionChecked(input.actor, session, (actor, checked) => moveOnce(ctx, { ...input, actor }, checked));
}

/** Thrown inside the move's transaction so that it (and a key's claim) rolls back before the session is read. */
const SESSION_NOT_HELD = new Error('session not held');

/** One try of the move: null when a remembered session did not hold (nothing was kept). */
async function moveOnce(ctx: WriteContext, input: SetItemStatusInput, session: SessionToCheck | undefined): Promise<OrderItem | null> {
  try {
    return await mutate(ctx, (trx, emit) => move(ctx, trx, emit, input, session));
  } catch (error) {
    if (error === SESSION_NOT_HELD) return null;
    // A repeat's key met before the first read: its stored answer goes only to a session that holds.
    if (session && error instanceof IdempotentReplay) await session.read();
    throw error;
  }
}

async function move(ctx: WriteContext, trx: Trx, emit: Emit, input: SetItemStatusInput, session: SessionToCheck | undefined) {
  const now = ctx.clock.now();
  const found = await findOpenOrderItem(trx, input.orderId, input.itemId, session && sessionOkCall(session, input.actor, now));
  if (!found) throw SESSION_NOT_HELD;
  const { order, item } = found;
  if (!item) throw notFound(BOARD_MESSAGES.itemNotFound);
  // The route admits admin, kitchen and bar staff; the board shows the same rule (domain).
  if (!mayMoveStationItems(input.actor.role, item.station)) throw forbidden(BOARD_MESSAGES.otherStation);
  if (item.is_deleted === 1) throw conflict(BOARD_MESSAGES.itemDeleted, 'item_deleted');
  // A repeated click is not a change: no new version, no audit entry, no retention reset.
  if (item.status === input.status) return presentItem(item);

  const updated = await lockOrderMovingLine(trx, { orderId: input.orderId, itemId: item.id, status: input.status, now });
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
}

type LineMove = { orderId: string; itemId: string; status: ItemStatus; now: number };

const moveLine = (db: QueryCreator<Database>, a: LineMove) =>
  db.updateTable('order_items').set({ status: a.status, updated_at: a.now }).where('id', '=', a.itemId);

/**
 * PostgreSQL: the order's lock and the line's UPDATE in one statement. The line's WHERE reads the
 * lock's CTE, a one-time filter, so the order's row lock is taken before the line's, as every
 * item change takes them.
 */
const lockAndMoveStatement = compiledOnce((db, a: LineMove) =>
  moveLine(
    db.with('locked', (qc) =>
      qc.updateTable('orders').set({ updated_at: a.now }).where('id', '=', a.orderId).where('status', '=', 'activo').returning('id'),
    ) as unknown as QueryCreator<Database>,
    a,
  )
    .where(sql<boolean>`EXISTS (SELECT 1 FROM locked)`)
    .returningAll(),
);

/**
 * The order's row lock first, as every other item change takes it (an add raising this very line
 * holds the order, then the line, so the other way round could deadlock on PostgreSQL; and only
 * statements after the lock see every line committed before it, so touchOrderRow's subtotal is
 * never stale), then the line moved. One statement on PostgreSQL, two on SQLite.
 */
async function lockOrderMovingLine(trx: Trx, a: LineMove): Promise<OrderItemRow> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    const row = await firstRow(lockAndMoveStatement, trx, a);
    if (row) return row;
    await lockOpenOrder(trx, a.orderId, a.now); // refuses: the order is no longer activo
    throw new Error(`setItemStatus: line ${a.itemId} not moved`);
  }
  await lockOpenOrder(trx, a.orderId, a.now);
  return moveLine(trx, a).returningAll().executeTakeFirstOrThrow();
}
