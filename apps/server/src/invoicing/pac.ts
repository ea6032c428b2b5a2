import type { CancellationMotive, CfdiConcept, GlobalPeriodicity } from '@comanda/domain';

/**
 * What Comanda asks of a PAC (proveedor autorizado de certificación), so another one can be added
 * beside Facturapi: a receipt per paid check (with the PAC's self-invoice page), a receipt turned
 * into a customer's CFDI, the factura global of the receipts nobody invoiced, cancellations and
 * the stamped files. The CSD stays with the PAC; money crosses this interface in centavos.
 */
export interface PacReceiptInput {
  /** The check's folio: the receipt's folio_number. */
  folio: number;
  /** The same for every attempt of this check's receipt: the PAC answers the first receipt again. */
  idempotencyKey: string;
  /** SAT's c_FormaPago. */
  paymentForm: string;
  /** When the check was paid (epoch ms). */
  date: number;
  concepts: readonly CfdiConcept[];
}

export type PacReceiptStatus = 'open' | 'canceled' | 'invoiced_to_customer' | 'invoiced_globally';

export interface PacReceipt {
  id: string;
  /** The short key the customer types at the self-invoice page. */
  key: string;
  selfInvoiceUrl: string;
  /** Until when the customer may invoice it at the page (epoch ms). */
  expiresAt: number;
  status: PacReceiptStatus;
  folio: number | null;
  total: number;
  /** The CFDI it became, when invoiced. */
  invoiceId: string | null;
}

export interface PacCustomer {
  rfc: string;
  /** Nombre o razón social exactly as in the Constancia de Situación Fiscal. */
  legalName: string;
  zip: string;
  /** SAT's c_RegimenFiscal. */
  taxSystem: string;
  email?: string;
}

export type PacCancellationStatus = 'none' | 'pending' | 'accepted' | 'rejected' | 'expired' | 'verifying';

export interface PacInvoice {
  id: string;
  /** The SAT's folio fiscal. */
  uuid: string;
  status: 'valid' | 'canceled' | 'pending' | 'draft' | 'failed';
  cancellationStatus: PacCancellationStatus;
  total: number;
  customer: { rfc: string; legalName: string };
  /** A factura global's InformacionGlobal. */
  global: { periodicity: string; months: string; year: number } | null;
}

export interface PacGlobalInput {
  periodicity: GlobalPeriodicity;
  /** SAT's c_Meses: '01'…'12', or '13'…'18' for two months. */
  months: string;
  year: number;
  /** The receipts' dates it takes (epoch ms, inclusive); the PAC's last period when omitted. */
  from?: number;
  to?: number;
}

export interface Pac {
  readonly name: string;
  createReceipt(input: PacReceiptInput): Promise<PacReceipt>;
  retrieveReceipt(id: string): Promise<PacReceipt>;
  invoiceReceipt(receiptId: string, input: { customer: PacCustomer; use: string }): Promise<PacInvoice>;
  createGlobalInvoice(input: PacGlobalInput): Promise<PacInvoice>;
  cancelInvoice(invoiceId: string, motive: CancellationMotive, substitution?: string): Promise<PacInvoice>;
  /** An invoice as the PAC holds it now (a lost answer's CFDI, a cancellation's progress). */
  retrieveInvoice(invoiceId: string): Promise<PacInvoice>;
  downloadPdf(invoiceId: string): Promise<Buffer>;
  downloadXml(invoiceId: string): Promise<Buffer>;
}

/**
 * A PAC call that failed. `retryable`: the PAC or the network is down, slow or busy (the call may
 * be repeated as it was); otherwise the PAC refused what was sent, and says why in `message`.
 */
export class PacError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status: number | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'PacError';
  }
}
