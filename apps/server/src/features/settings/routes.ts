import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { GeneralConfigBodySchema, GeneralConfigSchema, PublicConfigSchema } from '@comanda/contract';
import { ADMIN } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { saveGeneralConfig } from './save-general.command.ts';
import { getGeneralConfig } from '../../model/config-store.ts';

export const settingsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  // The login page shows the business name and logo before anyone signs in.
  app.get('/api/config/public', { config: { access: 'public' }, schema: { response: { 200: PublicConfigSchema } } }, async () => {
    const { name, logoUrl } = await getGeneralConfig(ctx.db.db);
    return { name, logoUrl };
  });

  app.get('/api/config/general', { config: { access: 'any' }, schema: { response: { 200: GeneralConfigSchema } } }, async () =>
    getGeneralConfig(ctx.db.db, ctx.config.BUSINESS_TIMEZONE),
  );

  app.put(
    '/api/config/general',
    { config: { access: ADMIN }, schema: { body: GeneralConfigBodySchema, response: { 200: GeneralConfigSchema } } },
    async (request) => saveGeneralConfig(ctx, requireUser(request.user), request.body),
  );
};
