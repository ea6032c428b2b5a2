import { z } from 'zod';
import { CentsSchema, IdSchema, InstantSchema, IsoDateSchema } from './common.ts';
import { OrderSchema, PaymentMethodSchema } from './orders.ts';

/** Opaque keyset cursor: `${completedAt}.${orderId}` of the last ticket of the previous page. */
export const TicketCursorSchema = z.string().regex(/^\d{1,16}\.[A-Za-z0-9_-]{1,64}$/, 'Cursor inválido');

export const TICKETS_PAGE_DEFAULT = 30;
export const TICKETS_PAGE_MAX = 100;

export const TicketsQuerySchema = z.strictObject({
  search: z.string().trim().max(100, 'Búsqueda demasiado larga').optional(),
  cursor: TicketCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(TICKETS_PAGE_MAX).default(TICKETS_PAGE_DEFAULT),
  /** 'cancelado' lists the cancelled orders instead; they are never sales. */
  status: z.enum(['pagado', 'cancelado']).default('pagado'),
});
export type TicketsQuery = z.infer<typeof TicketsQuerySchema>;

export const TicketPaymentSchema = z.object({
  id: IdSchema,
  method: PaymentMethodSchema,
  amount: CentsSchema,
});
export type TicketPayment = z.infer<typeof TicketPaymentSchema>;

export const TicketInvoicingSchema = z.object({
  state: z.enum(['pendiente', 'emitido', 'facturado', 'en_global', 'cancelado']),
  /** The self-invoice page and the key printed on the ticket; null while the receipt is queued. */
  selfInvoiceUrl: z.string().nullable(),
  receiptKey: z.string().nullable(),
  /** Until when the customer may invoice it at the page. */
  expiresAt: InstantSchema.nullable(),
  /** Why the last attempt to send the receipt failed, in the PAC's words; null when it did not. */
  lastError: z.string().nullable(),
});
export type TicketInvoicing = z.infer<typeof TicketInvoicingSchema>;

/** One paid order as the history lists it; the full ticket comes from GET /api/tickets/:orderId. */
export const TicketSummarySchema = z.object({
  id: IdSchema,
  /** First 6 characters of the order id in capitals (SPEC §9). */
  ticketNumber: z.string(),
  tableNumber: z.number().int(),
  tableName: z.string().nullable(),
  waiterName: z.string().nullable(),
  subtotal: CentsSchema,
  tip: CentsSchema,
  total: CentsSchema,
  completedAt: InstantSchema,
  /** Calendar day of completedAt in the business time zone, for grouping by day. */
  businessDate: IsoDateSchema,
  payment: TicketPaymentSchema.nullable(),
  /** Consecutive sale number (null for orders paid before folios existed and never backfilled). */
  folio: z.number().int().nullable(),
  /** Every payment of the order, oldest first (mixed payments: one per method and part). */
  payments: z.array(TicketPaymentSchema),
  /** Absent on paid tickets; 'cancelado' with the reason on a cancelled order. */
  status: z.enum(['pagado', 'cancelado']).optional(),
  cancelReason: z.string().nullable().optional(),
  /**
   * The ticket's CFDI: its PAC receipt queued (pendiente), issued with its self-invoice page
   * (emitido), invoiced to a customer (facturado), in a factura global (en_global) or cancelled.
   * Null: none (paid before invoicing, or it charged nothing); absent where not read.
   */
  invoicing: TicketInvoicingSchema.nullable().optional(),
});
export type TicketSummary = z.infer<typeof TicketSummarySchema>;

export const TicketsPageSchema = z.object({
  tickets: z.array(TicketSummarySchema),
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: TicketCursorSchema.nullable(),
  /** Today in the business time zone, so the browser labels 'Hoy' whatever its own zone. */
  today: IsoDateSchema,
  timezone: z.string(),
});
export type TicketsPage = z.infer<typeof TicketsPageSchema>;

export const TicketParamsSchema = z.object({ orderId: IdSchema });

/** GET /api/tickets/:orderId: the paid (or cancelled) order, its CFDI state and, once issued, the self-invoice QR. */
export const TicketResponseSchema = z.object({
  order: OrderSchema,
  /** Absent before invoicing existed; null: no receipt (paid before invoicing, or it charged nothing). */
  invoicing: TicketInvoicingSchema.nullable().optional(),
  /** The self-invoice page's QR as SVG markup, drawn by the server; null until the receipt is issued. */
  selfInvoiceQrSvg: z.string().nullable().optional(),
});
export type TicketResponse = z.infer<typeof TicketResponseSchema>;

/** POST /api/tickets/:orderId/print: the jobs queued on the caja printers (0: none set, the browser prints). */
export const TicketPrintResponseSchema = z.object({ jobs: z.number().int() });
