import type { Updateable } from 'kysely';
import type { InvoicesTable } from '../../db/schema-invoices.ts';
import type { SessionUser } from '@comanda/contract';
import { globalPeriodOf, PUBLICO_EN_GENERAL, type GlobalPeriod, type GlobalPeriodSpan, type InvoicingState } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import { audit } from '../../http/audit.ts';
import { newId } from '../../http/ids.ts';
import { durably, transact } from '../../db/transact.ts';
import { mutate } from '../../http/transaction.ts';
import type { WriteContext } from '../../http/request-context.ts';
import { getFiscalSettings } from '../../model/fiscal-store.ts';
import { getGeneralConfig } from '../../model/config-store.ts';
import { backoff, RECEIPT_STATE_OF } from '../../model/invoicing/receipt-queue.ts';
import { PacError, type Pac, type PacInvoice } from '../../invoicing/pac.ts';
import { claimInvoice, findInvoice, invoiceTiming, stampedColumns, type InvoiceRow } from './invoice-store.ts';

/**
 * The factura global: at the end of each period (Datos fiscales: diaria, semanal o mensual) the
 * receipts nobody invoiced go to the público en general in one CFDI. A period is claimed by its
 * key (`day:2025-03-14#1`, unique), so two processes or a restart never ask twice; the claimed row
 * is stamped under a lease and retried until the PAC stamps it. The PAC itself takes each open
 * receipt into one global at most; a lost answer is recovered from a receipt's state. A receipt
 * issued late for a period already stamped goes into a further global of that period (`#2`).
 */

/** A period's receipts still queued (the PAC was down) are waited for this long after it ends. */
export const GLOBAL_WAIT_MS = 6 * 3600_000;
const RECONCILE_IN_FLIGHT = 8;

async function settingsOf(ctx: AppContext): Promise<{ periodicity: GlobalPeriod; timezone: string }> {
  const [fiscal, general] = await Promise.all([getFiscalSettings(ctx.db.db), getGeneralConfig(ctx.db.db, ctx.config.BUSINESS_TIMEZONE)]);
  return { periodicity: fiscal.facturaGlobal, timezone: general.timezone };
}

/** The receipts a global may still take, with the instant of their sale. */
function openReceipts(ctx: AppContext, before: number, from = 0) {
  return ctx.db.db
    .selectFrom('invoice_receipts as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select(['r.order_id', 'r.state', 'r.total', 'r.pac_receipt_id', 'o.completed_at'])
    .where('r.state', 'in', ['emitido', 'pendiente'])
    .where('o.completed_at', '>=', from)
    .where('o.completed_at', '<', before)
    .execute();
}

/** Claims the next global of a period (`key#n`): nothing while one of it is still being stamped. */
async function claimPeriod(ctx: AppContext, period: GlobalPeriodSpan, to: number): Promise<boolean> {
  const rows = await ctx.db.db
    .selectFrom('invoices')
    .select(['period_key', 'state'])
    .where('kind', '=', 'global')
    .where('period_key', 'like', `${period.key}#%`)
    .execute();
  if (rows.some((r) => r.state === 'solicitando')) return false;
  const now = ctx.clock.now();
  const inserted = await durably(ctx.db, (w) =>
    w
      .insertInto('invoices')
      .values({
        id: newId(),
        kind: 'global',
        origin: 'global',
        state: 'solicitando',
        period_key: `${period.key}#${rows.length + 1}`,
        periodicity: period.periodicity,
        months: period.months,
        year: period.year,
        period_from: period.from,
        period_to: to,
        rfc: PUBLICO_EN_GENERAL.rfc,
        legal_name: PUBLICO_EN_GENERAL.nombre,
        tax_system: PUBLICO_EN_GENERAL.regimen,
        cfdi_use: PUBLICO_EN_GENERAL.uso,
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst(),
  );
  return Boolean(inserted);
}

/** Claims a global for every ended period holding receipts nobody invoiced. */
export async function planGlobals(ctx: AppContext): Promise<number> {
  const { periodicity, timezone } = await settingsOf(ctx);
  const now = ctx.clock.now();
  const current = globalPeriodOf(periodicity, now, timezone);
  const periods = new Map<string, { span: GlobalPeriodSpan; open: number; queued: number }>();
  for (const r of await openReceipts(ctx, current.from)) {
    const span = globalPeriodOf(periodicity, Number(r.completed_at), timezone);
    const p = periods.get(span.key) ?? { span, open: 0, queued: 0 };
    if (r.state === 'emitido') p.open += 1;
    else p.queued += 1;
    periods.set(span.key, p);
  }
  let claimed = 0;
  for (const p of periods.values()) {
    if (!p.open) continue;
    // Receipts still queued (the PAC was down) join their period's global when they can.
    if (p.queued && now < p.span.to + GLOBAL_WAIT_MS) continue;
    if (await claimPeriod(ctx, p.span, p.span.to)) claimed += 1;
  }
  return claimed;
}

/**
 * "Emitir global ahora": the current period's global, up to this moment (the rest of the period
 * gets its own at its end). Audited first, which claims the request's key: a repeat answers it.
 */
export async function claimGlobalNow(ctx: WriteContext, user: SessionUser): Promise<void> {
  const { periodicity, timezone } = await settingsOf(ctx);
  const now = ctx.clock.now();
  const current = globalPeriodOf(periodicity, now, timezone);
  await mutate(ctx, (trx) =>
    audit(trx, now, {
      actor: { id: user.id, displayName: user.displayName },
      action: 'invoice.global.now',
      entity: 'invoice',
      entityId: current.key,
      data: { period: current.key, until: now },
    }),
  );
  await planGlobals(ctx);
  await claimPeriod(ctx, current, now + 1);
}

/** Stamps the due globals, each under a lease; answers how many it stamped. */
export async function stampDueGlobals(ctx: AppContext, pac: Pac): Promise<number> {
  const now = ctx.clock.now();
  const due = await ctx.db.db
    .selectFrom('invoices')
    .select('id')
    .where('kind', '=', 'global')
    .where('state', '=', 'solicitando')
    .where('next_attempt_at', '<=', now)
    .orderBy('period_key')
    .execute();
  let stamped = 0;
  for (const { id } of due) if ((await stampGlobal(ctx, pac, id)).state === 'timbrada') stamped += 1;
  return stamped;
}

export async function stampGlobal(ctx: AppContext, pac: Pac, id: string): Promise<InvoiceRow> {
  const timing = invoiceTiming(ctx);
  const now = ctx.clock.now();
  const claim = await claimInvoice(ctx, id, now);
  if (!claim) return findInvoice(ctx.db.db, id);
  const { row: claimed, token } = claim;
  const from = Number(claimed.period_from);
  const to = Number(claimed.period_to);
  const release = (set: Updateable<InvoicesTable>) =>
    durably(ctx.db, (w) => w.updateTable('invoices').set(set).where('id', '=', id).where('claim', '=', token).execute());
  try {
    const before = (await openReceipts(ctx, to, from)).filter((r) => r.state === 'emitido');
    let invoice: PacInvoice | null = null;
    if (Number(claimed.attempts) > 1) invoice = await adoptedGlobal(pac, claimed, before);
    if (!invoice && before.length === 0) {
      const at = ctx.clock.now();
      await release({ state: 'vacia', claim: null, lease_until: null, receipt_count: 0, updated_at: at });
      return findInvoice(ctx.db.db, id);
    }
    if (!invoice) {
      try {
        invoice = await pac.createGlobalInvoice({
          periodicity: claimed.periodicity as GlobalPeriod,
          months: claimed.months!,
          year: Number(claimed.year),
          from,
          to: to - 1,
        });
      } catch (error) {
        // Refused: a lost answer of ours (the receipts are already in it), or nothing open any more.
        if (error instanceof PacError && !error.retryable) invoice = await adoptedGlobal(pac, claimed, before);
        if (!invoice) throw error;
      }
    }
    const stamped = invoice;
    // Which receipts it took: all those seen open when its total says so, otherwise each one asked.
    const sum = before.reduce((s, r) => s + Number(r.total), 0);
    const states =
      sum === stamped.total
        ? new Map(before.map((r) => [r.order_id, { state: 'en_global' as InvoicingState, invoiceId: stamped.id }]))
        : await receiptStates(pac, await openReceipts(ctx, to, from));
    const taken = [...states.entries()].filter(([, s]) => s.state === 'en_global' && s.invoiceId === stamped.id).map(([o]) => o);
    const at = ctx.clock.now();
    await transact(ctx.db, async (trx) => {
      const done = await trx
        .updateTable('invoices')
        .set({ ...stampedColumns(pac, stamped, at), receipt_count: taken.length })
        .where('id', '=', id)
        .where('claim', '=', token)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) return;
      for (const [orderId, s] of states) {
        await trx
          .updateTable('invoice_receipts')
          .set({
            state: s.state,
            invoice_id: s.invoiceId,
            ...(s.invoiceId === stamped.id ? { invoice_uuid: stamped.uuid } : {}),
            updated_at: at,
          })
          .where('order_id', '=', orderId)
          .where('state', '=', 'emitido')
          .execute();
      }
      await audit(trx, at, {
        actor: null,
        action: 'invoice.global.stamp',
        entity: 'invoice',
        entityId: id,
        data: { period: claimed.period_key, uuid: stamped.uuid, total: stamped.total, receipts: taken.length },
      });
    });
    // Receipts a customer invoiced at the PAC's page meanwhile: their CFDIs listed here too.
    for (const [orderId, s] of states) if (s.state === 'facturado' && s.invoiceId) await recordSelfInvoice(ctx, pac, orderId, s.invoiceId);
    return findInvoice(ctx.db.db, id);
  } catch (error) {
    const e = error instanceof PacError ? error : new PacError(String((error as Error)?.message ?? error), false);
    const at = ctx.clock.now();
    // Retried until stamped: a refusal waits the longest back-off (the admin sees why, and may retry now).
    const wait = e.retryable ? backoff(Number(claimed.attempts), timing) : timing.retryMaxMs;
    await release({ claim: null, lease_until: null, last_error: e.message.slice(0, 500), next_attempt_at: at + wait, updated_at: at });
    return findInvoice(ctx.db.db, id);
  }
}

/** The global the PAC already stamped for this period (an answer lost): found through one of its receipts. */
async function adoptedGlobal(pac: Pac, row: InvoiceRow, open: { pac_receipt_id: string | null }[]): Promise<PacInvoice | null> {
  for (const r of open.slice(0, 3)) {
    if (!r.pac_receipt_id) continue;
    const receipt = await pac.retrieveReceipt(r.pac_receipt_id);
    if (receipt.status !== 'invoiced_globally' || !receipt.invoiceId) continue;
    const invoice = await pac.retrieveInvoice(receipt.invoiceId);
    if (invoice.global && invoice.global.months === row.months && invoice.global.year === Number(row.year)) return invoice;
  }
  return null;
}

/** Each receipt's state as the PAC holds it now (a few calls at a time). */
async function receiptStates(
  pac: Pac,
  rows: { order_id: string; pac_receipt_id: string | null }[],
): Promise<Map<string, { state: InvoicingState; invoiceId: string | null }>> {
  const out = new Map<string, { state: InvoicingState; invoiceId: string | null }>();
  const queue = rows.filter((r) => r.pac_receipt_id);
  const worker = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const receipt = await pac.retrieveReceipt(r.pac_receipt_id!);
      out.set(r.order_id, { state: RECEIPT_STATE_OF[receipt.status] ?? 'emitido', invoiceId: receipt.invoiceId });
    }
  };
  await Promise.all(Array.from({ length: Math.min(RECONCILE_IN_FLIGHT, queue.length) }, worker));
  return out;
}

/** A CFDI the customer made at the PAC's self-invoice page, listed in Facturación (once). */
export async function recordSelfInvoice(ctx: AppContext, pac: Pac, orderId: string, pacInvoiceId: string): Promise<void> {
  const known = await ctx.db.db.selectFrom('invoices').select('id').where('pac_invoice_id', '=', pacInvoiceId).executeTakeFirst();
  if (known) return;
  const invoice = await pac.retrieveInvoice(pacInvoiceId);
  const at = ctx.clock.now();
  await transact(ctx.db, async (trx) => {
    const again = await trx.selectFrom('invoices').select('id').where('pac_invoice_id', '=', pacInvoiceId).executeTakeFirst();
    if (again) return;
    const id = newId();
    await trx
      .insertInto('invoices')
      .values({
        id,
        kind: 'cliente',
        origin: 'autofactura',
        state: invoice.status === 'canceled' ? 'cancelada' : 'timbrada',
        order_id: orderId,
        rfc: invoice.customer.rfc,
        legal_name: invoice.customer.legalName,
        pac: pac.name,
        pac_invoice_id: invoice.id,
        uuid: invoice.uuid,
        total: invoice.total,
        attempts: 1,
        next_attempt_at: at,
        created_at: at,
        stamped_at: at,
        updated_at: at,
      })
      .execute();
    await trx
      .updateTable('invoice_receipts')
      .set({ state: 'facturado', invoice_id: invoice.id, invoice_uuid: invoice.uuid, updated_at: at })
      .where('order_id', '=', orderId)
      .execute();
    await audit(trx, at, {
      actor: null,
      action: 'invoice.self',
      entity: 'invoice',
      entityId: id,
      data: { orderId, uuid: invoice.uuid, rfc: invoice.customer.rfc },
    });
  });
}

/**
 * "Actualizar" a ticket's receipt, and the schedule's sync of open receipts: its state read again
 * from the PAC (a customer may have invoiced it at the page). Answers whether its state changed.
 */
export async function syncReceipt(ctx: AppContext, pac: Pac, orderId: string): Promise<boolean> {
  const row = await ctx.db.db.selectFrom('invoice_receipts').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  if (!row?.pac_receipt_id) return false;
  const receipt = await pac.retrieveReceipt(row.pac_receipt_id);
  const state = RECEIPT_STATE_OF[receipt.status] ?? 'emitido';
  const at = ctx.clock.now();
  await durably(ctx.db, (w) => w.updateTable('invoice_receipts').set({ synced_at: at }).where('order_id', '=', orderId).execute());
  if (state === 'facturado' && receipt.invoiceId) {
    await recordSelfInvoice(ctx, pac, orderId, receipt.invoiceId);
    return row.state !== 'facturado';
  }
  // A receipt taken by a global is recorded by that global's stamp (its CFDI, its count), never here.
  if (state === row.state || state === 'en_global') return false;
  const done = await durably(ctx.db, (w) =>
    w
      .updateTable('invoice_receipts')
      .set({ state, invoice_id: receipt.invoiceId, updated_at: at })
      .where('order_id', '=', orderId)
      .where('state', '=', row.state)
      .executeTakeFirst(),
  );
  return Number(done.numUpdatedRows) > 0;
}

/** "Reintentar" a global now (its back-off or refusal waived). */
export async function retryGlobal(ctx: WriteContext, pac: Pac, user: SessionUser, id: string): Promise<InvoiceRow> {
  await mutate(ctx, async (trx) => {
    const now = ctx.clock.now();
    await trx
      .updateTable('invoices')
      .set({ next_attempt_at: now, updated_at: now })
      .where('id', '=', id)
      .where('state', '=', 'solicitando')
      .execute();
    await audit(trx, now, {
      actor: { id: user.id, displayName: user.displayName },
      action: 'invoice.retry',
      entity: 'invoice',
      entityId: id,
    });
  });
  return stampGlobal(ctx, pac, id);
}
