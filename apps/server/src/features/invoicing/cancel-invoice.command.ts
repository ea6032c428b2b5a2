import type { CancelInvoiceBody, InvoiceView } from '@comanda/contract';
import { cancellationProblem, type CancellationMotive } from '@comanda/domain';
import { AppError, conflict } from '../../http/errors.ts';
import { audit } from '../../http/audit.ts';
import { mutate } from '../../http/transaction.ts';
import type { WriteContext } from '../../http/request-context.ts';
import { verifyPin } from '../../auth/verify-pin.ts';
import { PacError, type PacInvoice } from '../../invoicing/pac.ts';
import { findInvoice, INVOICING_TEXT, pacOf, viewOf, type InvoiceRow } from './invoice-store.ts';
import type { Caller } from './invoice-ticket.command.ts';

/**
 * Cancels a stamped CFDI at the PAC with SAT's motive (01 names the invoice that replaces it),
 * authorised by an administrator's PIN and audited. The PAC answers 'accepted' or 'pending' (the
 * receptor has to accept it): both are kept and shown; a pending one is read again on "Actualizar".
 * The same request again (same motive) answers the cancellation already asked.
 */
export async function cancelInvoice(ctx: WriteContext, caller: Caller, id: string, body: CancelInvoiceBody): Promise<InvoiceView> {
  const { pac } = pacOf(ctx);
  const problem = cancellationProblem(body.motive, body.substitution);
  if (problem) throw new AppError(422, 'invoice_cancel_invalid', problem);
  const admin = await verifyPin(ctx, {
    pin: body.pin,
    actorId: caller.user.id,
    sessionHash: caller.sessionHash,
    ip: caller.ip,
    purpose: 'invoice-cancel',
    roles: ['admin'],
  });
  const row = await findInvoice(ctx.db.db, id);
  if ((row.state === 'cancelada' || row.state === 'cancelacion_pendiente') && row.cancel_motive === body.motive)
    return viewOf(ctx.db.db, row);
  if (row.state !== 'timbrada' || !row.pac_invoice_id) throw conflict(INVOICING_TEXT.notCancelable, 'invoice_not_cancelable');
  const substitution = body.motive === '01' ? body.substitution!.trim().toUpperCase() : undefined;
  if (substitution) {
    const replacing = await ctx.db.db
      .selectFrom('invoices')
      .select('pac_invoice_id')
      .where('uuid', '=', substitution)
      .where('state', '=', 'timbrada')
      .where('id', '!=', id)
      .executeTakeFirst();
    if (!replacing) throw new AppError(422, 'invoice_cancel_invalid', INVOICING_TEXT.substitutionUnknown);
  }
  let answer: PacInvoice;
  try {
    answer = await pac.cancelInvoice(row.pac_invoice_id, body.motive as CancellationMotive, substitution);
  } catch (error) {
    if (error instanceof PacError)
      throw error.retryable ? new AppError(503, 'pac_unavailable', error.message) : new AppError(422, 'pac_refused', error.message);
    throw error;
  }
  return viewOf(ctx.db.db, await recordCancellation(ctx, row, answer, { motive: body.motive, substitution, actor: caller, admin }));
}

async function recordCancellation(
  ctx: WriteContext,
  row: InvoiceRow,
  answer: PacInvoice,
  by: { motive: string; substitution: string | undefined; actor: Caller; admin: { id: string; displayName: string } },
): Promise<InvoiceRow> {
  const accepted = answer.status === 'canceled' || answer.cancellationStatus === 'accepted';
  await mutate(ctx, async (trx) => {
    const now = ctx.clock.now();
    await trx
      .updateTable('invoices')
      .set({
        state: accepted ? 'cancelada' : 'cancelacion_pendiente',
        cancel_motive: by.motive,
        cancel_substitution: by.substitution ?? null,
        cancellation_status: answer.cancellationStatus,
        cancelled_at: accepted ? now : null,
        updated_at: now,
      })
      .where('id', '=', row.id)
      .execute();
    // A customer's invoice cancelled: its ticket's CFDI stands cancelled.
    if (accepted && row.kind === 'cliente' && row.order_id)
      await trx
        .updateTable('invoice_receipts')
        .set({ state: 'cancelado', updated_at: now })
        .where('order_id', '=', row.order_id)
        .where('invoice_id', '=', row.pac_invoice_id)
        .execute();
    await audit(trx, now, {
      actor: { id: by.actor.user.id, displayName: by.actor.user.displayName },
      authorizedBy: by.admin.id,
      action: 'invoice.cancel',
      entity: 'invoice',
      entityId: row.id,
      data: {
        uuid: row.uuid,
        motive: by.motive,
        substitution: by.substitution ?? null,
        answer: answer.cancellationStatus,
        authorizedByName: by.admin.displayName,
      },
    });
  });
  return findInvoice(ctx.db.db, row.id);
}

/** A pending cancellation read again from the PAC (the receptor may have accepted it since). */
export async function refreshCancellation(ctx: WriteContext, id: string): Promise<InvoiceView> {
  const { pac } = pacOf(ctx);
  const row = await findInvoice(ctx.db.db, id);
  if (row.state !== 'cancelacion_pendiente' || !row.pac_invoice_id) return viewOf(ctx.db.db, row);
  const answer = await pac.retrieveInvoice(row.pac_invoice_id);
  const accepted = answer.status === 'canceled' || answer.cancellationStatus === 'accepted';
  const rejected = answer.cancellationStatus === 'rejected' || answer.cancellationStatus === 'expired';
  if (!accepted && !rejected) return viewOf(ctx.db.db, row);
  await mutate(ctx, async (trx) => {
    const now = ctx.clock.now();
    await trx
      .updateTable('invoices')
      .set({
        state: accepted ? 'cancelada' : 'timbrada',
        cancellation_status: answer.cancellationStatus,
        cancelled_at: accepted ? now : null,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
    if (accepted && row.kind === 'cliente' && row.order_id)
      await trx.updateTable('invoice_receipts').set({ state: 'cancelado', updated_at: now }).where('order_id', '=', row.order_id).execute();
  });
  return viewOf(ctx.db.db, await findInvoice(ctx.db.db, id));
}
