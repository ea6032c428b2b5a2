import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  EqualSharesBodySchema,
  OpenTabBodySchema,
  OrderIdParamsSchema,
  OrderResponseSchema,
  SplitChecksBodySchema,
  SplitChecksResponseSchema,
  TableChecksResponseSchema,
  TableIdParamsSchema,
} from '@comanda/contract';
import { STAFF_FLOOR } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { listTableChecks } from './table-checks.query.ts';
import { openTab } from './open-tab.command.ts';
import { splitChecks } from './split-checks.command.ts';
import { splitEqualShares } from './equal-shares.command.ts';

const floor = { access: STAFF_FLOOR };

/** Separate checks and bar tabs (docs/decisions/0014-checks-are-orders.md). */
export const checksRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.post(
    '/api/orders/:orderId/checks',
    { config: floor, schema: { params: OrderIdParamsSchema, body: SplitChecksBodySchema, response: { 200: SplitChecksResponseSchema } } },
    async (request) => ({ orders: await splitChecks(request.ctx, requireUser(request.user), request.params.orderId, request.body) }),
  );

  app.post(
    '/api/orders/:orderId/shares',
    { config: floor, schema: { params: OrderIdParamsSchema, body: EqualSharesBodySchema, response: { 200: SplitChecksResponseSchema } } },
    async (request) => ({
      orders: await splitEqualShares(request.ctx, requireUser(request.user), request.params.orderId, request.body.count),
    }),
  );

  app.get(
    '/api/tables/:tableId/checks',
    { config: floor, schema: { params: TableIdParamsSchema, response: { 200: TableChecksResponseSchema } } },
    async (request) => ({ checks: await listTableChecks(ctx.db.db, requireUser(request.user), request.params.tableId) }),
  );

  app.post(
    '/api/tables/:tableId/tabs',
    { config: floor, schema: { params: TableIdParamsSchema, body: OpenTabBodySchema, response: { 200: OrderResponseSchema } } },
    async (request) => ({ order: await openTab(request.ctx, requireUser(request.user), request.params.tableId, request.body.name) }),
  );
};
