import { PostgresAdapter } from 'kysely';
import type { CardPayment, CreateCardPaymentBody, SessionUser } from '@comanda/contract';
import { cardMinimumError, cents, chargeFigures, partialPaymentError, paymentBalance, tableLabel } from '@comanda/domain';
import type { CardPaymentRow } from '../../db/schema.ts';
import { AppError, badRequest, conflict } from '../../http/errors.ts';
import { auditInsert } from '../../http/audit.ts';
import { withRiders } from '../../db/compiled.ts';
import { newId } from '../../http/ids.ts';
import { mutate, type Trx } from '../../http/transaction.ts';
import { IDEMPOTENCY_MESSAGES } from '../../http/idempotency.ts';
import { assertMayWorkOrder } from '../../model/orders/order-access.ts';
import { findOrderRow } from '../../model/orders/order-repository.ts';
import { computeOrderFigures, linesOf } from '../../model/orders/order-adjustments.ts';
import { withShares } from '../../model/checkout/amount-owed.ts';
import { cardGateway } from '../../model/card-payments/card-gateway.ts';
import { lockOrderToCharge, refuseCardCharge, requireOrderToEdit } from '../../model/orders/order-guards.ts';
import { CARD_MESSAGES, emitCardPayment, presentCardPayment } from '../../model/card-payments/card-payment-store.ts';
import { asParts } from '../../model/checkout/order-payments.ts';
import { checkoutRows, gateItems } from '../../model/checkout/close-order.ts';
import { reconcileTimedOut } from '../../model/card-payments/timed-out.ts';
import { isEnabled, readEnabledMap } from './terminal-config.ts';
import type { WriteContext } from '../../http/request-context.ts';

export interface CreateCardPaymentRequest {
  body: CreateCardPaymentBody;
  idempotencyKey: string;
  user: SessionUser;
}

// The body's rate is already a whole 0–100 % (the contract's schema), as the row stores it.
const sameRequest = (row: CardPaymentRow, body: CreateCardPaymentBody) =>
  row.order_id === body.orderId &&
  row.terminal_id === body.terminalId &&
  row.method === body.method &&
  row.tip_bps === body.tipBps &&
  row.people_count === (body.peopleCount ?? 0) &&
  (row.split_count ?? null) === (body.splitCount ?? null) &&
  (row.part_amount === null ? null : Number(row.part_amount)) === (body.amount ?? null);

async function replay(ctx: WriteContext, req: CreateCardPaymentRequest, db: Trx): Promise<CardPaymentRow | null> {
  const row = await db.selectFrom('card_payments').selectAll().where('idempotency_key', '=', req.idempotencyKey).executeTakeFirst();
  if (!row) return null;
  if (!sameRequest(row, req.body)) throw new AppError(422, 'idempotency_key_reused', IDEMPOTENCY_MESSAGES.reused);
  const order = await findOrderRow(db, row.order_id);
  if (order) assertMayWorkOrder(req.user, order);
  return row;
}

/**
 * Starts a card or transfer payment at a terminal. The amount is computed here from the items
 * (subtotal + tip), never taken from the browser. An order has at most one live attempt; a
 * repeat of the Idempotency-Key answers the same attempt, so a double click charges once. The
 * answer is the attempt as committed ('creating'); the provider is called right after it.
 */
export async function createCardPayment(
  ctx: WriteContext,
  req: CreateCardPaymentRequest,
): Promise<{ created: boolean; payment: CardPayment }> {
  const gw = cardGateway(ctx);
  const view = (row: CardPaymentRow) => presentCardPayment(row, gw.poll.maxAttempts);
  // The three reads before the transaction are sent together (on PostgreSQL one round trip's wait,
  // not three) and answered in the order they always were: a repeat's attempt first, then the
  // order's ownership, then the terminal.
  const [earlier, owned, enabled] = await Promise.allSettled([
    replay(ctx, req, ctx.db.db),
    requireOrderToEdit(ctx, req.user, req.body.orderId),
    readEnabledMap(ctx.db.db),
  ]);
  const repeated = valueOf(earlier);
  if (repeated) return { created: false, payment: view(repeated) };
  // The ownership read also tells whether an earlier attempt timed out: only then is the provider asked.
  const { timedOut } = valueOf(owned);
  if (!isEnabled(valueOf(enabled), req.body.terminalId)) throw conflict(CARD_MESSAGES.terminalDisabled, 'terminal_disabled');
  if (timedOut) await settleTimedOut(ctx, req.body.orderId);

  let row: CardPaymentRow;
  let description: string | null;
  try {
    ({ row, description } = await mutate(ctx, async (trx, emit) => {
      const now = ctx.clock.now();
      // Locked first: with read committed, a twin request that held the lock is visible after it.
      // The lock also tells whether a card charge is on its way or awaiting review (refused below).
      const { order, charges } = await lockOrderToCharge(trx, req.user, req.body.orderId, now);
      const again = await replay(ctx, req, trx);
      if (again) return { row: again, description: null };
      // The lines, the payments so far and the live adjustments: one read on PostgreSQL, as a close's.
      const read = await checkoutRows(trx, order.id, { taxes: false }); // the breakdown is the close's
      const { rows: items } = gateItems(read.items, order, false);
      // Discounts and comps: what is owed after them. Mixed payments: the charge is a chosen part
      // of the balance, or the whole balance, tip on top.
      // Equal shares: less what share checks owe, plus a share check's own share.
      const owed = withShares((await computeOrderFigures(trx, order.id, { lines: linesOf(items), rows: read.adjustments })).owed, order);
      const balance = paymentBalance(owed, asParts(read.payments));
      const part = req.body.amount === undefined ? balance : cents(req.body.amount);
      const partProblem = partialPaymentError(balance, part);
      if (partProblem) throw conflict(partProblem, balance <= 0 ? 'order_settled' : 'payment_over_balance');
      const { tipBps, tip, total: amount } = chargeFigures(part, { bps: req.body.tipBps });
      const tooSmall = cardMinimumError(amount);
      if (tooSmall) throw badRequest(tooSmall, 'card_minimum');
      // No card charge may be on its way or awaiting review: the customer would pay twice.
      refuseCardCharge(charges);
      const inserted: CardPaymentRow = {
        id: newId(),
        order_id: order.id,
        terminal_id: req.body.terminalId,
        method: req.body.method,
        amount,
        tip_amount: tip,
        tip_bps: tipBps,
        // 0: the table's guests stay as set (the close leaves them alone).
        people_count: req.body.peopleCount ?? 0,
        split_count: req.body.splitCount ?? null,
        idempotency_key: req.idempotencyKey,
        provider_id: null,
        provider_payment_id: null,
        state: 'creating',
        status_detail: null,
        attempts: 0,
        error: null,
        created_by: req.user.id,
        created_at: now,
        updated_at: now,
        approved_amount: null,
        part_amount: req.body.amount ?? null,
      };
      const entry = auditInsert(trx, now, {
        actor: { id: req.user.id, displayName: req.user.displayName },
        action: 'card_payment.started',
        entity: 'card_payment',
        entityId: inserted.id,
        data: {
          orderId: order.id,
          terminalId: inserted.terminal_id,
          method: inserted.method,
          amount,
          tip,
          tipBps,
          part: inserted.part_amount,
        },
      });
      // On PostgreSQL the audit entry rides on the attempt's INSERT: one round trip for both.
      if (trx.getExecutor().adapter instanceof PostgresAdapter)
        await withRiders(trx, [entry]).insertInto('card_payments').values(inserted).execute();
      else {
        await trx.insertInto('card_payments').values(inserted).execute();
        await entry.execute();
      }
      emitCardPayment(emit, inserted.id);
      return { row: inserted, description: tableLabel(order.table_number) };
    }));
  } catch (error) {
    // A concurrent twin with the same key got there first (and may have closed the order): answer its attempt.
    const twin = await replay(ctx, req, ctx.db.db);
    if (twin) return { created: false, payment: view(twin) };
    throw error;
  }
  if (row.state !== 'creating' || description === null) return { created: false, payment: view(row) };
  // Sent to the terminal after the answer: the attempt is on disk as 'creating'
  // (the dialog shows 'sending'), and its next state reaches the dialog by its live event.
  gw.driver.start(row, description);
  return { created: true, payment: view(row) };
}

/** A settled read's value, or its error thrown. */
function valueOf<T>(settled: PromiseSettledResult<T>): T {
  if (settled.status === 'rejected') throw settled.reason;
  return settled.value;
}

/**
 * Before a new attempt, asks the provider about attempts whose dialog timed out: a late approval
 * closes the order (and the new attempt is refused as paid), a dead one frees the order, and one
 * still on the terminal blocks the retry so the customer is never charged twice.
 */
async function settleTimedOut(ctx: WriteContext, orderId: string): Promise<void> {
  if (await reconcileTimedOut(ctx, orderId)) throw conflict(CARD_MESSAGES.stillOnTerminal, 'card_payment_on_terminal');
}
