import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ActivePromotionsResponseSchema,
  IdSchema,
  OkSchema,
  PromotionBodySchema,
  PromotionResponseSchema,
  PromotionsResponseSchema,
} from '@comanda/contract';
import { ADMIN } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { activePromotions, listPromotionRules } from '../../model/orders/promotions.ts';
import { createPromotion, deletePromotion, updatePromotion } from './promotion-commands.ts';

const ParamsSchema = z.strictObject({ id: IdSchema });

/** Promotions (happy hour), decision 0028: the admin manages the rules; every screen that sells reads what is on now. */
export const promotionsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get('/api/promotions', { config: { access: ADMIN }, schema: { response: { 200: PromotionsResponseSchema } } }, async () => ({
    promotions: await listPromotionRules(ctx.db.db),
  }));

  // The picker's PROMO badges: what each product costs now under the promotion that prices it.
  app.get(
    '/api/promotions/active',
    { config: { access: 'any' }, schema: { response: { 200: ActivePromotionsResponseSchema } } },
    async () => ({ promotions: await activePromotions(ctx, ctx.db.db) }),
  );

  app.post(
    '/api/promotions',
    { config: { access: ADMIN }, schema: { body: PromotionBodySchema, response: { 201: PromotionResponseSchema } } },
    async (request, reply) =>
      reply.code(201).send({ promotion: await createPromotion(request.ctx, requireUser(request.user), request.body) }),
  );

  app.put(
    '/api/promotions/:id',
    { config: { access: ADMIN }, schema: { params: ParamsSchema, body: PromotionBodySchema, response: { 200: PromotionResponseSchema } } },
    async (request) => ({ promotion: await updatePromotion(request.ctx, requireUser(request.user), request.params.id, request.body) }),
  );

  app.delete(
    '/api/promotions/:id',
    { config: { access: ADMIN }, schema: { params: ParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      await deletePromotion(request.ctx, requireUser(request.user), request.params.id);
      return { ok: true as const };
    },
  );
};
