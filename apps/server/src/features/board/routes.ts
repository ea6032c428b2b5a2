import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BoardQuerySchema,
  BoardResponseSchema,
  ItemStatusBodySchema,
  ItemStatusParamsSchema,
  ItemStatusResponseSchema,
} from '@comanda/contract';
import { BOARD_ROLES } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { sessionToCheck } from '../../auth/sessions.ts';
import { listBoardItems } from './board.query.ts';
import { setItemStatus } from './set-item-status.command.ts';

/**
 * Kitchen and bar may read both stations (their header toggles between them); changing a
 * status is limited to their own station inside the command.
 */
export const boardRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get(
    '/api/board',
    { config: { access: BOARD_ROLES }, schema: { querystring: BoardQuerySchema, response: { 200: BoardResponseSchema } } },
    async (request) => {
      const now = ctx.clock.now();
      return { items: await listBoardItems(ctx.db.db, request.query, now), now };
    },
  );

  app.patch(
    '/api/orders/:orderId/items/:itemId/status',
    {
      // setItemStatus's first effect is its transaction: a repeat's key is met by its claim there.
      // On PostgreSQL its first read checks the caller's session.
      config: { access: BOARD_ROLES, idempotency: 'claim-first', session: 'checked-in-statement' },
      schema: { params: ItemStatusParamsSchema, body: ItemStatusBodySchema, response: { 200: ItemStatusResponseSchema } },
    },
    async (request) => {
      const session = request.sessionRead ? undefined : sessionToCheck(ctx, request, BOARD_ROLES);
      const input = { ...request.params, status: request.body.status, actor: requireUser(request.user) };
      const item = await setItemStatus(request.ctx, input, session);
      return { item };
    },
  );
};
