import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Facturapi, { FacturapiError } from 'facturapi';
import { z } from 'zod';
import { breakdownOf, cents, cfdiConcepts, taxGroup } from '@comanda/domain';
import { facturapiItem, facturapiPac } from './facturapi.ts';
import { PacError } from './pac.ts';
import { startInvoicingSimulator, type InvoicingSimulator } from './simulator/server.ts';

/**
 * Contract: the official SDK (a client nobody here wrote) drives the simulator through every call
 * Comanda makes, and each answer has the shape Facturapi documents for it (API reference v2:
 * Receipt, Invoice, the error object).
 */
const iso = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'ISO date');
const lineItem = z.object({
  quantity: z.number(),
  product: z.object({
    description: z.string(),
    product_key: z.string().regex(/^\d{8}$/),
    unit_key: z.string(),
    price: z.number(),
    tax_included: z.boolean(),
    taxability: z.enum(['01', '02', '03', '04']),
    taxes: z.array(z.object({ type: z.enum(['IVA', 'IEPS', 'ISR']), rate: z.number(), factor: z.string(), withholding: z.boolean() })),
  }),
});
const receiptShape = z.object({
  id: z.string().regex(/^[0-9a-f]{24}$/),
  created_at: iso,
  livemode: z.boolean(),
  date: iso,
  expires_at: iso,
  status: z.enum(['open', 'canceled', 'invoiced_to_customer', 'invoiced_globally']),
  self_invoice_url: z.string().url(),
  total: z.number(),
  invoice: z.string().nullable(),
  key: z.string().min(8),
  items: z.array(lineItem),
  external_id: z.string().nullable(),
  idempotency_key: z.string().nullable(),
  folio_number: z.number().int(),
  payment_form: z.string().length(2),
  currency: z.literal('MXN'),
  exchange: z.number(),
});
const invoiceShape = z.object({
  id: z.string().regex(/^[0-9a-f]{24}$/),
  created_at: iso,
  livemode: z.boolean(),
  date: iso,
  status: z.enum(['valid', 'canceled']),
  cancellation_status: z.enum(['none', 'pending', 'accepted', 'rejected', 'expired', 'verifying']),
  verification_url: z.string().url(),
  type: z.literal('I'),
  customer: z.object({ legal_name: z.string(), tax_id: z.string(), tax_system: z.string(), address: z.object({ zip: z.string() }) }),
  total: z.number(),
  uuid: z.string().regex(/^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/),
  payment_form: z.string().length(2),
  payment_method: z.literal('PUE'),
  use: z.string(),
  currency: z.literal('MXN'),
  folio_number: z.number(),
  series: z.string(),
  items: z.array(lineItem),
  stamp: z.object({
    date: z.string(),
    sat_signature: z.string(),
    sat_cert_number: z.string().regex(/^\d{20}$/),
    signature: z.string(),
    complement_string: z.string().regex(/^\|\|1\.1\|[0-9A-F-]{36}\|/),
  }),
  global: z.object({ periodicity: z.string(), months: z.string(), year: z.number() }).nullable(),
});
const errorShape = z.object({ ok: z.literal(false), message: z.string(), status: z.number(), code: z.string() });

const customer = { legal_name: 'ESCUELA KEMPER URGATE', tax_id: 'EKU9003173C9', tax_system: '601', address: { zip: '26015' } };
const concepts = cfdiConcepts(breakdownOf([taxGroup('iva16', null, cents(35_678)), taxGroup('iva16', 5300, cents(12_000))]));

describe('Facturapi contract against the simulator', () => {
  let sim: InvoicingSimulator;
  let sdk: Facturapi;
  let folio = 100;
  const receipt = (over: Record<string, unknown> = {}) =>
    sdk.receipts.create({
      folio_number: ++folio,
      payment_form: '01',
      items: concepts.map(facturapiItem),
      idempotency_key: `t-${folio}`,
      ...over,
    });
  const rejection = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FacturapiError);
    return error as FacturapiError;
  };

  beforeAll(async () => {
    sim = await startInvoicingSimulator({ apiKey: 'sk_test_contract0123456789' });
    sdk = new Facturapi(sim.apiKey);
    sdk.BASE_URL = sim.apiUrl;
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.control.reset());

  it('creates a receipt whose total is the check charged, with its self-invoice page and key', async () => {
    const r = await receipt();
    expect(receiptShape.parse(r)).toBeTruthy();
    expect(Math.round(r.total * 100)).toBe(35_678 + 12_000);
    expect(r.self_invoice_url).toBe(`${sim.url}/demo/${r.key}`);
    expect(Date.parse(String(r.expires_at))).toBeGreaterThan(Date.now());
    expect(receiptShape.parse(await sdk.receipts.retrieve(r.id)).id).toBe(r.id);
    const list = await sdk.receipts.list();
    expect(list.data.map((x) => x.id)).toContain(r.id);
    // The call carried the key as Facturapi asks for it.
    expect(sim.control.calls.at(-1)?.authorization).toBe(`Bearer ${sim.apiKey}`);
  });

  it('answers the same receipt to a retry with the same idempotency key or folio', async () => {
    const first = await receipt();
    const again = await sdk.receipts.create({
      folio_number: first.folio_number,
      payment_form: '01',
      items: concepts.map(facturapiItem),
      idempotency_key: first.idempotency_key,
    });
    expect(again.id).toBe(first.id);
    expect(sim.store.receipts.size).toBe([...sim.store.receipts.values()].length);
    expect([...sim.store.receipts.values()].filter((x) => x.folio_number === first.folio_number)).toHaveLength(1);
  });

  it('refuses a wrong key, SAT codes outside the catalogues and an uso the régimen may not use, in the documented error object', async () => {
    const stranger = new Facturapi('sk_test_someone_else');
    stranger.BASE_URL = sim.apiUrl;
    const unauth = await rejection(stranger.receipts.list());
    expect(unauth.status).toBe(401);
    const item = facturapiItem(concepts[0]!);
    const badKey = await rejection(receipt({ items: [{ ...item, product: { ...item.product, product_key: '9010150' } }] }));
    expect([badKey.status, badKey.path]).toEqual([400, 'items.0.product.product_key']);
    expect((await rejection(receipt({ payment_form: '07' }))).path).toBe('payment_form');
    const r = await receipt();
    const wrongUse = await rejection(sdk.receipts.invoice(r.id, { customer, use: 'D01' }));
    expect([wrongUse.status, wrongUse.path]).toEqual([400, 'use']);
    const wrongRfc = await rejection(sdk.receipts.invoice(r.id, { customer: { ...customer, tax_id: 'EKU9003173C8' }, use: 'G03' }));
    expect(wrongRfc.path).toBe('customer.tax_id');
    const generic = await rejection(
      sdk.receipts.invoice(r.id, {
        customer: { legal_name: 'JUAN', tax_id: 'XAXX010101000', tax_system: '616', address: { zip: '06600' } },
        use: 'S01',
      }),
    );
    expect(generic.path).toBe('customer.legal_name');
    const raw = await fetch(`${sim.apiUrl}/receipts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(errorShape.parse(await raw.json()).status).toBe(400);
  });

  it("invoices a receipt to a customer, downloads the CFDI's PDF and XML, and cancels it with motive 02 or 01", async () => {
    const r = await receipt();
    const invoice = await sdk.receipts.invoice(r.id, { customer, use: 'G03' });
    expect(invoiceShape.parse(invoice).total).toBe(r.total);
    expect((await sdk.receipts.retrieve(r.id)).status).toBe('invoiced_to_customer');
    const pdf = await facturapiPac({ apiKey: sim.apiKey, baseUrl: sim.apiUrl }).downloadPdf(invoice.id);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const xml = (await facturapiPac({ apiKey: sim.apiKey, baseUrl: sim.apiUrl }).downloadXml(invoice.id)).toString();
    expect(xml).toContain(`UUID="${invoice.uuid}"`);
    expect(xml).toContain('tfd:TimbreFiscalDigital');
    // Motive 01 needs the substituting invoice.
    const other = await sdk.receipts.invoice((await receipt()).id, { customer, use: 'G03' });
    expect((await rejection(sdk.invoices.cancel(other.id, { motive: '01' as never }))).path).toBe('substitution');
    const replaced = await sdk.invoices.cancel(other.id, { motive: '01' as never, substitution: invoice.uuid });
    expect([replaced.status, replaced.cancellation_status]).toEqual(['canceled', 'accepted']);
    await fetch(`${sim.url}/_sim/cancellation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"mode":"pending"}',
    });
    const pending = await sdk.invoices.cancel(invoice.id, { motive: '02' as never });
    expect([pending.status, pending.cancellation_status]).toEqual(['valid', 'pending']);
    sim.store.cancellationMode = 'accepted';
    expect((await sdk.invoices.list()).data.length).toBeGreaterThanOrEqual(2);
  });

  it("serves the receipt's self-invoice page at its own address: the customer's form invoices it once", async () => {
    const r = await receipt();
    const page = await fetch(r.self_invoice_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Factura tu consumo');
    const form = (over: Record<string, string>) =>
      fetch(r.self_invoice_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          tax_id: 'EKU9003173C9',
          legal_name: 'Escuela Kemper Urgate',
          zip: '26015',
          tax_system: '601',
          use: 'G03',
          email: 'a@b.mx',
          ...over,
        }),
      });
    const refused = await form({ legal_name: 'ESCUELA KEMPER URGATE SA DE CV' });
    expect([refused.status, await refused.text()]).toEqual([400, expect.stringContaining('régimen societario')]);
    const done = await form({});
    expect(done.status).toBe(200);
    const uuid = /data-uuid>([0-9A-F-]{36})</.exec(await done.text())?.[1];
    const stored = await sdk.receipts.retrieve(r.id);
    expect(stored.status).toBe('invoiced_to_customer');
    expect((await sdk.invoices.retrieve(stored.invoice)).uuid).toBe(uuid);
    expect((await fetch(`${r.self_invoice_url}/pdf`)).headers.get('content-type')).toBe('application/pdf');
    // A second visit shows the invoice; it is not made again.
    expect(await (await fetch(r.self_invoice_url)).text()).toContain(uuid!);
    expect((await form({})).status).toBe(200);
    expect([...sim.store.invoices.values()].filter((i) => i.receipts.includes(r.id))).toHaveLength(1);
  });

  it('makes the factura global of the open receipts: público en general, S01, 616, the lugar de expedición, each receipt once', async () => {
    sim.store.reset();
    const a = await receipt();
    const b = await receipt();
    await sdk.receipts.invoice((await receipt()).id, { customer, use: 'G03' });
    const global = await sdk.receipts.createGlobalInvoice({ periodicity: 'day', months: '05', year: 2025 });
    expect(invoiceShape.parse(global).customer).toMatchObject({
      tax_id: 'XAXX010101000',
      legal_name: 'PUBLICO EN GENERAL',
      tax_system: '616',
      address: { zip: '06600' },
    });
    expect([global.use, global.global]).toEqual(['S01', { periodicity: 'day', months: '05', year: 2025 }]);
    expect(Math.round(global.total * 100)).toBe(Math.round((a.total + b.total) * 100));
    expect((await sdk.receipts.retrieve(a.id)).status).toBe('invoiced_globally');
    // Nothing open is left: a second global has nothing to take.
    expect((await rejection(sdk.receipts.createGlobalInvoice({ periodicity: 'day', months: '05', year: 2025 }))).status).toBe(400);
    expect((await rejection(sdk.receipts.createGlobalInvoice({ periodicity: 'month', months: '13', year: 2025 }))).path).toBe('months');
  });

  it('fails, hangs or loses the answer on demand; our client tells a retryable failure from a refusal', async () => {
    const pac = facturapiPac({ apiKey: sim.apiKey, baseUrl: sim.apiUrl, timeoutMs: 300 });
    const input = { folio: ++folio, idempotencyKey: `p-${folio}`, paymentForm: '01', date: Date.now(), concepts };
    sim.control.addFault({ status: 503, path: '/v2/receipts' });
    await expect(pac.createReceipt(input)).rejects.toMatchObject({ retryable: true, status: 503 });
    sim.control.addFault({ hang: true, path: '/v2/receipts' });
    await expect(pac.createReceipt(input)).rejects.toMatchObject({ retryable: true, message: 'El PAC no respondió a tiempo' });
    sim.control.addFault({ dropAfter: true, path: '/v2/receipts' });
    const lost = await pac.createReceipt(input).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(PacError);
    expect((lost as PacError).retryable).toBe(true);
    // The receipt was made before the answer was lost: the retry gets that one, not a second.
    const made = await pac.createReceipt(input);
    expect([...sim.store.receipts.values()].filter((r) => r.folio_number === input.folio).map((r) => r.id)).toEqual([made.id]);
    await expect(pac.createReceipt({ ...input, folio: ++folio, idempotencyKey: 'x', paymentForm: '99' })).rejects.toMatchObject({
      retryable: false,
      status: 400,
    });
  });
});
