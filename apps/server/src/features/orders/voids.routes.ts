import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CancelOrderBodySchema,
  DeliverItemsBodySchema,
  OrderIdParamsSchema,
  OrderItemParamsSchema,
  OrderResponseSchema,
  VoidItemBodySchema,
} from '@comanda/contract';
import { STAFF_FLOOR } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { cancelOrder } from './cancel-order.command.ts';
import { deliverItems } from './deliver-items.command.ts';
import { voidItem } from './void-item.command.ts';

const floor = { access: STAFF_FLOOR };

/** Voids with reasons, cancelled orders and deliveries from the order screen. */
export const orderServiceRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/orders/:orderId/items/:itemId/void',
    { config: floor, schema: { params: OrderItemParamsSchema, body: VoidItemBodySchema, response: { 200: OrderResponseSchema } } },
    async (request) => ({
      order: await voidItem(request.ctx, requireUser(request.user), {
        ...request.params,
        ...request.body,
        ip: request.ip,
        sessionHash: request.sessionHash,
      }),
    }),
  );

  app.post(
    '/api/orders/:orderId/cancel',
    { config: floor, schema: { params: OrderIdParamsSchema, body: CancelOrderBodySchema, response: { 200: OrderResponseSchema } } },
    async (request) => ({
      order: await cancelOrder(request.ctx, requireUser(request.user), {
        orderId: request.params.orderId,
        ...request.body,
        ip: request.ip,
        sessionHash: request.sessionHash,
      }),
    }),
  );

  app.post(
    '/api/orders/:orderId/deliver',
    { config: floor, schema: { params: OrderIdParamsSchema, body: DeliverItemsBodySchema, response: { 200: OrderResponseSchema } } },
    async (request) => ({
      order: await deliverItems(request.ctx, requireUser(request.user), { orderId: request.params.orderId, itemIds: request.body.itemIds }),
    }),
  );
};
