import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { OrderResponseSchema, TicketParamsSchema, TicketsPageSchema, TicketsQuerySchema } from '@comanda/contract';
import { businessDate } from '@comanda/domain';
import { ADMIN } from '../../http/access.ts';
import { notFound } from '../../http/errors.ts';
import { loadOrder, ORDER_NOT_FOUND } from '../../model/orders/order-repository.ts';
import { getGeneralConfig } from '../../model/config-store.ts';
import { parseTicketSearch } from './ticket-search.ts';
import { listTickets, parseCursor } from './tickets.query.ts';

/** Paid-ticket history (SPEC §2 Tickets history): admin only. */
export const ticketsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get(
    '/api/tickets',
    { config: { access: ADMIN }, schema: { querystring: TicketsQuerySchema, response: { 200: TicketsPageSchema } } },
    async (request) => {
      const { timezone } = await getGeneralConfig(ctx.db.db, ctx.config.BUSINESS_TIMEZONE);
      return listTickets(ctx.db.db, {
        kind: ctx.db.kind,
        search: parseTicketSearch(request.query.search ?? ''),
        cursor: parseCursor(request.query.cursor),
        limit: request.query.limit,
        timezone,
        today: businessDate(new Date(ctx.clock.now()), timezone),
        status: request.query.status,
      });
    },
  );

  app.get(
    '/api/tickets/:orderId',
    { config: { access: ADMIN }, schema: { params: TicketParamsSchema, response: { 200: OrderResponseSchema } } },
    async (request) => {
      const order = await loadOrder(ctx.db.db, request.params.orderId);
      // A ticket is a paid (or cancelled) order; open ones are read through the order routes.
      if (order.status === 'activo') throw notFound(ORDER_NOT_FOUND);
      return { order };
    },
  );
};
