import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CfdiBodySchema,
  CfdiPreviewResponseSchema,
  CountBodySchema,
  CountResponseSchema,
  IdSchema,
  InsumoBodySchema,
  InsumoResponseSchema,
  InsumosResponseSchema,
  LowStockResponseSchema,
  MermaBodySchema,
  OkSchema,
  ProductRecipeBodySchema,
  PurchaseBodySchema,
  PurchaseResponseSchema,
  RecipeBodySchema,
  RecipesResponseSchema,
  TransferBodySchema,
  VarianceQuerySchema,
  VarianceResponseSchema,
} from '@comanda/contract';
import type { Role } from '@comanda/contract';
import { ADMIN } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { listInsumos, listRecipes, listWarehouses } from './inventory-store.ts';
import { recordCount, recordMerma, recordPurchase, retireInsumo, saveInsumo, setRecipe, transferStock } from './inventory-commands.ts';
import { loadPurchase, previewCfdi, purchaseFromCfdi } from './purchases.ts';
import { lowStock, varianceReport } from './variance.query.ts';
import { varianceXlsx } from './variance-xlsx.ts';

const ParamsSchema = z.strictObject({ id: IdSchema });
/** The bar counts and records its merma; everything else is the admin's. */
const BAR: readonly Role[] = ['admin', 'barra'];

/** Inventario (docs/decisions/0055-inventory-ledger.md): insumos, recipes, purchases, transfers, merma, counts, variance. */
export const inventoryRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get('/api/inventory/insumos', { config: { access: BAR }, schema: { response: { 200: InsumosResponseSchema } } }, async () => ({
    insumos: await listInsumos(ctx.db.db),
    warehouses: await listWarehouses(ctx.db.db),
  }));

  app.post(
    '/api/inventory/insumos',
    { config: { access: ADMIN }, schema: { body: InsumoBodySchema, response: { 201: InsumoResponseSchema } } },
    async (request, reply) =>
      reply.code(201).send({ insumo: await saveInsumo(request.ctx, requireUser(request.user), null, request.body) }),
  );

  app.put(
    '/api/inventory/insumos/:id',
    { config: { access: ADMIN }, schema: { params: ParamsSchema, body: InsumoBodySchema, response: { 200: InsumoResponseSchema } } },
    async (request) => ({ insumo: await saveInsumo(request.ctx, requireUser(request.user), request.params.id, request.body) }),
  );

  app.delete(
    '/api/inventory/insumos/:id',
    { config: { access: ADMIN }, schema: { params: ParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      await retireInsumo(request.ctx, requireUser(request.user), request.params.id);
      return { ok: true as const };
    },
  );

  app.get('/api/inventory/recipes', { config: { access: ADMIN }, schema: { response: { 200: RecipesResponseSchema } } }, async () =>
    listRecipes(ctx.db.db),
  );

  app.put(
    '/api/inventory/recipes/products/:id',
    {
      config: { access: ADMIN },
      schema: { params: ParamsSchema, body: ProductRecipeBodySchema, response: { 200: RecipesResponseSchema } },
    },
    async (request) => {
      const { items, autoAgotado } = request.body;
      await setRecipe(request.ctx, requireUser(request.user), { productId: request.params.id }, items, autoAgotado);
      return listRecipes(ctx.db.db);
    },
  );

  app.put(
    '/api/inventory/recipes/options/:id',
    { config: { access: ADMIN }, schema: { params: ParamsSchema, body: RecipeBodySchema, response: { 200: RecipesResponseSchema } } },
    async (request) => {
      await setRecipe(request.ctx, requireUser(request.user), { optionId: request.params.id }, request.body.items);
      return listRecipes(ctx.db.db);
    },
  );

  app.post(
    '/api/inventory/purchases',
    { config: { access: ADMIN }, schema: { body: PurchaseBodySchema, response: { 201: PurchaseResponseSchema } } },
    async (request, reply) => {
      const id = await recordPurchase(request.ctx, requireUser(request.user), request.body);
      return reply.code(201).send({ purchase: await loadPurchase(ctx.db.db, id) });
    },
  );

  app.post(
    '/api/inventory/purchases/cfdi/preview',
    { config: { access: ADMIN }, schema: { body: CfdiBodySchema, response: { 200: CfdiPreviewResponseSchema } } },
    async (request) => ({ invoice: await previewCfdi(ctx.db.db, request.body.xml) }),
  );

  app.post(
    '/api/inventory/purchases/cfdi',
    { config: { access: ADMIN }, schema: { body: CfdiBodySchema, response: { 201: PurchaseResponseSchema } } },
    async (request, reply) => {
      const id = await purchaseFromCfdi(request.ctx, requireUser(request.user), request.body);
      return reply.code(201).send({ purchase: await loadPurchase(ctx.db.db, id) });
    },
  );

  app.post(
    '/api/inventory/transfers',
    { config: { access: ADMIN }, schema: { body: TransferBodySchema, response: { 200: OkSchema } } },
    async (request) => {
      await transferStock(request.ctx, requireUser(request.user), request.body);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/inventory/merma',
    { config: { access: BAR }, schema: { body: MermaBodySchema, response: { 200: OkSchema } } },
    async (request) => {
      await recordMerma(request.ctx, requireUser(request.user), request.body);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/inventory/counts',
    { config: { access: BAR }, schema: { body: CountBodySchema, response: { 201: CountResponseSchema } } },
    async (request, reply) => reply.code(201).send({ count: await recordCount(request.ctx, requireUser(request.user), request.body) }),
  );

  app.get(
    '/api/inventory/variance',
    { config: { access: ADMIN }, schema: { querystring: VarianceQuerySchema, response: { 200: VarianceResponseSchema } } },
    async (request) => varianceReport(ctx, request.query),
  );

  app.get(
    '/api/inventory/variance.xlsx',
    { config: { access: ADMIN }, schema: { querystring: VarianceQuerySchema } },
    async (request, reply) => {
      const report = await varianceReport(ctx, request.query);
      const name = `diferencias-${request.query.date ?? request.query.from ?? 'hoy'}`;
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${name}.xlsx"`)
        .send(await varianceXlsx(report, 'Diferencias de inventario'));
    },
  );

  app.get('/api/inventory/low-stock', { config: { access: ADMIN }, schema: { response: { 200: LowStockResponseSchema } } }, async () =>
    lowStock(ctx),
  );
};
