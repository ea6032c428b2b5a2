import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AddPaymentBodySchema,
  AddPaymentResponseSchema,
  CloseOrderBodySchema,
  CloseOrderParamsSchema,
  IdempotencyHeadersSchema,
  OrderResponseSchema,
  OrderTaxesResponseSchema,
  type Order,
} from '@comanda/contract';
import { STAFF_FLOOR } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { sessionToCheck } from '../../auth/sessions.ts';
import { notFound } from '../../http/errors.ts';
import { currentBreakdown } from '../../model/checkout/tax-breakdown.ts';
import { assertMayWorkOrder } from '../../model/orders/order-access.ts';
import { findOrderRow, ORDER_NOT_FOUND } from '../../model/orders/order-repository.ts';
import { closeWithCash } from './close-with-cash.command.ts';
import { addPayment } from './add-payment.command.ts';

export const checkoutRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/orders/:orderId/close',
    {
      // On PostgreSQL the PIN's statement checks the caller's session (cashierFor).
      config: { access: STAFF_FLOOR, idempotency: 'own', session: 'checked-in-statement' },
      schema: {
        params: CloseOrderParamsSchema,
        headers: IdempotencyHeadersSchema,
        body: CloseOrderBodySchema,
        response: { 200: OrderResponseSchema },
      },
    },
    async (request, reply) => {
      const result = await closeWithCash(request.ctx, {
        orderId: request.params.orderId,
        body: request.body,
        idempotencyKey: request.headers['idempotency-key'],
        user: requireUser(request.user),
        ip: request.ip,
        sessionHash: request.sessionHash,
        session: request.sessionRead ? undefined : sessionToCheck(request.ctx, request, STAFF_FLOOR),
      });
      // A repeat answers exactly what the first request answered; only successes are stored.
      return reply.code(result.statusCode as 200).send(result.body as { order: Order });
    },
  );

  // The checkout's taxes: computed by the server from the lines as the close would freeze them.
  app.get(
    '/api/orders/:orderId/taxes',
    { config: { access: STAFF_FLOOR }, schema: { params: CloseOrderParamsSchema, response: { 200: OrderTaxesResponseSchema } } },
    async (request) => {
      const user = requireUser(request.user);
      const db = request.ctx.db.db;
      const row = await findOrderRow(db, request.params.orderId);
      if (!row) throw notFound(ORDER_NOT_FOUND);
      assertMayWorkOrder(user, row);
      return { taxBreakdown: await currentBreakdown(db, row) };
    },
  );

  // One part of a mixed payment (cash or transfer); the generic Idempotency-Key layer covers it.
  app.post(
    '/api/orders/:orderId/payments',
    {
      config: { access: STAFF_FLOOR },
      schema: { params: CloseOrderParamsSchema, body: AddPaymentBodySchema, response: { 200: AddPaymentResponseSchema } },
    },
    async (request) =>
      addPayment(request.ctx, {
        orderId: request.params.orderId,
        body: request.body,
        user: requireUser(request.user),
        ip: request.ip,
        sessionHash: request.sessionHash,
      }),
  );
};
