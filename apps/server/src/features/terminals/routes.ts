import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ActiveCardPaymentResponseSchema,
  CardPaymentParamsSchema,
  CardPaymentQuerySchema,
  CardPaymentResponseSchema,
  CardReviewListResponseSchema,
  CreateCardPaymentBodySchema,
  IdempotencyHeadersSchema,
  OkSchema,
  RecordCardPaymentResponseSchema,
  RefundCardPaymentBodySchema,
} from '@comanda/contract';
import { requireUser } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { HTTP_MESSAGES } from '../../http/messages.ts';
import { ADMIN, STAFF_FLOOR } from '../../http/access.ts';
import { MpError } from '../../payments/mercadopago/http.ts';
import { activeCardPayment, cancelCardPayment, getCardPayment } from './card-payment-actions.ts';
import { listCardReviews, markCardPaymentRefunded, recordCardPayment } from './card-review.ts';
import { createCardPayment } from './create-card-payment.command.ts';
import { terminalSettingsRoutes } from './terminal-settings.routes.ts';
import { handleWebhook } from './webhook.ts';

export const terminalsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.post(
    '/api/card-payments',
    {
      config: { access: STAFF_FLOOR, idempotency: 'own' },
      schema: {
        headers: IdempotencyHeadersSchema,
        body: CreateCardPaymentBodySchema,
        response: { 200: CardPaymentResponseSchema, 201: CardPaymentResponseSchema },
      },
    },
    async (request, reply) => {
      const { created, payment } = await createCardPayment(request.ctx, {
        body: request.body,
        idempotencyKey: request.headers['idempotency-key'],
        user: requireUser(request.user),
      });
      return reply.code(created ? 201 : 200).send({ payment });
    },
  );

  app.get(
    '/api/card-payments',
    {
      config: { access: STAFF_FLOOR },
      schema: { querystring: CardPaymentQuerySchema, response: { 200: ActiveCardPaymentResponseSchema } },
    },
    async (request) => activeCardPayment(ctx, requireUser(request.user), request.query.orderId),
  );

  // Approved charges that did not close their order, for the admin to settle.
  app.get(
    '/api/card-payments/review',
    { config: { access: ADMIN }, schema: { response: { 200: CardReviewListResponseSchema } } },
    async () => ({ reviews: await listCardReviews(ctx) }),
  );

  app.post(
    '/api/card-payments/:id/record',
    {
      config: { access: ADMIN, idempotency: 'own' },
      schema: { params: CardPaymentParamsSchema, headers: IdempotencyHeadersSchema, response: { 200: RecordCardPaymentResponseSchema } },
    },
    async (request) =>
      recordCardPayment(request.ctx, {
        id: request.params.id,
        idempotencyKey: request.headers['idempotency-key'],
        user: requireUser(request.user),
      }),
  );

  app.post(
    '/api/card-payments/:id/refunded',
    {
      config: { access: ADMIN, idempotency: 'own' },
      schema: {
        params: CardPaymentParamsSchema,
        headers: IdempotencyHeadersSchema,
        body: RefundCardPaymentBodySchema,
        response: { 200: CardPaymentResponseSchema },
      },
    },
    async (request) => ({
      payment: await markCardPaymentRefunded(request.ctx, {
        id: request.params.id,
        idempotencyKey: request.headers['idempotency-key'],
        user: requireUser(request.user),
        note: request.body?.note?.trim() || null,
      }),
    }),
  );

  app.get(
    '/api/card-payments/:id',
    { config: { access: STAFF_FLOOR }, schema: { params: CardPaymentParamsSchema, response: { 200: CardPaymentResponseSchema } } },
    async (request) => ({ payment: await getCardPayment(ctx, requireUser(request.user), request.params.id) }),
  );

  app.post(
    '/api/card-payments/:id/cancel',
    { config: { access: STAFF_FLOOR }, schema: { params: CardPaymentParamsSchema, response: { 200: CardPaymentResponseSchema } } },
    async (request) => ({ payment: await cancelCardPayment(request.ctx, requireUser(request.user), request.params.id) }),
  );

  // Mercado Pago calls this without a session; the signature (MP_WEBHOOK_SECRET) proves who it is.
  app.post(
    '/api/webhooks/mercadopago',
    {
      config: { access: 'public' },
      schema: { hide: true, querystring: z.record(z.string(), z.string().max(200)), response: { 200: OkSchema } },
    },
    async (request) => {
      try {
        await handleWebhook(ctx, request);
      } catch (error) {
        // Mercado Pago retries a notification that did not get a 2xx: ask for that when it was down.
        if (error instanceof MpError) throw new AppError(503, 'provider_unavailable', HTTP_MESSAGES.unavailable);
        throw error;
      }
      return { ok: true as const };
    },
  );

  await app.register(terminalSettingsRoutes);
};
