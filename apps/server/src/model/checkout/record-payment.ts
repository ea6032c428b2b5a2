import type { Order } from '@comanda/contract';
import { cents, chargeFigures, clampGuests, partialPaymentError, type PaymentMethod, type TipChoice } from '@comanda/domain';
import type { PaymentRow } from '../../db/schema.ts';
import type { AppContext } from '../../http/context.ts';
import type { Emit, Trx } from '../../http/transaction.ts';
import { AppError, conflict } from '../../http/errors.ts';
import { audit } from '../../http/audit.ts';
import { loadOrder } from '../orders/order-repository.ts';
import { emitOrderChanged } from '../orders/order-events.ts';
import { checkoutState, claimOpenOrder, finishPaidOrder, insertPayment } from './close-order.ts';

export interface RecordPaymentInput {
  orderId: string;
  /** The id for the payment row (the caller may attach it to the drawer); a new one when omitted. */
  paymentId?: string;
  method: PaymentMethod;
  /** What this payment pays of the balance, before its tip (centavos, at most the balance). */
  part: number;
  /** The tip on top of the part: a rate on the part, or an amount. */
  tip: TipChoice;
  receivedAmount: number | null;
  reference: string | null;
  cashier: { id: string; name: string | null };
  providerPaymentId: string | null;
  actor: { id: string; displayName: string } | null;
  peopleCount: number | null;
  /** The calculator's split, recorded when this payment settles the order. */
  splitCount?: number | null;
  emit: Emit;
  /** Card only: the money is already taken, so an item moved back on a board does not refuse it. */
  allowUndelivered?: boolean;
  /** Cash and transfer: refuse while a card charge may still take the money or awaits review, told by the table's lock. */
  refuseCardCharges?: boolean;
}

export interface RecordedPayment {
  order: Order;
  payment: PaymentRow;
  /** True when this payment settled the balance and closed the order. */
  closed: boolean;
}

/**
 * One part of a mixed payment (decision 0015), inside the caller's transaction. The order row
 * is locked first (claimOpenOrder), so the balance read next includes every item committed
 * before — an item added while paying raises the balance, never lets a part overpay — and of
 * two devices paying the last part at once the second waits and then finds no balance (409,
 * no row written). When this part brings the balance to zero, the same transaction closes
 * the order through finishPaidOrder (folio, ticket, table freed).
 */
export async function recordPaymentInTx(ctx: AppContext, trx: Trx, input: RecordPaymentInput): Promise<RecordedPayment> {
  const now = ctx.clock.now();
  const claimed = await claimOpenOrder(trx, input.orderId, now, input.refuseCardCharges ? 'refusing-card-charges' : 'plain');
  const state = await checkoutState(trx, claimed, input.allowUndelivered === true);
  const problem = partialPaymentError(state.balance, cents(input.part));
  if (problem) {
    if (input.part <= 0) throw new AppError(422, 'payment_not_positive', problem);
    throw conflict(problem, state.balance <= 0 ? 'order_settled' : 'payment_over_balance');
  }
  const part = cents(input.part);
  const { tipBps, tip, total: amount } = chargeFigures(part, input.tip);
  const reference = input.method === 'transferencia' ? input.reference || null : null;
  const payment = await insertPayment(trx, { ...input, figures: { tipBps, tip, total: amount }, reference, now });
  await audit(trx, now, {
    actor: input.actor,
    action: 'order.payment_added',
    entity: 'order',
    entityId: input.orderId,
    authorizedBy: input.cashier.id,
    data: {
      paymentId: payment.id,
      method: payment.method,
      part,
      tip,
      tipBps,
      amount,
      balanceBefore: state.balance,
      balanceAfter: state.balance - part,
      receivedAmount: payment.received_amount,
      change: payment.change_amount,
      reference: payment.reference,
      cashierName: input.cashier.name,
      providerPaymentId: input.providerPaymentId,
    },
  });

  const payments = [...state.payments, payment];
  if (part === state.balance) {
    const order = await finishPaidOrder(ctx, trx, {
      claimed,
      state,
      payments,
      last: payment,
      peopleCount: input.peopleCount,
      splitCount: input.splitCount ?? null,
      actor: input.actor,
      emit: input.emit,
    });
    return { order, payment, closed: true };
  }
  if (input.peopleCount !== null) {
    await trx
      .updateTable('orders')
      .set({ people_count: clampGuests(input.peopleCount) })
      .where('id', '=', input.orderId)
      .execute();
  }
  emitOrderChanged(input.emit, input.orderId, Number(claimed.version), { owner: claimed.waiter_id });
  return { order: await loadOrder(trx, input.orderId), payment, closed: false };
}
