import type { PaymentMethod } from './order-status.ts';

/**
 * A check's forma de pago (SAT's c_FormaPago) from its payments, for the receipt, the cashier's
 * "Facturar" and the factura global alike: cash 01, transfer 03, a card 04 (crédito) unless the
 * terminal said it was a debit card, 28. A mixed payment takes its largest part's (before tips;
 * the first of equal ones).
 */

/** A card's type as the terminal told it; absent for a card entered by hand (it stays 04). */
export type CardKind = 'credito' | 'debito';

export interface FormaPagoPart {
  method: PaymentMethod;
  /** What the part pays of the check, without its tip (centavos). */
  amount: number;
  cardType?: CardKind | string | null;
}

/** One payment's forma de pago. */
export function formaPagoOfPart(p: Pick<FormaPagoPart, 'method' | 'cardType'>): string {
  switch (p.method) {
    case 'efectivo':
      return '01';
    case 'transferencia':
      return '03';
    case 'tarjeta':
      return p.cardType === 'debito' ? '28' : '04';
  }
}

/** The forma de pago of a check: its largest part's; 01 when it holds none. */
export function formaPagoOf(payments: readonly FormaPagoPart[]): string {
  let best: FormaPagoPart | null = null;
  for (const p of payments) if (!best || p.amount > best.amount) best = p;
  return best ? formaPagoOfPart(best) : '01';
}
