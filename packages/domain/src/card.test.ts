import { describe, it, expect } from 'vitest';
import { cents } from './money.ts';
import type { ProviderPaymentState } from './card.ts';
import {
  CARD_MINIMUM_CENTS,
  POLL_INTERVAL_MS,
  POLL_MAX_ATTEMPTS,
  RATE_LIMIT_WAIT_MS,
  TERMINAL_MESSAGES,
  TEST_CHARGE_CENTS,
  cardMinimumError,
  dialogStateFor,
  isFinalPaymentState,
  mapOrdersApiState,
  mapPointIntentState,
  terminalFailureMessage,
} from './card.ts';

describe('card minimum', () => {
  it('is $5.00, the same as the test charge', () => {
    expect(CARD_MINIMUM_CENTS).toBe(500);
    expect(TEST_CHARGE_CENTS).toBe(500);
  });

  it('explains amounts under the minimum', () => {
    expect(cardMinimumError(cents(300))).toBe('El monto mínimo para cobrar es $5.00 MXN (recibido: $3.00 MXN)');
    expect(cardMinimumError(cents(499))).toBe('El monto mínimo para cobrar es $5.00 MXN (recibido: $4.99 MXN)');
    expect(cardMinimumError(cents(0))).toContain('(recibido: $0.00 MXN)');
  });

  it('accepts the minimum and above', () => {
    expect(cardMinimumError(cents(500))).toBeNull();
    expect(cardMinimumError(cents(123456))).toBeNull();
  });
});

describe('polling constants', () => {
  it('polls every 5 s for about 90 s and backs off 10 s when rate-limited', () => {
    expect(POLL_INTERVAL_MS * POLL_MAX_ATTEMPTS).toBe(90_000);
    expect(RATE_LIMIT_WAIT_MS).toBe(10_000);
  });
});

describe('mapPointIntentState', () => {
  it.each<[string, string | null | undefined, ProviderPaymentState]>([
    ['OPEN', undefined, 'pending'],
    ['PROCESSING', undefined, 'processing'],
    ['ON_TERMINAL', undefined, 'processing'],
    ['CONFIRMATION_REQUIRED', undefined, 'processing'],
    ['FINISHED', 'approved', 'approved'],
    ['FINISHED', 'rejected', 'rejected'],
    ['FINISHED', 'cancelled', 'cancelled'],
    ['FINISHED', null, 'cancelled'],
    ['FINISHED', undefined, 'cancelled'],
    ['PROCESSED', 'approved', 'approved'],
    ['PROCESSED', 'rejected', 'rejected'],
    ['PROCESSED', 'in_process', 'cancelled'],
    ['CANCELED', undefined, 'cancelled'],
    ['ABANDONED', undefined, 'cancelled'],
    ['ERROR', undefined, 'rejected'],
    ['SOMETHING_NEW', 'approved', 'pending'],
    ['', undefined, 'pending'],
    ['finished', 'APPROVED', 'approved'],
  ])('%s with payment %s → %s', (state, paymentStatus, expected) => {
    expect(mapPointIntentState(state, paymentStatus)).toBe(expected);
  });
});

describe('mapOrdersApiState', () => {
  it.each<[string, string | null | undefined, ProviderPaymentState]>([
    ['created', 'created', 'pending'],
    ['at_terminal', 'at_terminal', 'processing'],
    ['processing', 'in_process', 'processing'],
    ['action_required', 'action_required', 'processing'],
    ['processed', 'processed', 'approved'],
    ['processed', 'accredited', 'approved'],
    ['processed', 'partially_refunded', 'approved'],
    ['processed', 'refunded', 'cancelled'],
    ['processed', undefined, 'approved'],
    ['canceled', 'canceled', 'cancelled'],
    ['expired', 'expired', 'cancelled'],
    ['failed', 'failed', 'rejected'],
    ['refunded', 'refunded', 'cancelled'],
    ['mystery', null, 'pending'],
    ['PROCESSED', null, 'approved'],
  ])('%s (%s) → %s', (status, detail, expected) => {
    expect(mapOrdersApiState(status, detail)).toBe(expected);
  });
});

describe('dialog states', () => {
  it('maps provider states to the dialog', () => {
    expect(dialogStateFor('approved')).toBe('success');
    expect(dialogStateFor('rejected')).toBe('rejected');
    expect(dialogStateFor('cancelled')).toBe('rejected');
    expect(dialogStateFor('pending')).toBe('processing');
    expect(dialogStateFor('processing')).toBe('processing');
  });

  it('stops polling only on final states', () => {
    expect(isFinalPaymentState('approved')).toBe(true);
    expect(isFinalPaymentState('rejected')).toBe(true);
    expect(isFinalPaymentState('cancelled')).toBe(true);
    expect(isFinalPaymentState('pending')).toBe(false);
    expect(isFinalPaymentState('processing')).toBe(false);
  });

  it('explains failed payments', () => {
    expect(terminalFailureMessage('rejected')).toBe('Pago rechazado');
    expect(terminalFailureMessage('cancelled')).toBe('Pago cancelado por el cliente.');
    expect(terminalFailureMessage('approved')).toBeNull();
    expect(terminalFailureMessage('processing')).toBeNull();
  });

  it('keeps the spec texts, in the order SPEC.md lists them under "Card terminal"', () => {
    const spec =
      "'Terminal no encontrada', 'No se recibió ID de intención de pago', 'No se pudo crear la intención de pago', " +
      "'No se pudo consultar el estado del pago', 'Tiempo de espera agotado. El cliente no completó el pago.', " +
      "'Pago rechazado', 'Pago cancelado por el cliente.', 'Estado de pago inesperado. Verifica en Mercado Pago.'";
    expect(
      Object.values(TERMINAL_MESSAGES)
        .map((m) => `'${m}'`)
        .join(', '),
    ).toBe(spec);
  });
});
