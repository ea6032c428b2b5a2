import { Info } from 'lucide-react';
import { PAYMENT_GATE_MESSAGES, type PaymentGateResult } from '@comanda/domain';

/**
 * Why payment is blocked, under the button that stays disabled (SPEC §5): 'Proceder al Pago'
 * explains undelivered items in full, 'Cobrar' with the short message; an empty order says
 * to add a product.
 */
export function PaymentGateNote({ gate, button }: { gate: PaymentGateResult; button: 'proceed' | 'charge' }) {
  if (gate.ok) return null;
  const message = gate.reason === 'undelivered' && button === 'charge' ? PAYMENT_GATE_MESSAGES.cannotCharge : gate.message;
  return (
    <p className="flex items-start gap-1.5 text-xs text-slate-600" data-testid="payment-gate">
      <Info className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
      {message}
    </p>
  );
}
