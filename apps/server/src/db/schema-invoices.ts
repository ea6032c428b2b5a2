/** A CFDI stamped from the receipts: a customer's invoice of a ticket or a period's factura global (migration 0034-invoices). */
export interface InvoicesTable {
  id: string;
  kind: 'cliente' | 'global';
  origin: 'caja' | 'autofactura' | 'global';
  state: 'solicitando' | 'timbrada' | 'error' | 'cancelacion_pendiente' | 'cancelada' | 'vacia';
  order_id: string | null;
  idempotency_key: string | null;
  /** A global's period and its sequence ('day:2025-03-14#1'): unique, the claim of that period. */
  period_key: string | null;
  periodicity: string | null;
  months: string | null;
  year: number | null;
  period_from: number | null;
  period_to: number | null;
  receipt_count: number | null;
  rfc: string;
  legal_name: string;
  zip: string | null;
  tax_system: string | null;
  cfdi_use: string | null;
  email: string | null;
  payment_form: string | null;
  pac: string | null;
  pac_invoice_id: string | null;
  uuid: string | null;
  total: number | null;
  attempts: number;
  next_attempt_at: number;
  lease_until: number | null;
  claim: string | null;
  last_error: string | null;
  cancel_motive: string | null;
  cancel_substitution: string | null;
  cancellation_status: string | null;
  emailed_at: number | null;
  email_error: string | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: number;
  stamped_at: number | null;
  cancelled_at: number | null;
  updated_at: number;
}

export interface InvoicesTables {
  invoices: InvoicesTable;
}
