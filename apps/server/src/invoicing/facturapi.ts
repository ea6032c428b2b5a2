import type { Readable } from 'node:stream';
import FacturapiModule, { FacturapiError } from 'facturapi';
import { conceptTaxes, type CfdiConcept } from '@comanda/domain';
import { PacError, type Pac, type PacInvoice, type PacReceipt } from './pac.ts';

/** The SDK's class: Node loads its CommonJS build, whose default export is under `default`. */
const Facturapi = (FacturapiModule as unknown as { default?: typeof FacturapiModule }).default ?? FacturapiModule;

/** Facturapi's API (the SDK's own default); FACTURAPI_BASE_URL or the simulator replace it. */
export const FACTURAPI_BASE_URL = 'https://www.facturapi.io/v2';

/** A call taking longer is abandoned as retryable: the PAC's idempotency makes the retry safe. */
const CALL_TIMEOUT_MS = 20_000;

const pesos = (centavos: number) => Math.round(centavos) / 100;
const centavos = (amount: unknown) => Math.round(Number(amount ?? 0) * 100);

/**
 * A concept as Facturapi's line item: the base without taxes (tax_included false), so the PAC's
 * own rounding of each tax gives back what the check charged (the domain's conceptTaxes).
 */
export function facturapiItem(c: CfdiConcept) {
  const taxes: Record<string, unknown>[] = [];
  if (c.iepsRateBp) taxes.push({ type: 'IEPS', rate: c.iepsRateBp / 10_000, factor: 'Tasa' });
  if (c.treatment === 'exento') taxes.push({ type: 'IVA', factor: 'Exento' });
  else taxes.push({ type: 'IVA', rate: c.ivaRateBp / 10_000, factor: 'Tasa' });
  return {
    quantity: 1,
    product: {
      description: c.description,
      product_key: c.productKey,
      unit_key: c.unitKey,
      price: pesos(c.base),
      tax_included: false,
      taxability: '02',
      taxes,
    },
  };
}

/** The check's amount as the PAC will compute it from the items (for checks of our own). */
export const itemsTotal = (concepts: readonly CfdiConcept[]) => concepts.reduce((s, c) => s + conceptTaxes(c).total, 0);

type Json = Record<string, unknown>;

function receiptOf(r: Json): PacReceipt {
  return {
    id: String(r.id),
    key: String(r.key ?? ''),
    selfInvoiceUrl: String(r.self_invoice_url ?? ''),
    expiresAt: Date.parse(String(r.expires_at)),
    status: r.status as PacReceipt['status'],
    folio: typeof r.folio_number === 'number' ? r.folio_number : null,
    total: centavos(r.total),
    invoiceId: typeof r.invoice === 'string' && r.invoice ? r.invoice : null,
  };
}

function invoiceOf(i: Json): PacInvoice {
  const customer = (i.customer ?? {}) as Json;
  const global = i.global as Json | null | undefined;
  return {
    id: String(i.id),
    uuid: String(i.uuid ?? ''),
    status: i.status as PacInvoice['status'],
    cancellationStatus: (i.cancellation_status ?? 'none') as PacInvoice['cancellationStatus'],
    total: centavos(i.total),
    customer: { rfc: String(customer.tax_id ?? ''), legalName: String(customer.legal_name ?? '') },
    global: global ? { periodicity: String(global.periodicity), months: String(global.months), year: Number(global.year) } : null,
  };
}

/** Facturapi's errors as PacError: 5xx, 429, timeouts and the network are retryable; a 4xx is the PAC's refusal. */
function pacError(error: unknown): PacError {
  if (error instanceof PacError) return error;
  if (error instanceof FacturapiError) {
    const retryable = error.status >= 500 || error.status === 429 || error.status === 408;
    return new PacError(error.message, retryable, error.status, error.code ?? null);
  }
  return new PacError(`Sin conexión con el PAC (${(error as Error)?.message ?? String(error)})`, true);
}

async function bytesOf(body: unknown): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Blob) return Buffer.from(await body.arrayBuffer());
  const chunks: Buffer[] = [];
  for await (const chunk of body as Readable) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Facturapi through its official SDK, pointed at `baseUrl` (the simulator in demo mode). */
export function facturapiPac(opts: { apiKey: string; baseUrl?: string; timeoutMs?: number }): Pac {
  const client = new Facturapi(opts.apiKey);
  if (opts.baseUrl) client.BASE_URL = opts.baseUrl.replace(/\/$/, '');
  const timeoutMs = opts.timeoutMs ?? CALL_TIMEOUT_MS;
  async function call<T>(work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PacError('El PAC no respondió a tiempo', true)), timeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([work(), late]);
    } catch (error) {
      throw pacError(error);
    } finally {
      clearTimeout(timer);
    }
  }
  return {
    name: 'facturapi',
    createReceipt: (input) =>
      call(async () =>
        receiptOf(
          (await client.receipts.create({
            folio_number: input.folio,
            idempotency_key: input.idempotencyKey,
            external_id: String(input.folio),
            payment_form: input.paymentForm,
            date: new Date(input.date).toISOString(),
            items: input.concepts.map(facturapiItem),
          })) as unknown as Json,
        ),
      ),
    retrieveReceipt: (id) => call(async () => receiptOf((await client.receipts.retrieve(id)) as unknown as Json)),
    invoiceReceipt: (id, input) =>
      call(async () =>
        invoiceOf(
          (await client.receipts.invoice(id, {
            customer: {
              legal_name: input.customer.legalName,
              tax_id: input.customer.rfc,
              tax_system: input.customer.taxSystem,
              ...(input.customer.email ? { email: input.customer.email } : {}),
              address: { zip: input.customer.zip },
            },
            use: input.use,
          })) as unknown as Json,
        ),
      ),
    createGlobalInvoice: (input) =>
      call(async () =>
        invoiceOf(
          (await client.receipts.createGlobalInvoice({
            periodicity: input.periodicity,
            months: input.months,
            year: input.year,
            ...(input.from !== undefined ? { from: new Date(input.from).toISOString() } : {}),
            ...(input.to !== undefined ? { to: new Date(input.to).toISOString() } : {}),
          })) as unknown as Json,
        ),
      ),
    cancelInvoice: (id, motive, substitution) =>
      call(async () =>
        invoiceOf(
          (await client.invoices.cancel(id, {
            motive: motive as never,
            ...(substitution ? { substitution } : {}),
          })) as unknown as Json,
        ),
      ),
    retrieveInvoice: (id) => call(async () => invoiceOf((await client.invoices.retrieve(id)) as unknown as Json)),
    downloadPdf: (id) => call(async () => bytesOf(await client.invoices.downloadPdf(id))),
    downloadXml: (id) => call(async () => bytesOf(await client.invoices.downloadXml(id))),
  };
}
