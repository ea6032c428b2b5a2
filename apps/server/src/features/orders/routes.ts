import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AddItemBodySchema,
  AddUnitsBodySchema,
  DeleteItemBodySchema,
  OrderIdParamsSchema,
  OrderItemParamsSchema,
  OrderResponseSchema,
  OrderWriteResponseSchema,
  UpdateOrderBodySchema,
} from '@comanda/contract';
import { STAFF_FLOOR } from '../../http/access.ts';
import { sessionToCheck } from '../../auth/sessions.ts';
import { requireUser } from '../../http/context.ts';
import { notFound } from '../../http/errors.ts';
import { findOrderRow, loadOrderOf, ORDER_NOT_FOUND } from '../../model/orders/order-repository.ts';
import { assertMayWorkOrder } from '../../model/orders/order-access.ts';
import { answerItemWrite } from '../../model/orders/order-change.ts';
import { addItem } from './add-item.command.ts';
import { addUnits } from './add-units.command.ts';
import { deleteItem } from './delete-item.command.ts';
import { updateOrder } from './update-order.command.ts';

const floor = { access: STAFF_FLOOR };

export const ordersRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get(
    '/api/orders/:orderId',
    { config: floor, schema: { params: OrderIdParamsSchema, response: { 200: OrderResponseSchema } } },
    async (request) => {
      const user = requireUser(request.user);
      const row = await findOrderRow(ctx.db.db, request.params.orderId);
      if (!row) throw notFound(ORDER_NOT_FOUND);
      assertMayWorkOrder(user, row);
      return { order: await loadOrderOf(ctx.db.db, row) };
    },
  );

  app.post(
    '/api/orders/:orderId/items',
    // addItem's first effect is its transaction: a repeat's key is met by its claim there.
    // On PostgreSQL its plain case checks the caller's session in its own statement.
    {
      config: { ...floor, idempotency: 'claim-first', session: 'checked-in-statement' },
      schema: { params: OrderIdParamsSchema, body: AddItemBodySchema, response: { 200: OrderWriteResponseSchema } },
    },
    async (request) => {
      const input = { orderId: request.params.orderId, ...request.body };
      const write = await addItem(
        request.ctx,
        requireUser(request.user),
        input,
        request.sessionRead ? undefined : sessionToCheck(ctx, request, floor.access),
      );
      return answerItemWrite(ctx.db.db, request.headers.prefer, write);
    },
  );

  app.post(
    '/api/orders/:orderId/items/:itemId/units',
    { config: floor, schema: { params: OrderItemParamsSchema, body: AddUnitsBodySchema, response: { 200: OrderWriteResponseSchema } } },
    async (request) => {
      const write = await addUnits(request.ctx, requireUser(request.user), { ...request.params, quantity: request.body.quantity });
      return answerItemWrite(ctx.db.db, request.headers.prefer, write);
    },
  );

  app.post(
    '/api/orders/:orderId/items/:itemId/delete',
    { config: floor, schema: { params: OrderItemParamsSchema, body: DeleteItemBodySchema, response: { 200: OrderWriteResponseSchema } } },
    async (request) => {
      const write = await deleteItem(request.ctx, requireUser(request.user), {
        ...request.params,
        pin: request.body.pin,
        ip: request.ip,
        sessionHash: request.sessionHash,
      });
      return answerItemWrite(ctx.db.db, request.headers.prefer, write);
    },
  );

  app.patch(
    '/api/orders/:orderId',
    { config: floor, schema: { params: OrderIdParamsSchema, body: UpdateOrderBodySchema, response: { 200: OrderResponseSchema } } },
    async (request) => ({ order: await updateOrder(request.ctx, requireUser(request.user), request.params.orderId, request.body) }),
  );
};
