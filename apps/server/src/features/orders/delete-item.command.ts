import { PostgresAdapter } from 'kysely';
import type { SessionUser } from '@comanda/contract';
import { PIN_MESSAGES } from '@comanda/domain';
import { mutate } from '../../http/transaction.ts';
import { auditInsert } from '../../http/audit.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { verifyPin, type VerifyPinInput } from '../../auth/verify-pin.ts';
import { mayQuickDelete, quickDeleteItem } from './quick-delete.ts';
import { comandaPrintedFor, enqueuePrintedCancelation, stationPrintersColumn, stationPrintersOf } from '../../model/printing/enqueue.ts';
import type { Rider } from '../../db/compiled.ts';
import { touchOrderRow } from '../../model/orders/order-repository.ts';
import { orderChangeOf, type ItemWrite } from '../../model/orders/order-change.ts';
import { dropLineAdjustments, lineAdjusted } from '../../model/orders/adjustments-follow.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { ORDER_MESSAGES } from '../../model/orders/order-access.ts';
import { lockUnfrozenOrder, requireOrderToEdit, thawTimedOut } from '../../model/orders/order-guards.ts';
import type { WriteContext } from '../../http/request-context.ts';

type DeleteInput = { orderId: string; itemId: string; pin: string; ip: string; sessionHash?: string | null };

/** The PIN a delete asks for: only an admin's authorises (SPEC §5). */
function deletePin(user: SessionUser, input: DeleteInput): VerifyPinInput {
  // Another user's PIN is answered exactly like a wrong one, so guessing cannot learn whose PINs
  // exist; the caller's own PIN gets the spec's message.
  return {
    pin: input.pin,
    actorId: user.id,
    sessionHash: input.sessionHash ?? null,
    ip: input.ip,
    purpose: 'delete-item',
    roles: ['admin'],
    ownPinRefused: new AppError(403, 'not_admin_pin', PIN_MESSAGES.notAdmin),
  };
}

/**
 * Soft delete authorised by an admin PIN (SPEC §5): the row stays for the audit trail,
 * flagged with who authorised it and when, and drops out of every count and total. On PostgreSQL
 * the plain case is one statement (quick-delete.ts); anything else runs here in TypeScript.
 */
export async function deleteItem(ctx: WriteContext, user: SessionUser, input: DeleteInput): Promise<ItemWrite> {
  if (mayQuickDelete(ctx, user)) {
    const quick = await quickDeleteItem(ctx, user, input, deletePin(user, input));
    if (quick) return quick;
  }
  return deleteItemInTypeScript(ctx, user, input);
}

/**
 * The delete as TypeScript: every case, every refusal, and the reference the agreement tests hold
 * PostgreSQL's one statement to. A new reason to refuse goes into the domain's plain case
 * (isPlainDelete) and comanda_quick_delete (db/functions/quick-delete.ts), or the agreement test fails.
 */
export async function deleteItemInTypeScript(ctx: WriteContext, user: SessionUser, input: DeleteInput): Promise<ItemWrite> {
  // Ownership first, so a waiter cannot probe PINs through someone else's table.
  const { timedOut } = await requireOrderToEdit(ctx, user, input.orderId);
  const authorizer = await verifyPin(ctx, deletePin(user, input));
  if (timedOut) await thawTimedOut(ctx, input.orderId);

  const change = await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockUnfrozenOrder(trx, user, input.orderId, now);
    // The line is marked in one statement that gives its row back, whether its comanda was printed,
    // whether an adjustment is on it and the stations' printers; only when none is marked is it
    // read, to tell a line that is not there from one deleted already.
    const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
    const marked = await trx
      .updateTable('order_items')
      .set({ is_deleted: 1, deleted_by: authorizer.id, deleted_by_name: authorizer.displayName, deleted_at: now, updated_at: now })
      .where('id', '=', input.itemId)
      .where('order_id', '=', input.orderId)
      .where('is_deleted', '=', 0)
      .returningAll()
      .returning([
        comandaPrintedFor(input.orderId, input.itemId).as('printed'),
        lineAdjusted(input.itemId).as('adjusted'),
        stationPrintersColumn(postgres).as('printers'),
      ])
      .executeTakeFirst();
    if (!marked) {
      const item = await trx
        .selectFrom('order_items')
        .select('id')
        .where('id', '=', input.itemId)
        .where('order_id', '=', input.orderId)
        .executeTakeFirst();
      if (!item) throw notFound(ORDER_MESSAGES.itemNotFound);
      throw conflict(ORDER_MESSAGES.itemAlreadyDeleted, 'item_deleted');
    }
    const { printed, adjusted, printers, ...deleted } = marked;
    // The cancelation slip is made from the rows in hand; its job goes with the order's figures.
    const riders: Rider[] = [];
    if (Number(printed)) {
      const known = { printers: stationPrintersOf(printers), items: [deleted], order, defer: (job: Rider) => riders.push(job) };
      await enqueuePrintedCancelation(trx, { orderId: input.orderId, itemId: deleted.id, now, known });
    }
    if (Number(adjusted)) await dropLineAdjustments(trx, { itemIds: [deleted.id], actor: user, now, why: 'item-deleted' });
    // The audit entry goes with the order's figures: one round trip on PostgreSQL.
    const entry = auditInsert(trx, now, {
      actor: user,
      action: 'order.item-deleted',
      entity: 'order',
      entityId: input.orderId,
      authorizedBy: authorizer.id,
      data: {
        itemId: deleted.id,
        productId: deleted.product_id,
        productName: deleted.product_name,
        price: Number(deleted.product_price),
        quantity: deleted.quantity,
        status: deleted.status,
      },
    });
    const touched = await touchOrderRow(trx, input.orderId, now, [...riders, entry]);
    // A SPEC delete (no reason) leaves the boards at once: they drop the line from the event.
    emitOrderChanged(emit, input.orderId, touched.version, {
      owner: order.waiter_id,
      board: [deleted.station],
      lines: { lines: [], removed: [deleted.id] },
    });
    // With no payment or live adjustment the answer is the rows in hand, as an add's (order-change.ts).
    const answerable = touched.row && Number(touched.row.payment_count) === 0 && Number(touched.row.live_adjustments) === 0;
    return answerable ? orderChangeOf(touched.row!, [deleted]) : undefined;
  });
  return { orderId: input.orderId, itemIds: [input.itemId], change };
}
