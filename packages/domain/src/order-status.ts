export const ORDER_STATUSES = ['activo', 'pagado', 'cancelado'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export type StatusChip = 'PAGADO' | 'CANCELADO' | 'PENDIENTE';

/** Anything that is neither paid nor cancelled reads as PENDIENTE, including stray values. */
export function statusChip(status: string): StatusChip {
  switch (status) {
    case 'pagado':
      return 'PAGADO';
    case 'cancelado':
      return 'CANCELADO';
    default:
      return 'PENDIENTE';
  }
}

/** Only an active order takes items or payment; a paid one locks checkout. */
export function isOrderOpen(status: string): boolean {
  return status === 'activo';
}

export function isOrderStatus(s: unknown): s is OrderStatus {
  return typeof s === 'string' && (ORDER_STATUSES as readonly string[]).includes(s);
}

export const PAYMENT_METHODS = ['efectivo', 'tarjeta', 'transferencia'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  efectivo: 'Efectivo',
  tarjeta: 'Tarjeta',
  transferencia: 'Transferencia',
};

export function isPaymentMethod(s: unknown): s is PaymentMethod {
  return typeof s === 'string' && (PAYMENT_METHODS as readonly string[]).includes(s);
}

/** Recorded as cashier when the card terminal, not a person, took the payment. */
export const MP_TERMINAL_CASHIER = 'mp-terminal';

export type PaymentFlow = 'cash-pin' | 'card-terminal';

/** Cash needs the PIN of whoever takes the money; card and transfer go to the terminal (SPEC §4). */
export function paymentFlow(method: PaymentMethod): PaymentFlow {
  switch (method) {
    case 'efectivo':
      return 'cash-pin';
    case 'tarjeta':
    case 'transferencia':
      return 'card-terminal';
  }
}
