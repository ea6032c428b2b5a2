import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MenuImportBodySchema, MenuImportResultSchema } from '@comanda/contract';
import { cents } from '@comanda/domain';
import { ADMIN } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { listProducts } from './product-store.ts';
import { importMenu } from './import-menu.command.ts';
import { menuCsv, productGroupNames } from './menu-sheet.ts';

export const menuCsvRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get('/api/menu/export.csv', { config: { access: ADMIN } }, async (_request, reply) => {
    const [products, groups] = await Promise.all([listProducts(ctx.db.db, false), productGroupNames(ctx.db.db)]);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="menu.csv"')
      .header('cache-control', 'no-store')
      .send(menuCsv(products.map((p) => ({ ...p, price: cents(p.price), modifierGroups: groups.get(p.id) ?? [] }))));
  });

  // A preview (dryRun) and the import itself; the import writes everything or nothing.
  app.post(
    '/api/menu/import',
    { config: { access: ADMIN }, bodyLimit: 1_100_000, schema: { body: MenuImportBodySchema, response: { 200: MenuImportResultSchema } } },
    // Rows with errors are an answer, not a failure: the preview lists them by line (applied: false).
    async (request) => importMenu(request.ctx, requireUser(request.user), request.body.csv, request.body.dryRun),
  );
};
