import { randomBytes, randomUUID } from 'node:crypto';
import { type GLOBAL_PERIODICITIES, PUBLICO_EN_GENERAL } from '@comanda/domain';
import type { SimCustomer, SimItem } from './validate.ts';
import { SimInvalid } from './validate.ts';

/** Facturapi's ids look like MongoDB's ObjectIds: 24 hexadecimal characters. */
const objectId = () => randomBytes(12).toString('hex');
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** A receipt's self-invoice key: 8 characters drawn from 56, as unguessable as the PAC's own. */
function receiptKey(): string {
  const bytes = randomBytes(16);
  let key = '';
  for (const b of bytes) {
    if (b >= 224) continue; // 224 = 4 × 56: no bias
    key += ALPHABET[b % ALPHABET.length];
    if (key.length === 8) return key;
  }
  return receiptKey();
}

export interface SimIssuer {
  rfc: string;
  legalName: string;
  taxSystem: string;
  /** Lugar de expedición: the código postal of the issuing branch. */
  zip: string;
}

export interface SimReceipt {
  id: string;
  created_at: string;
  livemode: false;
  organization: string;
  date: string;
  expires_at: string;
  status: 'open' | 'canceled' | 'invoiced_to_customer' | 'invoiced_globally';
  self_invoice_url: string;
  total: number;
  invoice: string | null;
  customer: string | null;
  key: string;
  items: Omit<SimItem, 'totalCents'>[];
  external_id: string | null;
  idempotency_key: string | null;
  folio_number: number;
  branch: string | null;
  payment_form: string;
  currency: 'MXN';
  exchange: 1;
  /** The total in centavos (not on the wire). */
  totalCents: number;
}

export interface SimInvoice {
  id: string;
  created_at: string;
  livemode: false;
  organization: string;
  date: string;
  status: 'valid' | 'canceled';
  cancellation_status: 'none' | 'pending' | 'accepted';
  verification_url: string;
  type: 'I';
  customer: SimCustomer;
  total: number;
  uuid: string;
  payment_form: string;
  payment_method: 'PUE';
  use: string;
  currency: 'MXN';
  exchange: 1;
  folio_number: number;
  series: string;
  items: Omit<SimItem, 'totalCents'>[];
  stamp: {
    date: string;
    sat_signature: string;
    sat_cert_number: string;
    signature: string;
    complement_string: string;
    rfc_provider_cert: string;
  };
  global: { periodicity: string; months: string; year: number } | null;
  cancellation: { requested_at: string; status: string; motive: string; substitutionUUID: string | null } | null;
  /** The receipts it invoices (not on the wire). */
  receipts: string[];
  totalCents: number;
}

const pesos = (c: number) => Math.round(c) / 100;
const SAT_CERT = '00001000000509846663';
const PROVIDER_RFC = 'SPR190613I52';
const signature = () => randomBytes(96).toString('base64');

/** The simulator's documents, in memory, with Facturapi's rules for each state change. */
export class SimStore {
  readonly receipts = new Map<string, SimReceipt>();
  readonly invoices = new Map<string, SimInvoice>();
  private readonly byIdempotency = new Map<string, string>();
  private readonly byFolio = new Map<number, string>();
  private nextInvoiceFolio = 1;
  readonly organization = objectId();
  /** How a cancellation is answered: accepted at once, or pending the receptor's answer. */
  cancellationMode: 'accepted' | 'pending' = 'accepted';

  constructor(
    readonly issuer: SimIssuer,
    private readonly selfInvoiceBase: () => string,
    /** Days a customer has to invoice a receipt at the page. */
    readonly expiresDays = 30,
  ) {}

  reset(): void {
    this.receipts.clear();
    this.invoices.clear();
    this.byIdempotency.clear();
    this.byFolio.clear();
    this.nextInvoiceFolio = 1;
    this.cancellationMode = 'accepted';
  }

  /** The receipt already made for this idempotency key or folio, if any: a retry gets it again. */
  existing(idempotencyKey: string | null, folio: number | null): SimReceipt | null {
    const id = (idempotencyKey && this.byIdempotency.get(idempotencyKey)) || (folio !== null ? this.byFolio.get(folio) : undefined);
    return id ? (this.receipts.get(id) ?? null) : null;
  }

  createReceipt(input: {
    items: SimItem[];
    paymentForm: string;
    folio: number | null;
    idempotencyKey: string | null;
    externalId: string | null;
    branch: string | null;
    date: Date;
    now: Date;
  }): SimReceipt {
    const totalCents = input.items.reduce((s, i) => s + i.totalCents, 0);
    const key = receiptKey();
    const folio = input.folio ?? this.receipts.size + 1;
    const receipt: SimReceipt = {
      id: objectId(),
      created_at: input.now.toISOString(),
      livemode: false,
      organization: this.organization,
      date: input.date.toISOString(),
      expires_at: new Date(input.date.getTime() + this.expiresDays * 86_400_000).toISOString(),
      status: 'open',
      self_invoice_url: `${this.selfInvoiceBase()}/${key}`,
      total: pesos(totalCents),
      invoice: null,
      customer: null,
      key,
      items: input.items.map(({ totalCents: _, ...item }) => item),
      external_id: input.externalId,
      idempotency_key: input.idempotencyKey,
      folio_number: folio,
      branch: input.branch,
      payment_form: input.paymentForm,
      currency: 'MXN',
      exchange: 1,
      totalCents,
    };
    this.receipts.set(receipt.id, receipt);
    if (input.idempotencyKey) this.byIdempotency.set(input.idempotencyKey, receipt.id);
    this.byFolio.set(folio, receipt.id);
    return receipt;
  }

  receiptByKey(key: string): SimReceipt | null {
    for (const r of this.receipts.values()) if (r.key === key) return r;
    return null;
  }

  private stamp(input: {
    customer: SimCustomer;
    use: string;
    paymentForm: string;
    items: SimReceipt['items'];
    totalCents: number;
    receipts: string[];
    global: SimInvoice['global'];
    series: string;
    now: Date;
  }): SimInvoice {
    const uuid = randomUUID().toUpperCase();
    const date = input.now.toISOString().slice(0, 19);
    const sello = signature();
    const selloSat = signature();
    const invoice: SimInvoice = {
      id: objectId(),
      created_at: input.now.toISOString(),
      livemode: false,
      organization: this.organization,
      date: input.now.toISOString(),
      status: 'valid',
      cancellation_status: 'none',
      verification_url:
        `https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=${uuid}&re=${this.issuer.rfc}` +
        `&rr=${input.customer.tax_id}&tt=${pesos(input.totalCents).toFixed(6)}&fe=${sello.slice(-8)}`,
      type: 'I',
      customer: input.customer,
      total: pesos(input.totalCents),
      uuid,
      payment_form: input.paymentForm,
      payment_method: 'PUE',
      use: input.use,
      currency: 'MXN',
      exchange: 1,
      folio_number: this.nextInvoiceFolio++,
      series: input.series,
      items: input.items,
      // The TimbreFiscalDigital 1.1's fields and its cadena original del complemento.
      stamp: {
        date,
        sat_signature: selloSat,
        sat_cert_number: SAT_CERT,
        signature: sello,
        complement_string: `||1.1|${uuid}|${date}|${PROVIDER_RFC}|${sello}|${SAT_CERT}||`,
        rfc_provider_cert: PROVIDER_RFC,
      },
      global: input.global,
      cancellation: null,
      receipts: input.receipts,
      totalCents: input.totalCents,
    };
    this.invoices.set(invoice.id, invoice);
    return invoice;
  }

  /** A receipt turned into a customer's CFDI: only an open one, and before it expires at the page. */
  invoiceReceipt(id: string, customer: SimCustomer, use: string, now: Date): SimInvoice {
    const receipt = this.receipts.get(id);
    if (!receipt) throw new SimInvalid('receipt_id', 'No se encontró el recibo', 404, 'not_found');
    if (receipt.status !== 'open') throw new SimInvalid('receipt_id', 'El recibo ya fue facturado o cancelado', 400, 'receipt_not_open');
    const invoice = this.stamp({
      customer,
      use,
      paymentForm: receipt.payment_form,
      items: receipt.items,
      totalCents: receipt.totalCents,
      receipts: [receipt.id],
      global: null,
      series: 'F',
      now,
    });
    receipt.status = 'invoiced_to_customer';
    receipt.invoice = invoice.id;
    return invoice;
  }

  /** The factura global of the open receipts dated within [from, to], each taken once. */
  globalInvoice(input: {
    periodicity: keyof typeof GLOBAL_PERIODICITIES;
    months: string;
    year: number;
    from: Date | null;
    to: Date | null;
    now: Date;
  }): SimInvoice {
    const open = [...this.receipts.values()].filter((r) => {
      if (r.status !== 'open') return false;
      const at = Date.parse(r.date);
      return (!input.from || at >= input.from.getTime()) && (!input.to || at <= input.to.getTime());
    });
    if (!open.length) throw new SimInvalid('from', 'No hay recibos abiertos en el periodo para la factura global', 400, 'no_receipts');
    // One concept per receipt, as SAT asks of a factura global (ClaveProdServ 01010101, ClaveUnidad ACT).
    const items = open.map((r) => ({
      quantity: 1,
      product: {
        description: 'Venta',
        product_key: '01010101',
        unit_key: 'ACT',
        unit_name: 'Actividad',
        price: r.total,
        tax_included: true,
        taxability: '02',
        taxes: r.items[0]?.product.taxes ?? [],
      },
    }));
    const customer: SimCustomer = {
      legal_name: PUBLICO_EN_GENERAL.nombre,
      tax_id: PUBLICO_EN_GENERAL.rfc,
      tax_system: PUBLICO_EN_GENERAL.regimen,
      email: null,
      address: { zip: this.issuer.zip, country: 'MEX' },
    };
    const byForm = new Map<string, number>();
    for (const r of open) byForm.set(r.payment_form, (byForm.get(r.payment_form) ?? 0) + r.totalCents);
    const paymentForm = [...byForm.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '01';
    const invoice = this.stamp({
      customer,
      use: PUBLICO_EN_GENERAL.uso,
      paymentForm,
      items,
      totalCents: open.reduce((s, r) => s + r.totalCents, 0),
      receipts: open.map((r) => r.id),
      global: { periodicity: input.periodicity, months: input.months, year: input.year },
      series: 'G',
      now: input.now,
    });
    for (const r of open) {
      r.status = 'invoiced_globally';
      r.invoice = invoice.id;
    }
    return invoice;
  }

  /** SAT's cancellation with its motive; 01 needs the substituting invoice, which must exist. */
  cancel(id: string, motive: string, substitution: string | null, now: Date): SimInvoice {
    const invoice = this.invoices.get(id);
    if (!invoice) throw new SimInvalid('invoice_id', 'No se encontró la factura', 404, 'not_found');
    if (!['01', '02', '03', '04'].includes(motive)) throw new SimInvalid('motive', '"motive" must be one of [01, 02, 03, 04]');
    if (motive === '01') {
      if (!substitution)
        throw new SimInvalid('substitution', 'El motivo 01 requiere la factura que sustituye a la cancelada (substitution)');
      const found = [...this.invoices.values()].some(
        (i) => (i.id === substitution || i.uuid === substitution.toUpperCase()) && i.id !== id,
      );
      if (!found) throw new SimInvalid('substitution', 'No se encontró la factura que sustituye a la cancelada');
    }
    if (invoice.status !== 'valid' || invoice.cancellation_status === 'pending')
      throw new SimInvalid('invoice_id', 'La factura ya fue cancelada o tiene una cancelación en curso', 400, 'invoice_not_cancelable');
    const pending = this.cancellationMode === 'pending';
    invoice.cancellation_status = pending ? 'pending' : 'accepted';
    if (!pending) invoice.status = 'canceled';
    invoice.cancellation = { requested_at: now.toISOString(), status: invoice.cancellation_status, motive, substitutionUUID: substitution };
    return invoice;
  }
}

/** What goes on the wire: the documents without the simulator's own fields. */
export function receiptJson(r: SimReceipt) {
  const { totalCents: _, ...wire } = r;
  return wire;
}

export function invoiceJson(i: SimInvoice) {
  const { totalCents: _, receipts: __, ...wire } = i;
  return wire;
}
