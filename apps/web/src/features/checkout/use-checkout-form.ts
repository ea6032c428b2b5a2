import { useState } from 'react';
import type { Order } from '@comanda/contract';
import {
  centsToPesos,
  clampGuests,
  fractionToBps,
  matchingPreset,
  orderSubtotal,
  orderTotal,
  parseCustomTipBps,
  parseSplitCount,
  perPersonAmount,
  pesosToCents,
  tipAmount,
  type Cents,
  type PaymentMethod,
} from '@comanda/domain';
import type { TicketFigures } from '../../components/ticket/printable-ticket.tsx';
import { storedTicketFigures } from '../../components/ticket/ticket-figures.ts';
import type { TipChoice } from './tip-section.tsx';

/** What a paid order was closed with, so its locked screen shows the real choices. */
function initialChoices(order: Order) {
  const payment = order.payments[0];
  const bps = payment ? fractionToBps(payment.tipPercent) : 0;
  const preset = matchingPreset(bps);
  return {
    tip: { preset, custom: preset === null && bps > 0 ? String(bps / 100) : '' } satisfies TipChoice,
    method: order.paymentMethod ?? ('efectivo' as PaymentMethod),
    received: payment?.receivedAmount != null ? centsToPesos(payment.receivedAmount as Cents) : '',
  };
}

/**
 * The checkout's inputs and the preview figures derived from them with the domain rules.
 * A paid order shows the figures the server stored, never a recomputation.
 */
export function useCheckoutForm(order: Order) {
  const [initial] = useState(() => initialChoices(order));
  const [tip, setTip] = useState<TipChoice>(initial.tip);
  const [splitCount, setSplitCount] = useState(() => clampGuests(order.peopleCount));
  const [splitEntry, setSplitEntry] = useState('');
  const [method, setMethod] = useState<PaymentMethod>(initial.method);
  const [received, setReceived] = useState(initial.received);

  const tipBps = tip.preset ?? parseCustomTipBps(tip.custom);
  const subtotal = orderSubtotal(order.items.map((i) => ({ ...i, productPrice: i.productPrice as Cents })));
  const tipCents = tipAmount(subtotal, tipBps);
  const total = orderTotal(subtotal, tipCents);
  const preview: TicketFigures = {
    subtotal,
    tip: tipCents,
    tipBps,
    total,
    perPerson: perPersonAmount(total, splitCount),
    peopleCount: splitCount,
  };
  const figures = order.status === 'activo' ? preview : storedTicketFigures(order);

  const parsedReceived = received.trim() === '' ? null : pesosToCents(received);
  const receivedCents = parsedReceived !== null && parsedReceived >= 0 ? parsedReceived : null;

  return {
    tip,
    setTip,
    tipBps,
    splitCount,
    splitEntry,
    choosePreset: (n: number) => {
      setSplitEntry('');
      setSplitCount(n);
    },
    typeSplit: (text: string) => {
      setSplitEntry(text);
      setSplitCount(text.trim() === '' ? 1 : parseSplitCount(text));
    },
    method,
    setMethod,
    received,
    setReceived,
    receivedCents,
    fillExact: () => setReceived(centsToPesos(figures.total as Cents)),
    figures,
  };
}
