import { useState } from 'react';
import type { Order } from '@comanda/contract';
import { activeItems, isOrderOpen, itemQuantity, paymentGate } from '@comanda/domain';
import { useBottomBar } from '../../lib/bottom-bar.ts';
import { useGeneralConfig } from '../../lib/config.ts';
import { useCheckoutForm } from './use-checkout-form.ts';
import { useCheckoutPay } from './use-checkout-pay.ts';
import { useCheckoutArea } from './use-checkout-target.ts';

/** The checkout screen's state: the form (tip, method, cash, split), the payment steps, and what is locked. */
export function useCheckoutScreen(order: Order) {
  const { base, home } = useCheckoutArea();
  const config = useGeneralConfig();
  const form = useCheckoutForm(order);
  const pay = useCheckoutPay(order, form);
  const [showTicket, setShowTicket] = useState(false);
  const [openedAt] = useState(() => Date.now());
  const barRef = useBottomBar<HTMLDivElement>();
  const open = isOrderOpen(order.status);
  return {
    base,
    home,
    business: config.data,
    form,
    /** A quick amount button's pesos in the received field. */
    setReceivedCents: (cents: number) => form.setReceived((cents / 100).toFixed(2)),
    /** The terminal charges card or transfer; with cash chosen it is a card. */
    terminalMethod: form.method === 'efectivo' ? ('tarjeta' as const) : form.method,
    figures: form.figures,
    itemCount: itemQuantity(activeItems(order.items)),
    pay,
    step: pay.step?.kind,
    open,
    gate: paymentGate(order.items, order.shareAmount ?? 0),
    locked: !open || pay.pending,
    showTicket,
    toggleTicket: () => setShowTicket((v) => !v),
    openedAt,
    barRef,
  };
}

export type CheckoutScreenState = ReturnType<typeof useCheckoutScreen>;
