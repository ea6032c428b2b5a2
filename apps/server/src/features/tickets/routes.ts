import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  TicketParamsSchema,
  TicketPrintResponseSchema,
  TicketResponseSchema,
  TicketsPageSchema,
  TicketsQuerySchema,
} from '@comanda/contract';
import { businessDate, selfInvoiceLine } from '@comanda/domain';
import { ADMIN } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { notFound } from '../../http/errors.ts';
import { loadOrder, ORDER_NOT_FOUND } from '../../model/orders/order-repository.ts';
import { getGeneralConfig } from '../../model/config-store.ts';
import { parseTicketSearch } from './ticket-search.ts';
import { listTickets, parseCursor } from './tickets.query.ts';
import { printTicketOnCaja } from './ticket-print.command.ts';
import { ticketInvoicing } from '../../model/invoicing/ticket-invoicing.ts';
import { qrSvg } from '../../net/qr-svg.ts';

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
    { config: { access: ADMIN }, schema: { params: TicketParamsSchema, response: { 200: TicketResponseSchema } } },
    async (request) => {
      const order = await loadOrder(ctx.db.db, request.params.orderId);
      // A ticket is a paid (or cancelled) order; open ones are read through the order routes.
      if (order.status === 'activo') throw notFound(ORDER_NOT_FOUND);
      const invoicing = (await ticketInvoicing(ctx.db.db, [order.id])).get(order.id) ?? null;
      const line = selfInvoiceLine(invoicing);
      return { order, invoicing, selfInvoiceQrSvg: line?.state === 'issued' ? await qrSvg(line.url) : null };
    },
  );

  /** The ticket again on the caja printer, with its self-invoice QR once issued. */
  app.post(
    '/api/tickets/:orderId/print',
    { config: { access: ADMIN }, schema: { params: TicketParamsSchema, response: { 200: TicketPrintResponseSchema } } },
    async (request) => printTicketOnCaja(request.ctx, requireUser(request.user), request.params.orderId),
  );
};
