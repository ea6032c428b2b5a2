import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  EmulatorResponseSchema,
  EmulatorStateBodySchema,
  OkSchema,
  OrderIdParamsSchema,
  PrintAlertsResponseSchema,
  PrinterBodySchema,
  PrinterIdParamsSchema,
  PrinterPatchSchema,
  PrinterResponseSchema,
  PrintersResponseSchema,
  ReprintResponseSchema,
} from '@comanda/contract';
import { ADMIN, BOARD_ROLES, STAFF_FLOOR } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import {
  createPrinter,
  deletePrinter,
  emulatorView,
  listAlerts,
  listPrinters,
  printTest,
  reprintOrder,
  setEmulatorState,
  updatePrinter,
} from './printers.commands.ts';

export const printingRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const params = PrinterIdParamsSchema;

  app.get('/api/printers', { config: { access: ADMIN }, schema: { response: { 200: PrintersResponseSchema } } }, async () => ({
    printers: await listPrinters(ctx.db.db),
  }));

  app.post(
    '/api/printers',
    { config: { access: ADMIN }, schema: { body: PrinterBodySchema, response: { 200: PrinterResponseSchema } } },
    async (request) => ({ printer: await createPrinter(request.ctx, requireUser(request.user), request.body) }),
  );

  app.patch(
    '/api/printers/:printerId',
    { config: { access: ADMIN }, schema: { params, body: PrinterPatchSchema, response: { 200: PrinterResponseSchema } } },
    async (request) => ({ printer: await updatePrinter(request.ctx, requireUser(request.user), request.params.printerId, request.body) }),
  );

  app.delete(
    '/api/printers/:printerId',
    { config: { access: ADMIN }, schema: { params, response: { 200: OkSchema } } },
    async (request) => {
      await deletePrinter(request.ctx, requireUser(request.user), request.params.printerId);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/printers/:printerId/test',
    { config: { access: ADMIN }, schema: { params, response: { 200: OkSchema } } },
    async (request) => {
      await printTest(request.ctx, requireUser(request.user), request.params.printerId);
      return { ok: true as const };
    },
  );

  // The alerts each board must act on: admin all, kitchen cocina, barra barra.
  app.get(
    '/api/printers/alerts',
    { config: { access: BOARD_ROLES }, schema: { response: { 200: PrintAlertsResponseSchema } } },
    async (request) => ({
      alerts: await listAlerts(ctx, requireUser(request.user)),
    }),
  );

  app.get('/api/printers/emulator', { config: { access: ADMIN }, schema: { response: { 200: EmulatorResponseSchema } } }, async () => ({
    emulators: await emulatorView(ctx),
  }));

  app.post(
    '/api/printers/emulator/:printerId',
    { config: { access: ADMIN }, schema: { params, body: EmulatorStateBodySchema, response: { 200: OkSchema } } },
    async (request) => {
      await setEmulatorState(request.ctx, requireUser(request.user), request.params.printerId, request.body.state);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/orders/:orderId/reprint',
    { config: { access: STAFF_FLOOR }, schema: { params: OrderIdParamsSchema, response: { 200: ReprintResponseSchema } } },
    async (request) => ({ jobs: await reprintOrder(request.ctx, requireUser(request.user), request.params.orderId) }),
  );
};
