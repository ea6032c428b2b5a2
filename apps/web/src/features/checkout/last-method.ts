import { PAYMENT_METHODS, type PaymentMethod } from '@comanda/domain';

const KEY = 'comanda:checkout-method';

/** The payment method last used to charge on this device, preselected on the next checkout. */
export function lastMethod(): PaymentMethod | null {
  try {
    const stored = localStorage.getItem(KEY);
    return PAYMENT_METHODS.find((m) => m === stored) ?? null;
  } catch {
    return null;
  }
}

export function rememberMethod(method: PaymentMethod): void {
  try {
    localStorage.setItem(KEY, method);
  } catch {
    // Private mode or a full storage: the next checkout starts on Efectivo.
  }
}
