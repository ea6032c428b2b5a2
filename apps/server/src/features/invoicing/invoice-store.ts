import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { InvoiceView, ReceiptView } from '@comanda/contract';
import { cents } from '@comanda/domain';
import type { InvoicesTable } from '../../db/schema-invoices.ts';
import type { InvoiceReceiptsTable } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import type { AppContext } from '../../http/context.ts';
import { AppError, conflict } from '../../http/errors.ts';
import { durably } from '../../db/transact.ts';
import { invoicingService } from '../../model/invoicing/invoicing-service.ts';
import type { Pac, PacInvoice } from '../../invoicing/pac.ts';

/** Invoices and receipts as the Facturación screen and the cashier read them. */
export type InvoiceRow = Selectable<InvoicesTable>;
export type ReceiptRow = Selectable<InvoiceReceiptsTable>;

export const INVOICING_TEXT = {
  off: 'La facturación no está activa en este servidor',
  notPaid: 'Solo se factura un ticket pagado',
  noReceipt: 'Este ticket se pagó antes de activar la facturación: no tiene recibo',
  noAmount: 'Este ticket no cobró nada antes de la propina: no hay qué facturar',
  invoiced: 'Este ticket ya se facturó',
  inGlobal: 'Este ticket ya está en la factura global de su periodo',
  cancelled: 'El recibo de este ticket se canceló',
  inProgress: 'Este ticket se está facturando en este momento',
  pinRequired: 'Escribe tu PIN para facturar',
  notFound: 'No se encontró la factura',
  notCancelable: 'Solo se cancela una factura timbrada',
  pacDown: 'El PAC no respondió. La factura queda pendiente y se reintentará; revisa Facturación.',
  globalNothing: 'No hay recibos por facturar en el periodo',
  substitutionUnknown: 'No hay una factura timbrada con ese folio fiscal (UUID)',
} as const;

export function pacOf(ctx: AppContext): { pac: Pac; mode: 'demo' | 'live' } {
  const service = invoicingService(ctx);
  if (!service) throw new AppError(503, 'invoicing_off', INVOICING_TEXT.off);
  return { pac: service.pac, mode: service.mode };
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

export function presentInvoice(r: InvoiceRow, folio: number | null = null): InvoiceView {
  return {
    id: r.id,
    kind: r.kind,
    state: r.state,
    orderId: r.order_id,
    folio,
    uuid: r.uuid,
    total: r.total === null ? null : cents(Number(r.total)),
    rfc: r.rfc,
    legalName: r.legal_name,
    email: r.email,
    paymentForm: r.payment_form,
    use: r.cfdi_use,
    periodKey: r.period_key,
    periodicity: r.periodicity,
    months: r.months,
    year: r.year === null ? null : Number(r.year),
    receipts: r.receipt_count === null ? null : Number(r.receipt_count),
    lastError: r.last_error,
    attempts: Number(r.attempts),
    cancelMotive: r.cancel_motive,
    cancelSubstitution: r.cancel_substitution,
    cancellationStatus: r.cancellation_status,
    emailedAt: num(r.emailed_at),
    emailError: r.email_error,
    createdAt: Number(r.created_at),
    stampedAt: num(r.stamped_at),
    cancelledAt: num(r.cancelled_at),
    origin: r.origin,
  };
}

export function presentReceipt(r: ReceiptRow, paidAt: number | null): ReceiptView {
  return {
    orderId: r.order_id,
    folio: Number(r.folio),
    state: r.state === 'sin_importe' ? 'emitido' : r.state,
    total: cents(Number(r.total)),
    receiptKey: r.receipt_key,
    selfInvoiceUrl: r.self_invoice_url,
    expiresAt: num(r.expires_at),
    lastError: r.last_error,
    attempts: Number(r.attempts),
    paidAt,
    invoiceId: r.invoice_id,
  };
}

/** Retry pacing and the lease of a PAC call on an invoice row. */
export const invoiceTiming = (ctx: AppContext) => ({
  retryMs: ctx.config.INVOICING_RETRY_MS,
  retryMaxMs: ctx.config.INVOICING_RETRY_MAX_MS,
  leaseMs: ctx.config.INVOICING_TIMEOUT_MS * 3,
});

/**
 * Claims a 'solicitando' invoice row under a lease, so one worker at a time calls the PAC for it:
 * the claimed row and its token, or null when another worker holds it or it is no longer asked for.
 */
export async function claimInvoice(ctx: AppContext, id: string, now: number): Promise<{ row: InvoiceRow; token: string } | null> {
  const token = randomUUID();
  const row = await durably(ctx.db, (w) =>
    w
      .updateTable('invoices')
      .set({ claim: token, lease_until: now + invoiceTiming(ctx).leaseMs, attempts: sql<number>`attempts + 1`, updated_at: now })
      .where('id', '=', id)
      .where('state', '=', 'solicitando')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .returningAll()
      .executeTakeFirst(),
  );
  return row ? { row, token } : null;
}

export async function findInvoice(db: Trx, id: string): Promise<InvoiceRow> {
  const row = await db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError(404, 'not_found', INVOICING_TEXT.notFound);
  return row;
}

/** The folios of these tickets (a customer invoice names its ticket by folio). */
export async function foliosOf(db: Trx, orderIds: readonly (string | null)[]): Promise<Map<string, number>> {
  const ids = [...new Set(orderIds.filter((x): x is string => x !== null))];
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('orders').select(['id', 'folio']).where('id', 'in', ids).execute();
  return new Map(rows.filter((r) => r.folio !== null).map((r) => [r.id, Number(r.folio)]));
}

export async function viewOf(db: Trx, row: InvoiceRow): Promise<InvoiceView> {
  return presentInvoice(row, row.order_id ? ((await foliosOf(db, [row.order_id])).get(row.order_id) ?? null) : null);
}

/** Why a ticket's receipt cannot be invoiced to a customer now; null when it can. */
export function receiptBlocked(receipt: Pick<ReceiptRow, 'state'> | undefined): string | null {
  if (!receipt) return INVOICING_TEXT.noReceipt;
  switch (receipt.state) {
    case 'pendiente':
    case 'emitido':
      return null;
    case 'facturado':
      return INVOICING_TEXT.invoiced;
    case 'en_global':
      return INVOICING_TEXT.inGlobal;
    case 'cancelado':
      return INVOICING_TEXT.cancelled;
    case 'sin_importe':
      return INVOICING_TEXT.noAmount;
  }
}

export const inProgress = () => conflict(INVOICING_TEXT.inProgress, 'invoice_in_progress');

/** A second live invoice of one ticket, met at its unique index by a concurrent request. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The columns of an invoice row the PAC stamped (the customer's and the global's alike). */
export function stampedColumns(pac: Pac, stamped: PacInvoice, at: number) {
  return {
    state: 'timbrada',
    claim: null,
    lease_until: null,
    last_error: null,
    pac: pac.name,
    pac_invoice_id: stamped.id,
    uuid: stamped.uuid,
    total: stamped.total,
    stamped_at: at,
    updated_at: at,
  } as const;
}
