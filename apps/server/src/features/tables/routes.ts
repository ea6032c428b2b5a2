import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  OkSchema,
  OrderResponseSchema,
  TableIdParamsSchema,
  TableNumberBodySchema,
  TableResponseSchema,
  TablesResponseSchema,
} from '@comanda/contract';
import { ADMIN, STAFF_FLOOR } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { notFound } from '../../http/errors.ts';
import { loadOrderOf, ORDER_NOT_FOUND } from '../../model/orders/order-repository.ts';
import { assertMayWorkOrder } from '../../model/orders/order-access.ts';
import { listTables } from './list-tables.query.ts';
import { sessionOkCall, sessionToCheck, withSessionChecked } from '../../auth/sessions.ts';
import { openTable } from './open-table.command.ts';
import { createTable, deleteTable, renumberTable } from './manage-tables.command.ts';
import { releaseTable } from './release-table.command.ts';

export const tablesRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const params = TableIdParamsSchema;

  // Every phone reads the list after its own writes: on PostgreSQL one statement that checks the session too.
  app.get(
    '/api/tables',
    { config: { access: STAFF_FLOOR, session: 'checked-in-statement' }, schema: { response: { 200: TablesResponseSchema } } },
    async (request) => {
      const user = requireUser(request.user);
      const session = request.sessionRead ? undefined : sessionToCheck(ctx, request, STAFF_FLOOR);
      const tables = await withSessionChecked(user, session, (u, checked) =>
        listTables(ctx.db.db, u, checked && sessionOkCall(checked, u, ctx.clock.now())),
      );
      return { tables };
    },
  );

  app.post(
    '/api/tables/:tableId/open',
    // openTable's first effect is its transaction: a repeat's key is met by its claim there.
    { config: { access: STAFF_FLOOR, idempotency: 'claim-first' }, schema: { params, response: { 200: OrderResponseSchema } } },
    async (request) => ({
      order: await openTable(request.ctx, requireUser(request.user), request.params.tableId),
    }),
  );

  app.get(
    '/api/tables/:tableId/order',
    { config: { access: STAFF_FLOOR }, schema: { params, response: { 200: OrderResponseSchema } } },
    async (request) => {
      const user = requireUser(request.user);
      const row = await ctx.db.db.selectFrom('orders').selectAll().where('active_table_id', '=', request.params.tableId).executeTakeFirst();
      if (!row) throw notFound(ORDER_NOT_FOUND);
      assertMayWorkOrder(user, row);
      return { order: await loadOrderOf(ctx.db.db, row) };
    },
  );

  // An occupied table left without an active order (SPEC §2's warning card) becomes usable again.
  app.post(
    '/api/tables/:tableId/release',
    { config: { access: ADMIN }, schema: { params, response: { 200: TableResponseSchema } } },
    async (request) => ({
      table: await releaseTable(request.ctx, requireUser(request.user), request.params.tableId),
    }),
  );

  app.post(
    '/api/tables',
    { config: { access: ADMIN }, schema: { body: TableNumberBodySchema, response: { 200: TableResponseSchema } } },
    async (request) => ({
      table: await createTable(request.ctx, requireUser(request.user), request.body.number),
    }),
  );

  app.patch(
    '/api/tables/:tableId',
    { config: { access: ADMIN }, schema: { params, body: TableNumberBodySchema, response: { 200: TableResponseSchema } } },
    async (request) => ({
      table: await renumberTable(request.ctx, requireUser(request.user), request.params.tableId, request.body.number),
    }),
  );

  app.delete('/api/tables/:tableId', { config: { access: ADMIN }, schema: { params, response: { 200: OkSchema } } }, async (request) => {
    await deleteTable(request.ctx, requireUser(request.user), request.params.tableId);
    return { ok: true as const };
  });
};
