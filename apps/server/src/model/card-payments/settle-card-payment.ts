import {
  activeItems,
  cardStatesFor,
  cents,
  chargeFigures,
  formatMXN,
  isCardPaymentLive,
  paymentBalance,
  terminalFailureMessage,
  type TipChoice,
} from '@comanda/domain';
import type { Order } from '@comanda/contract';
import type { CardPaymentRow } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { audit } from '../../http/audit.ts';
import { mutate, type Emit, type Trx } from '../../http/transaction.ts';
import type { ProviderPayment } from '../../payments/mercadopago/provider.ts';
import { closeOrderInTx } from '../checkout/close-order.ts';
import { asParts, orderPayments } from '../checkout/order-payments.ts';
import { recordPaymentInTx } from '../checkout/record-payment.ts';
import { presentItem } from '../orders/order-presenter.ts';
import { computeOrderFigures } from '../orders/order-adjustments.ts';
import { withShares } from '../checkout/amount-owed.ts';
import { emitCardPayment, emitCardReview, findCardPayment } from './card-payment-store.ts';
import type { WriteContext } from '../../http/request-context.ts';

/** The cashier recorded for every card terminal payment (SPEC §3). */
export const TERMINAL_CASHIER = { id: 'mp-terminal', name: 'Terminal Mercado Pago' } as const;

/** Claims a live attempt for a final state; false when another path (webhook, poll) got there first. */
async function claim(
  trx: Trx,
  id: string,
  set: Partial<Pick<CardPaymentRow, 'state' | 'error' | 'provider_payment_id' | 'status_detail' | 'approved_amount'>>,
  now: number,
): Promise<boolean> {
  const res = await trx
    .updateTable('card_payments')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .where('state', 'in', cardStatesFor('settled'))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Applies what the provider says about an attempt, once: a double webhook, or a webhook and a
 * poll at the same time, find the row already settled and do nothing. On approval the order is
 * closed by the same close as cash, with cashier mp-terminal, for exactly the amount taken. When
 * it cannot close the order (paid or emptied meanwhile, or the provider charged another amount)
 * the charge is kept as needs_review for an admin: it is never lost and never charged twice.
 */
export async function settleCardPayment(ctx: WriteContext, id: string, payment: ProviderPayment): Promise<void> {
  await mutate(ctx, async (trx, emit) => {
    const row = await findCardPayment(trx, id);
    if (!row || !isCardPaymentLive(row.state)) return;
    const now = ctx.clock.now();
    const detail = payment.rawState || null;
    switch (payment.state) {
      case 'pending':
      case 'processing':
        if (row.state === 'timeout') return; // still waiting at the terminal; the dialog already gave up
        if (row.state === payment.state && row.status_detail === detail) return;
        await trx
          .updateTable('card_payments')
          .set({ state: payment.state, status_detail: detail, updated_at: now })
          .where('id', '=', id)
          .where('state', 'in', cardStatesFor('progressed'))
          .execute();
        emitCardPayment(emit, id);
        return;
      case 'rejected':
      case 'cancelled': {
        // A timed-out attempt keeps its time-out message; the provider only confirms it is over.
        const state = row.state === 'timeout' ? 'expired' : payment.state;
        const error = row.state === 'timeout' ? row.error : terminalFailureMessage(payment.state);
        if (!(await claim(trx, id, { state, error, status_detail: detail, provider_payment_id: payment.paymentId }, now))) return;
        await audit(trx, now, {
          actor: null,
          action: `card_payment.${state}`,
          entity: 'card_payment',
          entityId: id,
          data: { orderId: row.order_id, providerState: payment.rawState, statusDetail: payment.statusDetail },
        });
        emitCardPayment(emit, id);
        return;
      }
      case 'approved':
        await approve(ctx, trx, emit, row, payment, now);
        return;
    }
  });
}

/**
 * The terminal's money on the order: the whole order closed at exactly what was charged (the tip
 * is what it holds beyond the items), or, for one part of a mixed payment, one
 * payment row, the order closing only when it settles the balance. Items moved back on a board
 * never refuse it: the money is already taken.
 */
export async function recordCardCharge(
  ctx: WriteContext,
  trx: Trx,
  row: CardPaymentRow,
  c: {
    charged: number;
    providerPaymentId: string | null;
    actor: { id: string; displayName: string } | null;
    emit: Emit;
    partTip: TipChoice;
  },
): Promise<Order> {
  const common = {
    orderId: row.order_id,
    method: row.method,
    peopleCount: row.people_count > 0 ? row.people_count : null,
    splitCount: row.split_count ?? null,
    receivedAmount: null,
    cashier: { ...TERMINAL_CASHIER },
    providerPaymentId: c.providerPaymentId,
    actor: c.actor,
    emit: c.emit,
    allowUndelivered: true,
  };
  if (row.part_amount === null) return closeOrderInTx(ctx, trx, { ...common, tipBps: row.tip_bps, chargedTotal: c.charged });
  const part = Math.min(Number(row.part_amount), c.charged);
  return (await recordPaymentInTx(ctx, trx, { ...common, part, tip: c.partTip, reference: null })).order;
}

async function approve(ctx: WriteContext, trx: Trx, emit: Emit, row: CardPaymentRow, payment: ProviderPayment, now: number): Promise<void> {
  const detail = payment.rawState || null;
  // The money the terminal took: the provider's figure when it gives one, else what was asked.
  const charged = payment.amountCents ?? Number(row.amount);
  const claimed = await claim(
    trx,
    row.id,
    { state: 'approved', error: null, status_detail: detail, provider_payment_id: payment.paymentId, approved_amount: charged },
    now,
  );
  if (!claimed) return;
  emitCardPayment(emit, row.id);
  const problem = await closingProblem(trx, row, charged);
  if (!problem) {
    try {
      // A part of a mixed payment: charged equals the amount asked (closingProblem),
      // so the part's tip is the rate it was asked with.
      await recordCardCharge(ctx, trx, row, {
        charged,
        providerPaymentId: payment.paymentId,
        actor: null,
        emit,
        partTip: { bps: row.tip_bps },
      });
      // The card's type, as the terminal told it: the factura's forma de pago (28 debit, 04 credit).
      if (payment.cardType && payment.paymentId)
        await trx
          .updateTable('payments')
          .set({ card_type: payment.cardType })
          .where('order_id', '=', row.order_id)
          .where('provider_payment_id', '=', payment.paymentId)
          .execute();
      await audit(trx, now, {
        actor: null,
        action: 'card_payment.approved',
        entity: 'card_payment',
        entityId: row.id,
        data: { orderId: row.order_id, amount: charged, providerPaymentId: payment.paymentId },
      });
      return;
    } catch (error) {
      // closeOrderInTx refuses with an AppError before writing anything; flag instead of failing.
      if (!(error instanceof AppError)) throw error;
      return flag(trx, emit, row, payment, charged, error.message, now);
    }
  }
  return flag(trx, emit, row, payment, charged, problem, now);
}

export const REVIEW_REASONS = {
  orderMissing: 'La orden ya no existe.',
  orderPaid: 'La orden ya estaba pagada cuando la terminal aprobó el cobro.',
  orderCancelled: 'La orden estaba cancelada cuando la terminal aprobó el cobro.',
  orderEmpty: 'La orden ya no tenía productos cuando la terminal aprobó el cobro.',
  providerAmount: (charged: number, asked: number) =>
    `La terminal cobró ${formatMXN(cents(charged))}, distinto de los ${formatMXN(cents(asked))} solicitados.`,
  partOverBalance: (balance: number) =>
    `El saldo de la orden cambió mientras se cobraba: la parte cobrada excede el saldo pendiente (${formatMXN(cents(balance))}).`,
  totalChanged: (charged: number, total: number) =>
    `El total de la orden cambió mientras se cobraba: la terminal cobró ${formatMXN(cents(charged))} y la orden suma ${formatMXN(cents(total))}.`,
} as const;

/** Why the approved charge must not close the order as it is now (in Spanish, for the admin); null when it may. */
async function closingProblem(trx: Trx, row: CardPaymentRow, charged: number): Promise<string | null> {
  const order = await trx
    .selectFrom('orders')
    .select(['status', 'share_amount', 'shared_out'])
    .where('id', '=', row.order_id)
    .executeTakeFirst();
  if (!order) return REVIEW_REASONS.orderMissing;
  if (order.status === 'pagado') return REVIEW_REASONS.orderPaid;
  if (order.status !== 'activo') return REVIEW_REASONS.orderCancelled;
  const items = (await trx.selectFrom('order_items').selectAll().where('order_id', '=', row.order_id).execute()).map(presentItem);
  if (activeItems(items).length === 0 && Number(order.share_amount) === 0) return REVIEW_REASONS.orderEmpty;
  if (charged !== Number(row.amount)) return REVIEW_REASONS.providerAmount(charged, Number(row.amount));
  // What the charge pays: the balance (the amount owed after discounts and comps,
  // less parts already paid), or its own part.
  const owed = withShares((await computeOrderFigures(trx, row.order_id)).owed, order);
  const balance = paymentBalance(owed, asParts(await orderPayments(trx, row.order_id)));
  if (row.part_amount !== null) return Number(row.part_amount) > balance ? REVIEW_REASONS.partOverBalance(balance) : null;
  const { total } = chargeFigures(balance, { bps: row.tip_bps });
  if (total !== charged) return REVIEW_REASONS.totalChanged(charged, total);
  return null;
}

/**
 * The charge is real but cannot close the order: it stays on its card payment row, linked to the
 * order, with the amount taken, as needs_review until an admin records it or marks it refunded.
 * The checkout, the table card and the admin's list show it; no new charge starts meanwhile.
 */
async function flag(
  trx: Trx,
  emit: Emit,
  row: CardPaymentRow,
  payment: ProviderPayment,
  charged: number,
  reason: string,
  now: number,
): Promise<void> {
  await trx
    .updateTable('card_payments')
    .set({ state: 'needs_review', error: reason, approved_amount: charged, updated_at: now })
    .where('id', '=', row.id)
    .where('state', 'in', cardStatesFor('flagged'))
    .execute();
  await audit(trx, now, {
    actor: null,
    action: 'card_payment.needs_review',
    entity: 'card_payment',
    entityId: row.id,
    data: {
      orderId: row.order_id,
      reason,
      amount: Number(row.amount),
      providerAmount: payment.amountCents,
      providerPaymentId: payment.paymentId,
    },
  });
  emitCardReview(emit, row.id, row.order_id);
}
