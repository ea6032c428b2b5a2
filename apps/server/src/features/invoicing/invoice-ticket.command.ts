import { Rfc } from '@nodecfdi/rfc';
import type { InvoiceTicketBody, InvoiceView, SessionUser } from '@comanda/contract';
import { FISCAL_MESSAGES, normalizeRfc, receptorProblems } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import { AppError, badRequest, conflict } from '../../http/errors.ts';
import { audit } from '../../http/audit.ts';
import { newId } from '../../http/ids.ts';
import { mutate } from '../../http/transaction.ts';
import type { WriteContext } from '../../http/request-context.ts';
import { durably, transact } from '../../db/transact.ts';
import { verifyPin } from '../../auth/verify-pin.ts';
import { assertMayWorkOrder } from '../../model/orders/order-access.ts';
import { IDEMPOTENCY_MESSAGES } from '../../http/idempotency.ts';
import { PacError, type Pac, type PacInvoice } from '../../invoicing/pac.ts';
import { backoff, issuedColumns, queueNewChecks, receiptInput } from '../../model/invoicing/receipt-queue.ts';
import { paymentFormOf } from '../../model/invoicing/payment-form.ts';
import {
  claimInvoice,
  findInvoice,
  invoiceTiming,
  inProgress,
  INVOICING_TEXT,
  isUniqueViolation,
  pacOf,
  receiptBlocked,
  stampedColumns,
  viewOf,
  type InvoiceRow,
  type ReceiptRow,
} from './invoice-store.ts';
import { sendInvoiceMail } from './invoice-mail.ts';

/**
 * The cashier's "Facturar": a paid ticket's receipt turned into a customer's CFDI at the PAC.
 * The request is recorded first ('solicitando', keyed by its Idempotency-Key, one live invoice per
 * ticket), then the PAC is called outside any transaction: the receipt created first when the
 * queue has not sent it yet (the PAC's idempotency key of the folio: one receipt whoever sends it),
 * then invoiced. A lost answer is recovered from the receipt's own state before any second call.
 */
export interface Caller {
  user: SessionUser;
  ip: string;
  sessionHash: string | null;
}

/** The receptor's problems, the first one's message the answer (422 `invoice_receptor_invalid`); the RFC by SAT's algorithm. */
export function checkReceptor(body: InvoiceTicketBody): void {
  const problems = receptorProblems({ ...body, email: body.email ?? '' });
  if (!problems.rfc) {
    const parsed = Rfc.parseOrNull(normalizeRfc(body.rfc));
    if (!parsed) problems.rfc = FISCAL_MESSAGES.rfcDate;
    else if (!parsed.doesCheckSumMatch()) problems.rfc = FISCAL_MESSAGES.rfcCheckDigit;
  }
  const first = Object.values(problems)[0];
  if (first) throw new AppError(422, 'invoice_receptor_invalid', first);
}

/** A waiter invoices and reads only the tickets of the orders he may work (his own); the admin, any. */
export async function mayInvoice(db: AppContext['db']['db'], user: SessionUser, orderId: string): Promise<void> {
  if (user.role === 'admin') return;
  const order = await db.selectFrom('orders').select('waiter_id').where('id', '=', orderId).executeTakeFirst();
  if (!order) throw new AppError(404, 'not_found', 'No se encontró el ticket');
  assertMayWorkOrder(user, order);
}

export async function invoiceTicket(
  ctx: WriteContext,
  caller: Caller,
  orderId: string,
  body: InvoiceTicketBody,
  idempotencyKey: string,
): Promise<InvoiceView> {
  const { pac } = pacOf(ctx);
  const earlier = await ctx.db.db.selectFrom('invoices').selectAll().where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  if (earlier) {
    await mayInvoice(ctx.db.db, caller.user, orderId);
    if (earlier.order_id !== orderId || normalizeRfc(body.rfc) !== earlier.rfc)
      throw new AppError(422, 'idempotency_key_reused', IDEMPOTENCY_MESSAGES.reused);
    // The first request is still at the PAC: this repeat is told so, as any key in flight is.
    if (earlier.state === 'solicitando' && earlier.lease_until !== null && Number(earlier.lease_until) > ctx.clock.now())
      throw conflict(IDEMPOTENCY_MESSAGES.inFlight, 'idempotency_in_flight');
    return answerOf(ctx, await stampCustomerInvoice(ctx, pac, earlier.id));
  }
  await mayInvoice(ctx.db.db, caller.user, orderId);
  checkReceptor(body);
  let cashier = { id: caller.user.id, displayName: caller.user.displayName };
  if (caller.user.role !== 'admin') {
    if (!body.pin) throw new AppError(403, 'pin_required', INVOICING_TEXT.pinRequired);
    cashier = await verifyPin(ctx, {
      pin: body.pin,
      actorId: caller.user.id,
      sessionHash: caller.sessionHash,
      ip: caller.ip,
      purpose: 'invoice',
    });
  }
  const order = await ctx.db.db.selectFrom('orders').select(['id', 'status', 'folio']).where('id', '=', orderId).executeTakeFirst();
  if (!order) throw new AppError(404, 'not_found', 'No se encontró el ticket');
  if (order.status !== 'pagado') throw new AppError(409, 'invoice_blocked', INVOICING_TEXT.notPaid);
  const receiptOf = () => ctx.db.db.selectFrom('invoice_receipts').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  // A check paid a moment ago may not be queued yet: queue it now (the queue's own step, safe anywhere).
  if (!(await receiptOf())) await queueNewChecks(ctx.db, ctx.clock.now());
  const paymentForm = await paymentFormOf(ctx.db.db, orderId);
  const id = newId();
  const timing = invoiceTiming(ctx);
  try {
    await mutate(ctx, async (trx) => {
      const now = ctx.clock.now();
      const receipt = await trx.selectFrom('invoice_receipts').select('state').where('order_id', '=', orderId).executeTakeFirst();
      const blocked = receiptBlocked(receipt);
      if (blocked) throw new AppError(409, 'invoice_blocked', blocked);
      const live = await trx
        .selectFrom('invoices')
        .select('id')
        .where('order_id', '=', orderId)
        .where('kind', '=', 'cliente')
        .where('state', 'in', ['solicitando', 'timbrada', 'cancelacion_pendiente'])
        .executeTakeFirst();
      if (live) throw inProgress();
      await trx
        .insertInto('invoices')
        .values({
          id,
          kind: 'cliente',
          origin: 'caja',
          state: 'solicitando',
          order_id: orderId,
          idempotency_key: idempotencyKey,
          rfc: normalizeRfc(body.rfc),
          legal_name: body.legalName.trim().toUpperCase(),
          zip: body.zip.trim(),
          tax_system: body.taxSystem,
          cfdi_use: body.use,
          email: body.email?.trim() || null,
          payment_form: paymentForm,
          attempts: 0,
          next_attempt_at: now + timing.retryMs,
          created_by: cashier.id,
          created_by_name: cashier.displayName,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await audit(trx, now, {
        actor: { id: caller.user.id, displayName: caller.user.displayName },
        ...(cashier.id !== caller.user.id ? { authorizedBy: cashier.id } : {}),
        action: 'invoice.request',
        entity: 'invoice',
        entityId: id,
        data: {
          orderId,
          folio: order.folio,
          rfc: normalizeRfc(body.rfc),
          use: body.use,
          taxSystem: body.taxSystem,
          cashier: cashier.displayName,
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw inProgress();
    throw error;
  }
  return answerOf(ctx, await stampCustomerInvoice(ctx, pac, id));
}

/** The answer of a request: the invoice stamped (or cancelled later), else the PAC's refusal or its silence. */
async function answerOf(ctx: AppContext, row: InvoiceRow): Promise<InvoiceView> {
  if (row.state === 'error') throw new AppError(422, 'pac_refused', row.last_error ?? INVOICING_TEXT.notFound);
  if (row.state === 'solicitando') throw new AppError(503, 'pac_unavailable', INVOICING_TEXT.pacDown);
  return viewOf(ctx.db.db, row);
}

/** Creates the ticket's receipt at the PAC when the queue has not yet (same idempotency key: one receipt), and records it. */
async function ensureReceipt(ctx: AppContext, pac: Pac, receipt: ReceiptRow): Promise<ReceiptRow> {
  if (receipt.pac_receipt_id) return receipt;
  const order = await ctx.db.db
    .selectFrom('orders')
    .select(['tax_breakdown', 'completed_at'])
    .where('id', '=', receipt.order_id)
    .executeTakeFirstOrThrow();
  const made = await pac.createReceipt(receiptInput(receipt, order, await paymentFormOf(ctx.db.db, receipt.order_id), ctx.clock.now()));
  // The queue's claim, if it holds one, is taken away: its late answer must not write over this.
  await durably(ctx.db, (w) =>
    w
      .updateTable('invoice_receipts')
      .set(issuedColumns(pac, made, ctx.clock.now()))
      .where('order_id', '=', receipt.order_id)
      .where('state', '=', 'pendiente')
      .execute(),
  );
  return (await ctx.db.db.selectFrom('invoice_receipts').selectAll().where('order_id', '=', receipt.order_id).executeTakeFirst())!;
}

/**
 * Works a 'solicitando' customer invoice once, under a lease (the request itself, its repeat, the
 * scheduler's retry): answers the row as it leaves it. Returns the row untouched when another
 * worker holds it.
 */
export async function stampCustomerInvoice(ctx: AppContext, pac: Pac, id: string): Promise<InvoiceRow> {
  const timing = invoiceTiming(ctx);
  const now = ctx.clock.now();
  const claim = await claimInvoice(ctx, id, now);
  if (!claim) return findInvoice(ctx.db.db, id);
  const { row: claimed, token } = claim;
  const mine = (w: typeof ctx.db.db) => w.updateTable('invoices').where('id', '=', id).where('claim', '=', token);
  try {
    let receipt = await ctx.db.db
      .selectFrom('invoice_receipts')
      .selectAll()
      .where('order_id', '=', claimed.order_id!)
      .executeTakeFirstOrThrow();
    receipt = await ensureReceipt(ctx, pac, receipt);
    let invoice: PacInvoice | null = null;
    // A retry: the PAC may have stamped it and lost the answer; the receipt says so.
    if (Number(claimed.attempts) > 1 || receipt.state !== 'emitido') invoice = await adoptedInvoice(pac, receipt, claimed.rfc);
    if (!invoice) {
      const blocked = receiptBlocked(receipt);
      if (blocked) throw new PacError(blocked, false);
      try {
        invoice = await pac.invoiceReceipt(receipt.pac_receipt_id!, {
          customer: {
            rfc: claimed.rfc,
            legalName: claimed.legal_name,
            zip: claimed.zip ?? '',
            taxSystem: claimed.tax_system ?? '',
            ...(claimed.email ? { email: claimed.email } : {}),
          },
          use: claimed.cfdi_use ?? 'G03',
        });
      } catch (error) {
        // Refused as "not open": a lost answer of ours, or the customer invoiced it at the page.
        if (error instanceof PacError && !error.retryable) invoice = await adoptedInvoice(pac, receipt, claimed.rfc);
        if (!invoice) throw error;
      }
    }
    const stamped = invoice;
    const at = ctx.clock.now();
    await transact(ctx.db, async (trx) => {
      const done = await mine(trx)
        .set(stampedColumns(pac, stamped, at))
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) return;
      await trx
        .updateTable('invoice_receipts')
        .set({ state: 'facturado', invoice_id: stamped.id, invoice_uuid: stamped.uuid, updated_at: at })
        .where('order_id', '=', claimed.order_id!)
        .execute();
      await audit(trx, at, {
        actor: claimed.created_by ? { id: claimed.created_by, displayName: claimed.created_by_name ?? '' } : null,
        action: 'invoice.stamp',
        entity: 'invoice',
        entityId: id,
        data: { orderId: claimed.order_id, uuid: stamped.uuid, total: stamped.total, rfc: claimed.rfc },
      });
    });
    const row = await findInvoice(ctx.db.db, id);
    if (row.state === 'timbrada' && row.email && row.emailed_at === null) await sendInvoiceMail(ctx, pac, row);
    return findInvoice(ctx.db.db, id);
  } catch (error) {
    const e = error instanceof PacError ? error : new PacError(String((error as Error)?.message ?? error), false);
    const at = ctx.clock.now();
    await durably(ctx.db, (w) =>
      mine(w)
        .set(
          e.retryable
            ? {
                claim: null,
                lease_until: null,
                last_error: e.message.slice(0, 500),
                next_attempt_at: at + backoff(Number(claimed.attempts), timing),
                updated_at: at,
              }
            : { state: 'error', claim: null, lease_until: null, last_error: e.message.slice(0, 500), updated_at: at },
        )
        .execute(),
    );
    return findInvoice(ctx.db.db, id);
  }
}

/** The invoice the PAC already made of this receipt for this RFC (a lost answer), or null. */
async function adoptedInvoice(pac: Pac, receipt: ReceiptRow, rfc: string): Promise<PacInvoice | null> {
  if (!receipt.pac_receipt_id) return null;
  const now = await pac.retrieveReceipt(receipt.pac_receipt_id);
  if (now.status !== 'invoiced_to_customer' || !now.invoiceId) return null;
  const invoice = await pac.retrieveInvoice(now.invoiceId);
  return invoice.customer.rfc === rfc ? invoice : null;
}

/** The Facturación screen's "Reintentar" of a customer invoice refused or waiting: tried again now. */
export async function retryCustomerInvoice(ctx: WriteContext, user: SessionUser, id: string): Promise<InvoiceView> {
  const { pac } = pacOf(ctx);
  const row = await findInvoice(ctx.db.db, id);
  if (row.kind !== 'cliente') throw badRequest(INVOICING_TEXT.notFound);
  if (row.state === 'error') {
    await mutate(ctx, async (trx) => {
      const now = ctx.clock.now();
      const live = await trx
        .selectFrom('invoices')
        .select('id')
        .where('order_id', '=', row.order_id!)
        .where('kind', '=', 'cliente')
        .where('id', '!=', id)
        .where('state', 'in', ['solicitando', 'timbrada', 'cancelacion_pendiente'])
        .executeTakeFirst();
      if (live) throw inProgress();
      await trx.updateTable('invoices').set({ state: 'solicitando', next_attempt_at: now, updated_at: now }).where('id', '=', id).execute();
      await audit(trx, now, {
        actor: { id: user.id, displayName: user.displayName },
        action: 'invoice.retry',
        entity: 'invoice',
        entityId: id,
        data: { orderId: row.order_id },
      });
    });
  }
  return viewOf(ctx.db.db, await stampCustomerInvoice(ctx, pac, id));
}
