import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IdSchema,
  OkSchema,
  PRODUCT_REQUIRED,
  ProductAvailabilityBodySchema,
  ProductBodySchema,
  ProductResponseSchema,
  ProductsQuerySchema,
  ProductsResponseSchema,
  TopSellersResponseSchema,
} from '@comanda/contract';
import { slotAt, TOP_SELLERS_DAYS, TOP_SELLERS_LIMIT } from '@comanda/domain';
import { businessTimezone } from '../../model/reports/rollups.ts';
import { ADMIN, BOARD_ROLES, STAFF_FLOOR } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { errorHandler } from '../../http/error-handler.ts';
import { createProduct, deleteProduct, setProductAvailability, updateProduct } from './product-commands.ts';
import { listProducts, topSellers } from './product-store.ts';

const ParamsSchema = z.strictObject({ id: IdSchema });

export const productsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  // The product form's one message for a missing name or price reads as-is, without the generic prefix.
  app.setErrorHandler<FastifyError>((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error) && error.validation.some((v) => v.message === PRODUCT_REQUIRED)) {
      return reply.code(400).send({ error: { code: 'validation', message: PRODUCT_REQUIRED } });
    }
    return errorHandler(error, request, reply);
  });

  // Every signed-in role reads the catalogue: waiters pick from it, boards label with it.
  app.get(
    '/api/products',
    { config: { access: 'any' }, schema: { querystring: ProductsQuerySchema, response: { 200: ProductsResponseSchema } } },
    async (request) => ({
      products: await listProducts(ctx.db.db, request.query.available === '1'),
    }),
  );

  // The picker's "Más vendidos" row: whoever takes orders reads it.
  app.get(
    '/api/products/top-sellers',
    { config: { access: STAFF_FLOOR }, schema: { response: { 200: TopSellersResponseSchema } } },
    async () => {
      const timezone = await businessTimezone(ctx, ctx.db.db);
      const since = slotAt(ctx.clock.now() - TOP_SELLERS_DAYS * 24 * 60 * 60 * 1000, timezone);
      return { productIds: await topSellers(ctx.db.db, since, TOP_SELLERS_LIMIT) };
    },
  );

  app.post(
    '/api/products',
    { config: { access: ADMIN }, schema: { body: ProductBodySchema, response: { 201: ProductResponseSchema } } },
    async (request, reply) => {
      const product = await createProduct(request.ctx, requireUser(request.user), request.body);
      return reply.code(201).send({ product });
    },
  );

  app.put(
    '/api/products/:id',
    { config: { access: ADMIN }, schema: { params: ParamsSchema, body: ProductBodySchema, response: { 200: ProductResponseSchema } } },
    async (request) => ({
      product: await updateProduct(request.ctx, requireUser(request.user), request.params.id, request.body),
    }),
  );

  // Agotado in one tap: the admin any product, the kitchen and the bar their own station's.
  app.patch(
    '/api/products/:id/availability',
    {
      config: { access: BOARD_ROLES },
      schema: { params: ParamsSchema, body: ProductAvailabilityBodySchema, response: { 200: ProductResponseSchema } },
    },
    async (request) => ({
      product: await setProductAvailability(request.ctx, requireUser(request.user), request.params.id, request.body.available),
    }),
  );

  app.delete(
    '/api/products/:id',
    { config: { access: ADMIN }, schema: { params: ParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      await deleteProduct(request.ctx, requireUser(request.user), request.params.id);
      return { ok: true as const };
    },
  );
};
