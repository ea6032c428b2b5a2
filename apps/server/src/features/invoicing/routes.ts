import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CancelInvoiceBodySchema,
  GlobalNowResponseSchema,
  IdempotencyHeadersSchema,
  InvoiceOrderParamsSchema,
  InvoiceParamsSchema,
  InvoiceResponseSchema,
  InvoiceTicketBodySchema,
  InvoicingOverviewSchema,
  TicketInvoiceInfoSchema,
  type TicketInvoiceInfo,
} from '@comanda/contract';
import { requireUser } from '../../http/context.ts';
import { ADMIN, STAFF_FLOOR } from '../../http/access.ts';
import { AppError, forbidden } from '../../http/errors.ts';
import { answeredWithoutWrite } from '../../http/transaction.ts';
import type { Trx } from '../../http/transaction.ts';
import { durably } from '../../db/transact.ts';
import { getFiscalSettings } from '../../model/fiscal-store.ts';
import { invoicingService } from '../../model/invoicing/invoicing-service.ts';
import { PacError } from '../../invoicing/pac.ts';
import { cancelInvoice, refreshCancellation } from './cancel-invoice.command.ts';
import { claimGlobalNow, retryGlobal, stampDueGlobals, syncReceipt } from './global-invoice.ts';
import { invoiceTicket, mayInvoice, retryCustomerInvoice, type Caller } from './invoice-ticket.command.ts';
import { paymentFormOf } from '../../model/invoicing/payment-form.ts';
import { publishInvoicingChanged } from '../../model/invoicing/invoicing-events.ts';
import { findInvoice, foliosOf, pacOf, presentInvoice, presentReceipt, receiptBlocked, viewOf } from './invoice-store.ts';

const LIST_LIMIT = 100;

const callerOf = (request: FastifyRequest): Caller => ({
  user: requireUser(request.user),
  ip: request.ip,
  sessionHash: request.sessionHash ?? null,
});

async function ticketInfo(db: Trx, orderId: string): Promise<TicketInvoiceInfo> {
  const [receipt, invoices, paid] = await Promise.all([
    db.selectFrom('invoice_receipts').selectAll().where('order_id', '=', orderId).executeTakeFirst(),
    db.selectFrom('invoices').selectAll().where('order_id', '=', orderId).orderBy('created_at', 'desc').execute(),
    db.selectFrom('orders').select(['completed_at', 'folio', 'status']).where('id', '=', orderId).executeTakeFirst(),
  ]);
  if (!paid) throw new AppError(404, 'not_found', 'No se encontró el ticket');
  const folio = paid.folio === null ? null : Number(paid.folio);
  const live = invoices.some((i) => i.kind === 'cliente' && ['solicitando', 'timbrada', 'cancelacion_pendiente'].includes(i.state));
  return {
    receipt: receipt ? presentReceipt(receipt, paid.completed_at === null ? null : Number(paid.completed_at)) : null,
    invoices: invoices.map((i) => presentInvoice(i, folio)),
    paymentForm: await paymentFormOf(db, orderId),
    // Before the queue sees a check paid a moment ago it has no row: "Facturar" queues it.
    blocked:
      paid.status !== 'pagado'
        ? 'Solo se factura un ticket pagado'
        : live
          ? 'Este ticket ya se facturó'
          : receipt
            ? receiptBlocked(receipt)
            : null,
  };
}

/** Facturación: the cashier's "Facturar", the admin's list of receipts, invoices and globals, downloads and cancellations. */
export const invoicingRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  // Every write here (Facturar, cancel, retry, sync, global now) tells the other admins' screens.
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'POST' || reply.statusCode >= 500) return;
    publishInvoicingChanged(ctx, (request.params as { orderId?: string } | undefined)?.orderId);
  });

  app.get('/api/invoicing', { config: { access: ADMIN }, schema: { response: { 200: InvoicingOverviewSchema } } }, async () => {
    const db = ctx.db.db;
    const [receipts, invoices, fiscal] = await Promise.all([
      db
        .selectFrom('invoice_receipts as r')
        .innerJoin('orders as o', 'o.id', 'r.order_id')
        .selectAll('r')
        .select('o.completed_at')
        .where('r.state', '!=', 'sin_importe')
        .orderBy('r.folio', 'desc')
        .limit(LIST_LIMIT)
        .execute(),
      db.selectFrom('invoices').selectAll().where('state', '!=', 'vacia').orderBy('created_at', 'desc').limit(LIST_LIMIT).execute(),
      getFiscalSettings(db),
    ]);
    const folios = await foliosOf(
      db,
      invoices.map((i) => i.order_id),
    );
    return {
      mode: invoicingService(ctx)?.mode ?? ('off' as const),
      periodicity: fiscal.facturaGlobal,
      receipts: receipts.map((r) => presentReceipt(r, r.completed_at === null ? null : Number(r.completed_at))),
      invoices: invoices.map((i) => presentInvoice(i, i.order_id ? (folios.get(i.order_id) ?? null) : null)),
    };
  });

  app.get(
    '/api/invoicing/tickets/:orderId',
    { config: { access: STAFF_FLOOR }, schema: { params: InvoiceOrderParamsSchema, response: { 200: TicketInvoiceInfoSchema } } },
    async (request) => {
      await mayInvoice(ctx.db.db, requireUser(request.user), request.params.orderId);
      return ticketInfo(ctx.db.db, request.params.orderId);
    },
  );

  app.post(
    '/api/invoicing/tickets/:orderId/invoice',
    {
      config: { access: STAFF_FLOOR, idempotency: 'own' },
      schema: {
        params: InvoiceOrderParamsSchema,
        headers: IdempotencyHeadersSchema,
        body: InvoiceTicketBodySchema,
        response: { 200: InvoiceResponseSchema },
      },
    },
    async (request) => ({
      invoice: await invoiceTicket(
        request.ctx,
        callerOf(request),
        request.params.orderId,
        request.body,
        request.headers['idempotency-key'],
      ),
    }),
  );

  // "Actualizar": a queued receipt is sent now; an issued one is read again from the PAC.
  app.post(
    '/api/invoicing/tickets/:orderId/sync',
    { config: { access: ADMIN }, schema: { params: InvoiceOrderParamsSchema, response: { 200: TicketInvoiceInfoSchema } } },
    async (request) => {
      const service = invoicingService(ctx);
      const { pac } = pacOf(ctx);
      const now = ctx.clock.now();
      const orderId = request.params.orderId;
      const bumped = await durably(ctx.db, (w) =>
        w
          .updateTable('invoice_receipts')
          .set({ next_attempt_at: now, updated_at: now })
          .where('order_id', '=', orderId)
          .where('state', '=', 'pendiente')
          .executeTakeFirst(),
      );
      if (Number(bumped.numUpdatedRows) > 0) {
        service?.worker.wake();
        await service?.worker.idle();
      } else await syncReceipt(ctx, pac, orderId).catch(pacAnswer);
      answeredWithoutWrite(request.ctx);
      return ticketInfo(ctx.db.db, orderId);
    },
  );

  app.get(
    '/api/invoicing/invoices/:id/:format',
    {
      config: { access: STAFF_FLOOR },
      schema: { params: InvoiceParamsSchema.extend({ format: z.enum(['pdf', 'xml']) }) },
    },
    async (request, reply) => {
      const { pac } = pacOf(ctx);
      const row = await findInvoice(ctx.db.db, request.params.id);
      const user = requireUser(request.user);
      if (user.role !== 'admin') {
        if (!row.order_id) throw forbidden();
        await mayInvoice(ctx.db.db, user, row.order_id);
      }
      if (!row.pac_invoice_id || !row.uuid) throw new AppError(404, 'not_found', 'La factura aún no está timbrada');
      const pdf = request.params.format === 'pdf';
      const body = await (pdf ? pac.downloadPdf(row.pac_invoice_id) : pac.downloadXml(row.pac_invoice_id)).catch(pacAnswer);
      return reply
        .type(pdf ? 'application/pdf' : 'application/xml')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${row.uuid}.${request.params.format}"`)
        .send(body);
    },
  );

  app.post(
    '/api/invoicing/invoices/:id/retry',
    { config: { access: ADMIN }, schema: { params: InvoiceParamsSchema, response: { 200: InvoiceResponseSchema } } },
    async (request) => {
      const user = requireUser(request.user);
      const row = await findInvoice(ctx.db.db, request.params.id);
      if (row.kind === 'cliente') return { invoice: await retryCustomerInvoice(request.ctx, user, row.id) };
      const { pac } = pacOf(ctx);
      return { invoice: await viewOf(ctx.db.db, await retryGlobal(request.ctx, pac, user, row.id)) };
    },
  );

  app.post(
    '/api/invoicing/invoices/:id/cancel',
    {
      config: { access: ADMIN },
      schema: { params: InvoiceParamsSchema, body: CancelInvoiceBodySchema, response: { 200: InvoiceResponseSchema } },
    },
    async (request) => {
      const invoice = await cancelInvoice(request.ctx, callerOf(request), request.params.id, request.body);
      answeredWithoutWrite(request.ctx);
      return { invoice };
    },
  );

  app.post(
    '/api/invoicing/invoices/:id/refresh',
    { config: { access: ADMIN }, schema: { params: InvoiceParamsSchema, response: { 200: InvoiceResponseSchema } } },
    async (request) => {
      const invoice = await refreshCancellation(request.ctx, request.params.id).catch(pacAnswer);
      answeredWithoutWrite(request.ctx);
      return { invoice };
    },
  );

  // The period's global made now instead of at its end (and the ended periods' ones, if any wait).
  app.post(
    '/api/invoicing/globals/now',
    { config: { access: ADMIN }, schema: { response: { 200: GlobalNowResponseSchema } } },
    async (request) => {
      const { pac } = pacOf(ctx);
      const started = ctx.clock.now();
      await claimGlobalNow(request.ctx, requireUser(request.user));
      await stampDueGlobals(ctx, pac);
      const rows = await ctx.db.db
        .selectFrom('invoices')
        .selectAll()
        .where('kind', '=', 'global')
        .where('updated_at', '>=', started)
        .where('state', '!=', 'vacia')
        .orderBy('created_at', 'desc')
        .execute();
      return { invoices: rows.map((r) => presentInvoice(r)) };
    },
  );
};

/** A PAC failure while reading: its message, as a 503 (down) or 422 (refused). */
function pacAnswer(error: unknown): never {
  if (error instanceof PacError)
    throw error.retryable ? new AppError(503, 'pac_unavailable', error.message) : new AppError(422, 'pac_refused', error.message);
  throw error;
}
