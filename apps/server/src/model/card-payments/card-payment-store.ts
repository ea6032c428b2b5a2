import type { CardPayment, CardPaymentState } from '@comanda/contract';
import { cardPaymentTopic, orderTopic } from '@comanda/contract';
import { CARD_LIVE_STATES, isCardPaymentLive, TERMINAL_MESSAGES, type CardDialogState, cents } from '@comanda/domain';
import type { CardPaymentRow } from '../../db/schema.ts';
import type { Emit, Trx } from '../../http/transaction.ts';
import { MESSAGES } from '../../http/messages.ts';

/** Attempts that may still charge the customer (the domain's transition table says which). */
export const LIVE_STATES: readonly CardPaymentState[] = CARD_LIVE_STATES;
export const isLive = isCardPaymentLive;

export const CARD_MESSAGES = MESSAGES.card;

/** Why the dialog shows error or rejected, from the card terminal messages of SPEC §8. */
function defaultMessage(state: CardPaymentState): string | null {
  switch (state) {
    case 'rejected':
      return TERMINAL_MESSAGES.rejected;
    case 'cancelled':
      return TERMINAL_MESSAGES.cancelled;
    case 'timeout':
    case 'expired':
      return TERMINAL_MESSAGES.timeout;
    case 'error':
      return TERMINAL_MESSAGES.createFailed;
    case 'needs_review':
      return TERMINAL_MESSAGES.unexpected;
    case 'refunded':
      return CARD_MESSAGES.refunded;
    case 'creating':
    case 'pending':
    case 'processing':
    case 'approved':
      return null;
  }
}

export function dialogStateOf(state: CardPaymentState): CardDialogState {
  switch (state) {
    case 'creating':
      return 'sending';
    case 'pending':
    case 'processing':
      return 'processing';
    case 'approved':
      return 'success';
    case 'rejected':
    case 'cancelled':
      return 'rejected';
    case 'timeout':
    case 'expired':
    case 'error':
    case 'needs_review':
    case 'refunded':
      return 'error';
  }
}

export function presentCardPayment(row: CardPaymentRow, maxAttempts: number): CardPayment {
  const state = row.state as CardPaymentState;
  return {
    id: row.id,
    orderId: row.order_id,
    terminalId: row.terminal_id,
    method: row.method,
    amount: cents(Number(row.amount)),
    tipAmount: cents(Number(row.tip_amount)),
    tipBps: row.tip_bps,
    peopleCount: row.people_count,
    state,
    dialogState: dialogStateOf(state),
    message: row.error ?? defaultMessage(state),
    providerPaymentId: row.provider_payment_id,
    approvedAmount: row.approved_amount === null ? null : cents(Number(row.approved_amount)),
    attempts: row.attempts,
    maxAttempts,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export async function findCardPayment(db: Trx, id: string): Promise<CardPaymentRow | undefined> {
  return db.selectFrom('card_payments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Browsers showing the dialog refetch the session when this arrives. */
export function emitCardPayment(emit: Emit, id: string): void {
  emit({ topic: cardPaymentTopic(id), type: 'card-payment.updated', id });
}

/** A charge entered or left review: the checkout, the table cards and the admin's list refetch. */
export function emitCardReview(emit: Emit, id: string, orderId: string): void {
  emitCardPayment(emit, id);
  emit({ topic: orderTopic(orderId), type: 'card-payment.review', id: orderId });
  emit({ topic: 'tables', type: 'card-payment.review', id: orderId });
  emit({ topic: 'terminals', type: 'card-payment.review', id });
}
