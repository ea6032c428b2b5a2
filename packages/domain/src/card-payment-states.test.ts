import { describe, expect, it } from 'vitest';
import * as card from './card-payment-states.ts';

const { CARD_LIVE_STATES, CARD_PAYMENT_STATES, CARD_PAYMENT_TRANSITIONS, CARD_WAITING_STATES } = card;
const { cardStatesFor, isCardPaymentLive, isCardPaymentWaiting } = card;

describe('card payment transition table', () => {
  it('names only known states, and every state but the first is reached by some transition', () => {
    const reached = new Set<string>();
    for (const { from, to } of Object.values(CARD_PAYMENT_TRANSITIONS)) {
      for (const s of [...from, ...to]) expect(CARD_PAYMENT_STATES).toContain(s);
      to.forEach((s) => reached.add(s));
    }
    expect(CARD_PAYMENT_STATES.filter((s) => !reached.has(s))).toEqual(['creating']);
  });

  it('keeps a timed-out attempt live (it may still charge) but no longer waited on by the dialog', () => {
    expect([...CARD_LIVE_STATES].sort()).toEqual(['creating', 'pending', 'processing', 'timeout']);
    expect([...CARD_WAITING_STATES].sort()).toEqual(['creating', 'pending', 'processing']);
    expect(isCardPaymentLive('timeout') && !isCardPaymentWaiting('timeout')).toBe(true);
    for (const final of ['approved', 'rejected', 'cancelled', 'expired', 'error', 'needs_review', 'refunded'])
      expect(isCardPaymentLive(final) || isCardPaymentWaiting(final)).toBe(false);
  });

  it('gives each conditional update the states it may leave', () => {
    expect(cardStatesFor('created')).toEqual(['creating']);
    expect(cardStatesFor('timedOut')).toEqual(['pending', 'processing']);
    expect(cardStatesFor('reviewed')).toEqual(['needs_review']);
    expect(cardStatesFor('flagged')).toEqual(['approved']);
  });
});
