import type { Order, SessionUser, UpdateOrderBody } from '@comanda/contract';
import { normalizeOptionalText } from '@comanda/domain';
import type { OrderUpdate } from '../../db/schema.ts';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { forbidden } from '../../http/errors.ts';
import { loadOrder, touchOrder } from '../../model/orders/order-repository.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { lockWorkableOrder, ORDER_MESSAGES } from '../../model/orders/order-access.ts';
import type { WriteContext } from '../../http/request-context.ts';

/** Guest count, table name and internal comments; texts are trimmed and blank means null. */
export async function updateOrder(ctx: WriteContext, user: SessionUser, orderId: string, body: UpdateOrderBody): Promise<Order> {
  if (body.adminComments !== undefined && user.role !== 'admin') throw forbidden(ORDER_MESSAGES.adminCommentsOnlyAdmin);
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const before = await lockWorkableOrder(trx, user, orderId, now);
    const changes: OrderUpdate = {};
    if (body.peopleCount !== undefined) changes.people_count = body.peopleCount;
    if (body.tableName !== undefined) changes.table_name = normalizeOptionalText(body.tableName);
    if (body.adminComments !== undefined) changes.admin_comments = normalizeOptionalText(body.adminComments);
    await trx.updateTable('orders').set(changes).where('id', '=', orderId).execute();
    const version = await touchOrder(trx, orderId, now);
    await audit(trx, now, {
      actor: user,
      action: 'order.updated',
      entity: 'order',
      entityId: orderId,
      data: {
        before: { peopleCount: before.people_count, tableName: before.table_name, adminComments: before.admin_comments },
        after: { peopleCount: changes.people_count, tableName: changes.table_name, adminComments: changes.admin_comments },
      },
    });
    // Board cards show the table name, so a rename reaches the boards too.
    emitOrderChanged(emit, orderId, version, { owner: before.waiter_id, board: body.tableName !== undefined });
  });
  return loadOrder(ctx.db.db, orderId);
}
