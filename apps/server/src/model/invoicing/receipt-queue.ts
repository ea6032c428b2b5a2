import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { InvoicingState, TaxBreakdown } from '@comanda/domain';
import type { Db } from '../../db/connect.ts';
import { durably } from '../../db/transact.ts';
import { readConfig } from '../config-store.ts';
import { PacError, type Pac, type PacReceipt } from '../../invoicing/pac.ts';
import { conceptKeysOf, receiptConcepts } from './concept-keys.ts';
import { paymentForms } from './payment-form.ts';

/**
 * The receipts' outbox (docs/decisions: a receipt per paid check, never inside the close). Two
 * steps, each safe to run from any process at any time:
 *  - queueNewChecks: the paid checks above the last folio queued get their row ('pendiente', or
 *    'sin_importe' when they charged nothing). Folios are given in commit order under the counter's
 *    lock, so every check at or below a committed folio is committed: nothing is skipped.
 *  - sendDue: due rows are claimed with a lease (a crashed sender's claim expires), sent to the PAC
 *    with the check's folio as idempotency key, and marked 'emitido' under the same claim. A call
 *    that fails leaves the row for later with exponential back-off; one whose answer was lost is
 *    sent again and the PAC answers the receipt it already made.
 */
const QUEUE_PAGE = 500;
const SEND_BATCH = 50;
const IN_FLIGHT = 8;

export interface QueueTiming {
  retryMs: number;
  retryMaxMs: number;
  /** How long a claim holds: longer than a PAC call can take. */
  leaseMs: number;
}

export function backoff(attempts: number, t: Pick<QueueTiming, 'retryMs' | 'retryMaxMs'>): number {
  return Math.min(t.retryMaxMs, t.retryMs * 2 ** Math.max(0, Math.min(attempts - 1, 20)));
}

/** The idempotency key of a check's receipt: one per folio, whoever sends it and however often. */
export const receiptIdempotencyKey = (folio: number) => `comanda-folio-${folio}`;

/** Queues the paid checks that have no receipt row yet; returns how many it queued. */
export async function queueNewChecks(db: Db, now: number): Promise<number> {
  const last = await db.db
    .selectFrom('invoice_receipts')
    .select(sql<number | string | null>`max(folio)`.as('folio'))
    .executeTakeFirst();
  const start = (await readConfig<{ startAfterFolio?: number }>(db.db, 'invoicing'))?.startAfterFolio ?? 0;
  const after = Math.max(Number(last?.folio ?? 0), start);
  const rows = await db.db
    .selectFrom('orders')
    .select(['id', 'folio', 'total', 'tip', 'tax_breakdown'])
    .where('status', '=', 'pagado')
    .where('folio', '>', after)
    .orderBy('folio')
    .limit(QUEUE_PAGE)
    .execute();
  if (!rows.length) return 0;
  const keys = await conceptKeysOf(
    db.db,
    rows.map((r) => r.id),
  );
  const values = rows.map((r) => {
    const breakdown = r.tax_breakdown ? (JSON.parse(r.tax_breakdown) as TaxBreakdown) : null;
    const total = breakdown ? Number(breakdown.amount) : Number(r.total) - Number(r.tip);
    return {
      order_id: r.id,
      folio: Number(r.folio),
      state: total > 0 ? ('pendiente' as const) : ('sin_importe' as const),
      total,
      concept_keys: keys.get(r.id)?.length ? JSON.stringify(keys.get(r.id)) : null,
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    };
  });
  // Another process may queue the same checks at the same time: the first row of each stands.
  await durably(db, (w) =>
    w
      .insertInto('invoice_receipts')
      .values(values)
      .onConflict((oc) => oc.doNothing())
      .execute(),
  );
  return rows.length === QUEUE_PAGE ? rows.length + (await queueNewChecks(db, now)) : rows.length;
}

/** A PAC receipt's status as a ticket's invoicing state. */
export const RECEIPT_STATE_OF: Record<PacReceipt['status'], InvoicingState> = {
  open: 'emitido',
  invoiced_to_customer: 'facturado',
  invoiced_globally: 'en_global',
  canceled: 'cancelado',
};

/** The columns a receipt the PAC made sets on its row (the queue's send and the cashier's, alike). */
export function issuedColumns(pac: Pac, receipt: PacReceipt, at: number) {
  return {
    state: RECEIPT_STATE_OF[receipt.status] ?? 'emitido',
    claim: null,
    lease_until: null,
    last_error: null,
    pac: pac.name,
    pac_receipt_id: receipt.id,
    receipt_key: receipt.key,
    self_invoice_url: receipt.selfInvoiceUrl,
    expires_at: Number.isFinite(receipt.expiresAt) ? receipt.expiresAt : null,
    invoice_id: receipt.invoiceId,
    issued_at: at,
    updated_at: at,
  } as const;
}

/** What a check's receipt asks the PAC for: its folio as idempotency key, its forma de pago, its concepts. */
export function receiptInput(
  row: { folio: number | string; concept_keys: string | null },
  order: { tax_breakdown: string | null; completed_at: number | null },
  paymentForm: string,
  now: number,
) {
  if (!order.tax_breakdown) throw new PacError('El ticket no tiene el desglose de impuestos', false);
  return {
    folio: Number(row.folio),
    idempotencyKey: receiptIdempotencyKey(Number(row.folio)),
    paymentForm,
    date: Number(order.completed_at ?? now),
    concepts: receiptConcepts(JSON.parse(order.tax_breakdown) as TaxBreakdown, row.concept_keys),
  };
}

export interface SendResult {
  sent: number;
  failed: number;
  /** When the next due row is (epoch ms), or null when none waits. */
  nextAt: number | null;
}

/** Sends the due receipts, a batch at a time, until none is due or the PAC fails. */
export async function sendDue(db: Db, pac: Pac, timing: QueueTiming, clock: () => number): Promise<SendResult> {
  const result: SendResult = { sent: 0, failed: 0, nextAt: null };
  for (;;) {
    const now = clock();
    const due = await db.db
      .selectFrom('invoice_receipts')
      .select(['order_id'])
      .where('state', '=', 'pendiente')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .orderBy('folio')
      .limit(SEND_BATCH)
      .execute();
    if (!due.length) break;
    const token = randomUUID();
    const claimed = await durably(db, (w) =>
      w
        .updateTable('invoice_receipts')
        .set({ claim: token, lease_until: now + timing.leaseMs, attempts: sql<number>`attempts + 1`, updated_at: now })
        .where(
          'order_id',
          'in',
          due.map((d) => d.order_id),
        )
        .where('state', '=', 'pendiente')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
        .returning(['order_id', 'folio', 'attempts', 'concept_keys'])
        .execute(),
    );
    if (!claimed.length) continue;
    const ids = claimed.map((c) => c.order_id);
    const orders = await db.db.selectFrom('orders').select(['id', 'tax_breakdown', 'completed_at']).where('id', 'in', ids).execute();
    const forms = await paymentForms(db.db, ids);
    const orderOf = new Map(orders.map((o) => [o.id, o]));
    let down: PacError | null = null;
    const queue = [...claimed].sort((a, b) => Number(a.folio) - Number(b.folio));
    const worker = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        const mine = { order_id: row.order_id, claim: token };
        const release = (error: PacError) => {
          const at = clock();
          const wait = error.retryable ? backoff(Number(row!.attempts), timing) : timing.retryMaxMs;
          return durably(db, (w) =>
            w
              .updateTable('invoice_receipts')
              .set({ claim: null, lease_until: null, next_attempt_at: at + wait, last_error: error.message.slice(0, 500), updated_at: at })
              .where('order_id', '=', mine.order_id)
              .where('claim', '=', mine.claim)
              .execute(),
          );
        };
        // The PAC is down: the rest of the batch waits its back-off without being tried.
        if (down) {
          await release(down);
          result.failed += 1;
          continue;
        }
        const order = orderOf.get(row.order_id);
        try {
          const receipt = await pac.createReceipt(
            receiptInput(row, order ?? { tax_breakdown: null, completed_at: null }, forms.get(row.order_id)!, clock()),
          );
          await durably(db, (w) =>
            w
              .updateTable('invoice_receipts')
              .set(issuedColumns(pac, receipt, clock()))
              .where('order_id', '=', mine.order_id)
              .where('claim', '=', mine.claim)
              .execute(),
          );
          result.sent += 1;
        } catch (error) {
          const e = error instanceof PacError ? error : new PacError(String((error as Error)?.message ?? error), false);
          if (e.retryable) down = e;
          await release(e);
          result.failed += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, queue.length) }, worker));
    if (down) break;
  }
  const next = await db.db
    .selectFrom('invoice_receipts')
    .select(sql<number | string | null>`min(next_attempt_at)`.as('at'))
    .where('state', '=', 'pendiente')
    .executeTakeFirst();
  result.nextAt = next?.at === null || next?.at === undefined ? null : Number(next.at);
  return result;
}
