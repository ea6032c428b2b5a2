/**
 * The life of a card payment attempt (SPEC §4 card dialog; decisions 0002 and 0015). creating:
 * the provider call is in flight; pending and processing come from the provider; timeout: polling
 * gave up while the terminal may still hold it; expired: timed out and then confirmed dead at the
 * provider; needs_review: approved at the terminal but it could not close its order (the charge is
 * kept, with its amount, until an admin records it, which makes it approved, or marks it refunded).
 */
export const CARD_PAYMENT_STATES = [
  'creating',
  'pending',
  'processing',
  'approved',
  'rejected',
  'cancelled',
  'timeout',
  'expired',
  'error',
  'needs_review',
  'refunded',
] as const;
export type CardPaymentState = (typeof CARD_PAYMENT_STATES)[number];

/**
 * Every change of an attempt's state, by what causes it: the states it may leave (`from`) and
 * where it goes (`to`). The server's conditional updates take their `where state in (…)` from
 * here, so two paths racing (webhook, poll, cancel) settle an attempt exactly once.
 */
export const CARD_PAYMENT_TRANSITIONS = {
  /** The provider accepted the create call. */
  created: { from: ['creating'], to: ['pending'] },
  /** The provider's create call failed for good. */
  createFailed: { from: ['creating'], to: ['error'] },
  /** Staff cancelled before the provider knew the attempt. */
  cancelledBeforeCreate: { from: ['creating'], to: ['cancelled'] },
  /** The provider says the customer is still at the terminal. */
  progressed: { from: ['creating', 'pending', 'processing'], to: ['pending', 'processing'] },
  /** The dialog's wait ran out; the terminal may still hold the payment. */
  timedOut: { from: ['pending', 'processing'], to: ['timeout'] },
  /** The provider's final word (a timed-out attempt that ends unpaid becomes expired). */
  settled: {
    from: ['creating', 'pending', 'processing', 'timeout'],
    to: ['approved', 'rejected', 'cancelled', 'expired'],
  },
  /** An approved charge that could not close its order. */
  flagged: { from: ['approved'], to: ['needs_review'] },
  /** An admin recorded the reviewed charge as the order's payment, or marked it refunded. */
  reviewed: { from: ['needs_review'], to: ['approved', 'refunded'] },
} as const satisfies Record<string, { from: readonly CardPaymentState[]; to: readonly CardPaymentState[] }>;

export type CardPaymentTransition = keyof typeof CARD_PAYMENT_TRANSITIONS;

/** The states an attempt may be in for this transition: the `where state in (…)` of its update. */
export function cardStatesFor(transition: CardPaymentTransition): CardPaymentState[] {
  return [...CARD_PAYMENT_TRANSITIONS[transition].from];
}

/**
 * Attempts that may still charge the customer: every state the provider's final word can settle.
 * 'timeout' is among them: the dialog gave up, but the terminal may still take the money, so no
 * other payment of the order may start meanwhile.
 */
export const CARD_LIVE_STATES: readonly CardPaymentState[] = CARD_PAYMENT_TRANSITIONS.settled.from;

/**
 * Attempts the dialog is still waiting on (sending, or the customer at the terminal): the ones a
 * reloaded checkout resumes and keeps polling. A timed-out attempt is live but no longer waited on.
 */
export const CARD_WAITING_STATES: readonly CardPaymentState[] = CARD_PAYMENT_TRANSITIONS.progressed.from;

export function isCardPaymentLive(state: string): boolean {
  return (CARD_LIVE_STATES as readonly string[]).includes(state);
}

export function isCardPaymentWaiting(state: string): boolean {
  return (CARD_WAITING_STATES as readonly string[]).includes(state);
}
