import type { Cents } from './money.ts';
import { cents, formatMXN } from './money.ts';

export const CARD_MINIMUM_CENTS: Cents = cents(500);
export const TEST_CHARGE_CENTS: Cents = cents(500);

/** The provider refuses charges under $5.00, so we stop them before the terminal does. */
export function cardMinimumError(amount: Cents): string | null {
  if (amount >= CARD_MINIMUM_CENTS) return null;
  return `El monto mínimo para cobrar es ${formatMXN(CARD_MINIMUM_CENTS)} MXN (recibido: ${formatMXN(amount)} MXN)`;
}

// 18 polls 5 s apart give the customer about 90 s at the terminal.
export const POLL_INTERVAL_MS = 5000;
export const POLL_MAX_ATTEMPTS = 18;
export const RATE_LIMIT_WAIT_MS = 10_000;

export type ProviderPaymentState = 'pending' | 'processing' | 'approved' | 'rejected' | 'cancelled';

/** Point integration API payment intents (SPEC §4 and §7). */
export function mapPointIntentState(state: string, paymentStatus?: string | null): ProviderPaymentState {
  switch (state.trim().toUpperCase()) {
    case 'OPEN':
      return 'pending';
    case 'PROCESSING':
    case 'ON_TERMINAL':
    case 'CONFIRMATION_REQUIRED':
      return 'processing';
    case 'FINISHED':
    case 'PROCESSED':
      return finishedOutcome(paymentStatus);
    case 'CANCELED':
    case 'CANCELLED':
    case 'ABANDONED':
      return 'cancelled';
    case 'ERROR':
      return 'rejected';
    default:
      // An unknown state keeps polling; the attempt limit still ends the wait.
      return 'pending';
  }
}

function finishedOutcome(paymentStatus: string | null | undefined): ProviderPaymentState {
  switch (paymentStatus?.trim().toLowerCase()) {
    case 'approved':
      return 'approved';
    case 'rejected':
      return 'rejected';
    default:
      return 'cancelled';
  }
}

/** The provider's newer Orders API, whose statuses are lower-case words. */
export function mapOrdersApiState(status: string, statusDetail?: string | null): ProviderPaymentState {
  switch (status.trim().toLowerCase()) {
    case 'created':
      return 'pending';
    case 'at_terminal':
    case 'processing':
    case 'action_required':
      return 'processing';
    case 'processed':
      // A fully refunded order can still read 'processed' with this detail.
      return statusDetail?.trim().toLowerCase() === 'refunded' ? 'cancelled' : 'approved';
    case 'canceled':
    case 'cancelled':
    case 'expired':
    case 'refunded':
      return 'cancelled';
    case 'failed':
      return 'rejected';
    default:
      return 'pending';
  }
}

/** Approved, rejected and cancelled will not change again: polling stops there. */
export function isFinalPaymentState(s: ProviderPaymentState): boolean {
  return s === 'approved' || s === 'rejected' || s === 'cancelled';
}

export type CardDialogState = 'select-terminal' | 'initial' | 'sending' | 'processing' | 'success' | 'rejected' | 'error' | 'confirm-close';

export function dialogStateFor(s: ProviderPaymentState): CardDialogState {
  switch (s) {
    case 'approved':
      return 'success';
    case 'rejected':
    case 'cancelled':
      return 'rejected';
    case 'pending':
    case 'processing':
      return 'processing';
  }
}

export const TERMINAL_MESSAGES = {
  notFound: 'Terminal no encontrada',
  noIntentId: 'No se recibió ID de intención de pago',
  createFailed: 'No se pudo crear la intención de pago',
  statusFailed: 'No se pudo consultar el estado del pago',
  timeout: 'Tiempo de espera agotado. El cliente no completó el pago.',
  rejected: 'Pago rechazado',
  cancelled: 'Pago cancelado por el cliente.',
  unexpected: 'Estado de pago inesperado. Verifica en Mercado Pago.',
} as const;

/** Why a payment failed; null when it was approved or has not finished yet. */
export function terminalFailureMessage(s: ProviderPaymentState): string | null {
  switch (s) {
    case 'rejected':
      return TERMINAL_MESSAGES.rejected;
    case 'cancelled':
      return TERMINAL_MESSAGES.cancelled;
    case 'approved':
    case 'pending':
    case 'processing':
      return null;
  }
}
