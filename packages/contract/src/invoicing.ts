import { z } from 'zod';
import { CANCELLATION_MOTIVES, GLOBAL_PERIODS, INVOICE_MESSAGES, INVOICE_STATES, INVOICING_STATES, LEGAL_NAME_MAX } from '@comanda/domain';
import { CentsSchema, IdSchema, InstantSchema } from './common.ts';

/**
 * Facturación: the cashier's "Facturar" of a ticket, the factura global and cancellations. The
 * shapes only; the receptor's rules across fields (RFC × régimen × uso) are the domain's and the
 * server answers them as 422 `invoice_receptor_invalid` with the field in `field`.
 */
export const InvoiceStateSchema = z.enum(INVOICE_STATES);

export const InvoiceViewSchema = z.object({
  id: IdSchema,
  kind: z.enum(['cliente', 'global']),
  state: InvoiceStateSchema,
  /** The ticket it invoices (a customer's invoice), and its folio. */
  orderId: z.string().nullable(),
  folio: z.number().int().nullable(),
  uuid: z.string().nullable(),
  total: CentsSchema.nullable(),
  rfc: z.string(),
  legalName: z.string(),
  email: z.string().nullable(),
  paymentForm: z.string().nullable(),
  use: z.string().nullable(),
  /** A factura global's period: its periodicity, month(s) and year, and the receipts it holds. */
  periodKey: z.string().nullable(),
  periodicity: z.string().nullable(),
  months: z.string().nullable(),
  year: z.number().int().nullable(),
  receipts: z.number().int().nullable(),
  /** Why the PAC refused it or could not be reached, in Spanish. */
  lastError: z.string().nullable(),
  attempts: z.number().int(),
  cancelMotive: z.string().nullable(),
  cancelSubstitution: z.string().nullable(),
  /** The PAC's answer to the cancellation: pending (the receptor must accept) or accepted. */
  cancellationStatus: z.string().nullable(),
  emailedAt: InstantSchema.nullable(),
  emailError: z.string().nullable(),
  createdAt: InstantSchema,
  stampedAt: InstantSchema.nullable(),
  cancelledAt: InstantSchema.nullable(),
  /** Created by the cashier's "Facturar", by the customer at the self-invoice page, or by the period's end. */
  origin: z.enum(['caja', 'autofactura', 'global']),
});
export type InvoiceView = z.infer<typeof InvoiceViewSchema>;

export const ReceiptViewSchema = z.object({
  orderId: z.string(),
  folio: z.number().int(),
  state: z.enum(INVOICING_STATES),
  total: CentsSchema,
  receiptKey: z.string().nullable(),
  selfInvoiceUrl: z.string().nullable(),
  expiresAt: InstantSchema.nullable(),
  lastError: z.string().nullable(),
  attempts: z.number().int(),
  paidAt: InstantSchema.nullable(),
  invoiceId: z.string().nullable(),
});
export type ReceiptView = z.infer<typeof ReceiptViewSchema>;

export const InvoicingOverviewSchema = z.object({
  mode: z.enum(['demo', 'live', 'off']),
  periodicity: z.enum(GLOBAL_PERIODS),
  receipts: z.array(ReceiptViewSchema),
  invoices: z.array(InvoiceViewSchema),
});
export type InvoicingOverview = z.infer<typeof InvoicingOverviewSchema>;

/** A ticket's invoicing at the cashier: its receipt's state, its invoices, and the forma de pago its payments give. */
export const TicketInvoiceInfoSchema = z.object({
  receipt: ReceiptViewSchema.nullable(),
  invoices: z.array(InvoiceViewSchema),
  paymentForm: z.string(),
  /** Why it cannot be invoiced now (already invoiced, in the global, nothing charged); null: it can. */
  blocked: z.string().nullable(),
});
export type TicketInvoiceInfo = z.infer<typeof TicketInvoiceInfoSchema>;

export const InvoiceTicketBodySchema = z.strictObject({
  rfc: z.string().trim().max(20),
  legalName: z.string().trim().min(1, INVOICE_MESSAGES.legalNameRequired).max(LEGAL_NAME_MAX, INVOICE_MESSAGES.legalNameTooLong),
  zip: z.string().trim().max(10),
  taxSystem: z.string().trim().max(3),
  use: z.string().trim().max(4),
  email: z.string().trim().max(254).default(''),
  /** A waiter at the cashier identifies with a PIN; a signed-in admin needs none. */
  pin: z.string().max(12).optional(),
});
export type InvoiceTicketBody = z.infer<typeof InvoiceTicketBodySchema>;

export const CancelInvoiceBodySchema = z.strictObject({
  motive: z.enum(Object.keys(CANCELLATION_MOTIVES) as ['01', '02', '03', '04'], { error: INVOICE_MESSAGES.motive }),
  substitution: z.string().trim().max(40).optional(),
  /** An administrator's PIN. */
  pin: z.string().max(12),
});
export type CancelInvoiceBody = z.infer<typeof CancelInvoiceBodySchema>;

export const InvoiceParamsSchema = z.object({ id: IdSchema });
export const InvoiceOrderParamsSchema = z.object({ orderId: IdSchema });
export const InvoiceResponseSchema = z.object({ invoice: InvoiceViewSchema });
export const GlobalNowResponseSchema = z.object({ invoices: z.array(InvoiceViewSchema) });
