import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listenLoopback, simulatorApp } from '../../net/loopback-simulator.ts';
import { SimControl } from './control.ts';
import { invoicePdf, invoiceXml } from './documents.ts';
import { closedPage, invoicedPage, receiptPage, type PageValues } from './page.ts';
import { invoiceJson, receiptJson, SimStore, type SimIssuer, type SimInvoice } from './store.ts';
import { SimInvalid, validCustomer, validItems, validMonths, validPaymentForm, validPeriodicity } from './validate.ts';

/**
 * A loopback Facturapi (API v2) for demo mode and tests: the same paths, JSON shapes and error
 * object, the Bearer check of a secret key, SAT's catalogue and receptor checks, receipts with a
 * self-invoice page at its own address, idempotent receipt creation, stamps shaped like a
 * TimbreFiscalDigital, and controls under /_sim to fail, delay, hang or drop calls on demand.
 */
export interface InvoicingSimulatorOptions {
  /** The secret key it accepts; a random sk_test_ one when not given. */
  apiKey?: string;
  issuer?: Partial<SimIssuer>;
  port?: number;
  /** The clock of the documents (tests may hold it). */
  now?: () => number;
}

export interface InvoicingSimulator {
  url: string;
  /** What the SDK's BASE_URL is set to. */
  apiUrl: string;
  apiKey: string;
  store: SimStore;
  control: SimControl;
  close(): Promise<void>;
}

/** The self-invoice portal's domain while an organization has chosen none (Facturapi's own default). */
export const SELF_INVOICE_DOMAIN = 'demo';

const DEMO_ISSUER: SimIssuer = { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', taxSystem: '601', zip: '06600' };

type Json = Record<string, unknown>;
type Params = Record<string, string>;

function sendError(reply: FastifyReply, status: number, code: string, message: string, path?: string) {
  return reply.code(status).send({ ok: false, message, status, code, ...(path ? { location: 'body', path } : {}) });
}

function paged<T>(rows: T[], query: Json) {
  const limit = Math.min(50, Math.max(1, Number(query.limit ?? 50) || 50));
  const page = Math.max(1, Number(query.page ?? 1) || 1);
  return {
    page,
    total_pages: Math.max(1, Math.ceil(rows.length / limit)),
    total_results: rows.length,
    data: rows.slice((page - 1) * limit, page * limit),
  };
}

export async function startInvoicingSimulator(opts: InvoicingSimulatorOptions = {}): Promise<InvoicingSimulator> {
  const apiKey = opts.apiKey ?? `sk_test_sim${randomBytes(16).toString('hex')}`;
  const now = () => new Date(opts.now?.() ?? Date.now());
  let url = '';
  const store = new SimStore({ ...DEMO_ISSUER, ...opts.issuer }, () => `${url}/${SELF_INVOICE_DOMAIN}`);
  const control = new SimControl();
  const hanging = new Set<Socket>();

  const app = simulatorApp({ bodyLimit: 2 * 1024 * 1024, forceCloseConnections: true });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
  });
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof SimInvalid) return sendError(reply, error.status, error.code, error.message, error.path);
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    return sendError(reply, status, status < 500 ? 'invalid_request' : 'internal_error', (error as Error).message);
  });

  const drops = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith('/v2/')) return;
    const fault = control.takeFault(request.method, path);
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault?.hang) {
      hanging.add(request.raw.socket);
      await new Promise(() => undefined); // never answers; close() destroys the socket
    }
    if (fault?.status)
      return sendError(reply, fault.status, fault.status === 429 ? 'too_many_requests' : 'internal_error', 'Error simulado del PAC');
    if (fault?.dropAfter) drops.add(request);
    const auth = request.headers.authorization ?? '';
    if (!/^Bearer sk_(test|live)_/.test(auth) || auth !== `Bearer ${apiKey}`)
      return sendError(
        reply,
        401,
        'unauthenticated',
        'La llave secreta no es válida. Envíala en el encabezado Authorization: Bearer sk_test_…',
      );
  });
  app.addHook('preHandler', async (request) => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith('/v2/'))
      control.record({
        method: request.method,
        path,
        authorization: request.headers.authorization,
        body: request.body ?? null,
        at: Date.now(),
      });
  });
  // The call was served; its answer is lost on the way (the connection drops).
  app.addHook('onSend', async (request, _reply, payload) => {
    if (drops.has(request)) request.raw.socket.destroy();
    return payload;
  });

  app.post('/v2/receipts', async (request) => {
    const body = (request.body ?? {}) as Json;
    const idempotencyKey = typeof body.idempotency_key === 'string' && body.idempotency_key ? body.idempotency_key : null;
    const folio = body.folio_number === undefined ? null : Number(body.folio_number);
    if (folio !== null && (!Number.isSafeInteger(folio) || folio < 1))
      throw new SimInvalid('folio_number', '"folio_number" must be a positive integer');
    const again = store.existing(idempotencyKey, folio);
    if (again) return receiptJson(again);
    const items = validItems(body.items);
    const paymentForm = validPaymentForm(body.payment_form);
    const date = body.date === undefined ? now() : new Date(String(body.date));
    if (Number.isNaN(date.getTime())) throw new SimInvalid('date', '"date" must be a valid date');
    const receipt = store.createReceipt({
      items,
      paymentForm,
      folio,
      idempotencyKey,
      externalId: typeof body.external_id === 'string' ? body.external_id : null,
      branch: typeof body.branch === 'string' ? body.branch : null,
      date,
      now: now(),
    });
    return receiptJson(receipt);
  });

  app.get('/v2/receipts', async (request) => paged([...store.receipts.values()].reverse().map(receiptJson), request.query as Json));

  app.get('/v2/receipts/:id', async (request) => {
    const receipt = store.receipts.get((request.params as Params).id ?? '');
    if (!receipt) throw new SimInvalid('receipt_id', 'No se encontró el recibo', 404, 'not_found');
    return receiptJson(receipt);
  });

  app.post('/v2/receipts/:id/invoice', async (request) => {
    const body = (request.body ?? {}) as Json;
    const { customer, use } = validCustomer(body.customer, body.use, store.issuer.zip);
    return invoiceJson(store.invoiceReceipt((request.params as Params).id ?? '', customer, use, now()));
  });

  app.post('/v2/receipts/global-invoice', async (request) => {
    const body = (request.body ?? {}) as Json;
    const periodicity = validPeriodicity(body.periodicity);
    const at = now();
    const months = validMonths(body.months ?? String(at.getMonth() + 1).padStart(2, '0'), periodicity);
    const year = Number(body.year ?? at.getFullYear());
    if (!Number.isSafeInteger(year) || year < 2022) throw new SimInvalid('year', '"year" must be a year since 2022');
    const date = (v: unknown, field: string) => {
      if (v === undefined) return null;
      const d = new Date(String(v));
      if (Number.isNaN(d.getTime())) throw new SimInvalid(field, `"${field}" must be a valid date`);
      return d;
    };
    return invoiceJson(store.globalInvoice({ periodicity, months, year, from: date(body.from, 'from'), to: date(body.to, 'to'), now: at }));
  });

  app.delete('/v2/receipts/:id', async (request) => {
    const receipt = store.receipts.get((request.params as Params).id ?? '');
    if (!receipt) throw new SimInvalid('receipt_id', 'No se encontró el recibo', 404, 'not_found');
    if (receipt.status !== 'open') throw new SimInvalid('receipt_id', 'Solo se puede cancelar un recibo abierto', 400, 'receipt_not_open');
    receipt.status = 'canceled';
    return receiptJson(receipt);
  });

  const invoiceOr404 = (id: string | undefined): SimInvoice => {
    const invoice = store.invoices.get(id ?? '');
    if (!invoice) throw new SimInvalid('invoice_id', 'No se encontró la factura', 404, 'not_found');
    return invoice;
  };

  app.get('/v2/invoices', async (request) => paged([...store.invoices.values()].reverse().map(invoiceJson), request.query as Json));
  app.get('/v2/invoices/:id', async (request) => invoiceJson(invoiceOr404((request.params as Params).id)));

  app.delete('/v2/invoices/:id', async (request) => {
    const query = request.query as Json;
    const motive = typeof query.motive === 'string' ? query.motive : '';
    if (!motive) throw new SimInvalid('motive', '"motive" is required');
    const substitution = typeof query.substitution === 'string' && query.substitution ? query.substitution : null;
    return invoiceJson(store.cancel((request.params as Params).id ?? '', motive, substitution, now()));
  });

  const download = (kind: 'pdf' | 'xml', invoice: SimInvoice, reply: FastifyReply) =>
    kind === 'pdf'
      ? reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${invoice.uuid}.pdf"`)
          .send(invoicePdf(invoice, store.issuer))
      : reply
          .type('application/xml')
          .header('content-disposition', `attachment; filename="${invoice.uuid}.xml"`)
          .send(invoiceXml(invoice, store.issuer));
  app.get('/v2/invoices/:id/pdf', async (request, reply) => download('pdf', invoiceOr404((request.params as Params).id), reply));
  app.get('/v2/invoices/:id/xml', async (request, reply) => download('xml', invoiceOr404((request.params as Params).id), reply));

  // The hosted self-invoice page: the receipt's key in the address is all it takes (no account).
  const pageOf = (key: string | undefined) => store.receiptByKey(key ?? '');
  app.get(`/${SELF_INVOICE_DOMAIN}/:key`, async (request, reply) => {
    const receipt = pageOf((request.params as Params).key);
    reply.type('text/html; charset=utf-8');
    if (!receipt) return reply.code(404).send(closedPage('No encontramos ese ticket. Revisa la clave impresa en tu ticket.'));
    const invoice = receipt.invoice ? store.invoices.get(receipt.invoice) : undefined;
    if (receipt.status === 'invoiced_to_customer' && invoice) return invoicedPage(receipt, invoice);
    if (receipt.status !== 'open') return closedPage('Este ticket ya no puede facturarse.');
    if (Date.parse(receipt.expires_at) < now().getTime()) return closedPage('El plazo para facturar este ticket terminó.');
    return receiptPage(receipt, store.issuer.legalName);
  });
  app.post(`/${SELF_INVOICE_DOMAIN}/:key`, async (request, reply) => {
    const receipt = pageOf((request.params as Params).key);
    reply.type('text/html; charset=utf-8');
    if (!receipt) return reply.code(404).send(closedPage('No encontramos ese ticket.'));
    const form = (request.body ?? {}) as PageValues;
    if (receipt.status !== 'open' || Date.parse(receipt.expires_at) < now().getTime())
      return closedPage('Este ticket ya no puede facturarse.');
    try {
      const { customer, use } = validCustomer(
        { tax_id: form.tax_id, legal_name: form.legal_name, tax_system: form.tax_system, email: form.email, address: { zip: form.zip } },
        form.use,
        store.issuer.zip,
      );
      return invoicedPage(receipt, store.invoiceReceipt(receipt.id, customer, use, now()));
    } catch (error) {
      if (!(error instanceof SimInvalid)) throw error;
      return reply.code(400).send(receiptPage(receipt, store.issuer.legalName, form, error.message));
    }
  });
  app.get(`/${SELF_INVOICE_DOMAIN}/:key/:kind`, async (request, reply) => {
    const { key, kind } = request.params as Params;
    const receipt = pageOf(key);
    const invoice = receipt?.status === 'invoiced_to_customer' && receipt.invoice ? store.invoices.get(receipt.invoice) : undefined;
    if (!invoice || (kind !== 'pdf' && kind !== 'xml')) return sendError(reply, 404, 'not_found', 'No encontrado');
    return download(kind, invoice, reply);
  });

  // Controls (no key: loopback only).
  app.get('/_sim/state', async () => ({
    receipts: [...store.receipts.values()].map(receiptJson),
    invoices: [...store.invoices.values()].map(invoiceJson),
    faults: control.faults,
    cancellationMode: store.cancellationMode,
  }));
  app.get('/_sim/calls', async () => ({ calls: control.calls }));
  app.post('/_sim/reset', async () => {
    store.reset();
    control.reset();
    return { ok: true };
  });
  app.post('/_sim/faults', async (request, reply) => {
    const b = (request.body ?? {}) as Json;
    const fault = {
      status: typeof b.status === 'number' ? b.status : undefined,
      delayMs: typeof b.delayMs === 'number' ? b.delayMs : undefined,
      hang: b.hang === true,
      dropAfter: b.dropAfter === true,
      path: typeof b.path === 'string' ? b.path : undefined,
      method: typeof b.method === 'string' ? b.method.toUpperCase() : undefined,
      count: typeof b.count === 'number' ? b.count : 1,
    };
    if (fault.status === undefined && fault.delayMs === undefined && !fault.hang && !fault.dropAfter)
      return sendError(reply, 400, 'invalid_request', 'status, delayMs, hang or dropAfter is required');
    control.addFault(fault);
    return { faults: control.faults };
  });
  app.delete('/_sim/faults', async () => {
    control.faults.length = 0;
    return { ok: true };
  });
  app.post('/_sim/cancellation', async (request, reply) => {
    const mode = ((request.body ?? {}) as Json).mode;
    if (mode !== 'accepted' && mode !== 'pending') return sendError(reply, 400, 'invalid_request', 'mode: accepted or pending');
    store.cancellationMode = mode;
    return { mode };
  });
  app.setNotFoundHandler((_request, reply) => sendError(reply, 404, 'not_found', 'Recurso no encontrado'));

  url = await listenLoopback(app, opts.port);
  return {
    url,
    apiUrl: `${url}/v2`,
    apiKey,
    store,
    control,
    async close() {
      for (const socket of hanging) socket.destroy();
      await app.close();
    },
  };
}
