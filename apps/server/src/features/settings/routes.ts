import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  FiscalSettingsBodySchema,
  FiscalSettingsSchema,
  GeneralConfigBodySchema,
  GeneralConfigSchema,
  MenuConfigBodySchema,
  MenuConfigSchema,
  PublicConfigSchema,
} from '@comanda/contract';
import { ADMIN } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { saveGeneralConfig } from './save-general.command.ts';
import { getGeneralConfig, getMenuConfig } from '../../model/config-store.ts';
import { saveMenuConfig } from './save-menu.command.ts';
import { saveFiscalSettings } from './fiscal.command.ts';
import { getFiscalSettings } from '../../model/fiscal-store.ts';

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
    async (request) => saveGeneralConfig(request.ctx, requireUser(request.user), request.body),
  );

  // The picker's order of categories: every screen that shows the menu reads it.
  app.get('/api/config/menu', { config: { access: 'any' }, schema: { response: { 200: MenuConfigSchema } } }, async () =>
    getMenuConfig(ctx.db.db),
  );

  // Configuración › Datos fiscales: the admin's alone (RFC, régimen, lugar de expedición, default IVA, series).
  app.get('/api/config/fiscal', { config: { access: ADMIN }, schema: { response: { 200: FiscalSettingsSchema } } }, async () =>
    getFiscalSettings(ctx.db.db),
  );

  app.put(
    '/api/config/fiscal',
    { config: { access: ADMIN }, schema: { body: FiscalSettingsBodySchema, response: { 200: FiscalSettingsSchema } } },
    async (request) => saveFiscalSettings(request.ctx, requireUser(request.user), request.body),
  );

  app.put(
    '/api/config/menu',
    { config: { access: ADMIN }, schema: { body: MenuConfigBodySchema, response: { 200: MenuConfigSchema } } },
    async (request) => saveMenuConfig(request.ctx, requireUser(request.user), request.body),
  );
};
