import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdjustmentParamsSchema,
  CreateAdjustmentBodySchema,
  OrderIdParamsSchema,
  OrderResponseSchema,
  RemoveAdjustmentBodySchema,
} from '@comanda/contract';
import { STAFF_FLOOR } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { addAdjustment } from './add-adjustment.command.ts';
import { removeAdjustment } from './remove-adjustment.command.ts';

const floor = { access: STAFF_FLOOR };

/** Discounts and comps (cortesías) of an open order: a waiter on their own order, or an admin; always an admin PIN. */
export const adjustmentsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/orders/:orderId/adjustments',
    { config: floor, schema: { params: OrderIdParamsSchema, body: CreateAdjustmentBodySchema, response: { 200: OrderResponseSchema } } },
    async (request) => ({
      order: await addAdjustment(request.ctx, requireUser(request.user), {
        orderId: request.params.orderId,
        body: request.body,
        ip: request.ip,
        sessionHash: request.sessionHash,
      }),
    }),
  );

  app.delete(
    '/api/orders/:orderId/adjustments/:adjustmentId',
    { config: floor, schema: { params: AdjustmentParamsSchema, body: RemoveAdjustmentBodySchema, response: { 200: OrderResponseSchema } } },
    async (request) => ({
      order: await removeAdjustment(request.ctx, requireUser(request.user), {
        ...request.params,
        pin: request.body.pin,
        ip: request.ip,
        sessionHash: request.sessionHash,
      }),
    }),
  );
};
