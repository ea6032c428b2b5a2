import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ChangeWaiterBodySchema,
  MergeOrderBodySchema,
  MoveItemsBodySchema,
  MoveItemsResponseSchema,
  OrderIdParamsSchema,
  OrderResponseSchema,
  ServiceWaitersResponseSchema,
  TransferOrderBodySchema,
} from '@comanda/contract';
import { STAFF_FLOOR } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { changeWaiter } from './change-waiter.command.ts';
import { mergeOrder } from './merge-order.command.ts';
import { moveItems } from './move-items.command.ts';
import { transferOrder } from './transfer-order.command.ts';

const floor = { access: STAFF_FLOOR };

/** Table service moves; each command enforces its own role rules. */
export const tableServiceRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.post(
    '/api/orders/:orderId/transfer',
    { config: floor, schema: { params: OrderIdParamsSchema, body: TransferOrderBodySchema, response: { 200: OrderResponseSchema } } },
    async (request) => ({
      order: await transferOrder(request.ctx, requireUser(request.user), {
        orderId: request.params.orderId,
        tableId: request.body.tableId,
      }),
    }),
  );

  app.post(
    '/api/orders/:orderId/waiter',
    { config: floor, schema: { params: OrderIdParamsSchema, body: ChangeWaiterBodySchema, response: { 200: OrderResponseSchema } } },
    async (request) => ({
      order: await changeWaiter(request.ctx, requireUser(request.user), {
        orderId: request.params.orderId,
        waiterId: request.body.waiterId,
        pin: request.body.pin,
        ip: request.ip,
        sessionHash: request.sessionHash,
      }),
    }),
  );

  app.post(
    '/api/orders/:orderId/merge',
    { config: floor, schema: { params: OrderIdParamsSchema, body: MergeOrderBodySchema, response: { 200: OrderResponseSchema } } },
    async (request) => ({
      order: await mergeOrder(request.ctx, requireUser(request.user), {
        orderId: request.params.orderId,
        targetTableId: request.body.targetTableId,
      }),
    }),
  );

  app.post(
    '/api/orders/:orderId/move-items',
    { config: floor, schema: { params: OrderIdParamsSchema, body: MoveItemsBodySchema, response: { 200: MoveItemsResponseSchema } } },
    async (request) => moveItems(request.ctx, requireUser(request.user), { orderId: request.params.orderId, ...request.body }),
  );

  // Who a table can be handed to: active waiters and admins (names only).
  app.get('/api/service/waiters', { config: floor, schema: { response: { 200: ServiceWaitersResponseSchema } } }, async () => {
    const rows = await ctx.db.db
      .selectFrom('users')
      .select(['id', 'display_name', 'role'])
      .where('active', '=', 1)
      .where('role', 'in', ['waiter', 'admin'])
      .orderBy('display_name')
      .execute();
    return { waiters: rows.map((r) => ({ id: r.id, displayName: r.display_name, role: r.role as 'waiter' | 'admin' })) };
  });
};
