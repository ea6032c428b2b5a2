import type { ProviderPaymentState } from '@comanda/domain';

/** A Point device as both provider surfaces describe it. */
export interface TerminalDevice {
  id: string;
  operatingMode: string | null;
  storeId: string | null;
  posId: string | null;
  externalPosId: string | null;
}

export interface CreatePaymentInput {
  terminalId: string;
  /** Centavos; each surface converts to its own format (cents or a decimal string). */
  amountCents: number;
  externalReference: string;
  description: string;
  /** Reused on every retry of the same attempt, so the provider creates it at most once. */
  idempotencyKey: string;
}

/** The provider's view of one payment, already mapped to our states. */
export interface ProviderPayment {
  providerId: string;
  state: ProviderPaymentState;
  /** The provider's own words (OPEN, at_terminal…), kept for the audit log. */
  rawState: string;
  statusDetail: string | null;
  paymentId: string | null;
  amountCents: number | null;
  /** The card's type as the provider tells it (payment_method.type / payment.type): null when it does not. */
  cardType: CardType | null;
}

/** A card payment's type: the factura's forma de pago tells a debit card (28) from a credit one (04). */
export type CardType = 'credito' | 'debito';

/** Mercado Pago's payment type id as ours; any other (prepaid, account money) is left unknown. */
export function cardTypeOf(v: unknown): CardType | null {
  return v === 'debit_card' ? 'debito' : v === 'credit_card' ? 'credito' : null;
}

export type ProviderApi = 'point' | 'orders';

/** One interface over the legacy Point Integration API and the newer Orders API. */
export interface CardProvider {
  readonly api: ProviderApi;
  listTerminals(): Promise<TerminalDevice[]>;
  createPayment(input: CreatePaymentInput): Promise<{ providerId: string }>;
  getPayment(providerId: string): Promise<ProviderPayment>;
  cancelPayment(input: { terminalId: string; providerId: string; idempotencyKey: string }): Promise<void>;
  setOperatingMode(input: { terminalId: string; mode: 'PDV' | 'STANDALONE'; idempotencyKey: string }): Promise<void>;
}

export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
