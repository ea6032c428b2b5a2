import { useState } from 'react';
import type { Order } from '@comanda/contract';
import {
  centsToPesos,
  chargeFigures,
  checkOwed,
  clampGuests,
  matchingPreset,
  orderSubtotal,
  owedAmount,
  parseCustomTipBps,
  parseSplitCount,
  perPersonAmount,
  pesosToCents,
  type PaymentMethod,
} from '@comanda/domain';
import type { TicketFigures } from '../../components/ticket/ticket-figures.ts';
import { splitFigure, storedTicketFigures } from '../../components/ticket/ticket-figures.ts';
import type { TipChoice } from './tip-section.tsx';
import { lastMethod } from './last-method.ts';

/** What a paid order was closed with, so its locked screen shows the real choices. */
function initialChoices(order: Order) {
  const payment = order.payments[0];
  const bps = payment ? payment.tipBps : 0;
  const preset = matchingPreset(bps);
  return {
    tip: { preset, custom: preset === null && bps > 0 ? String(bps / 100) : '' } satisfies TipChoice,
    method: order.paymentMethod ?? lastMethod() ?? ('efectivo' as PaymentMethod),
    received: payment?.receivedAmount != null ? centsToPesos(payment.receivedAmount) : '',
  };
}

/**
 * The checkout's inputs and the preview figures derived from them with the domain rules.
 * A paid order shows the figures the server stored, never a recomputation.
 */
export function useCheckoutForm(order: Order) {
  const [initial] = useState(() => initialChoices(order));
  const [tip, setTip] = useState<TipChoice>(initial.tip);
  // The calculator starts at one part per guest; the guests themselves stay the table's.
  const guests = clampGuests(order.peopleCount);
  const [splitCount, setSplitCount] = useState(() => clampGuests(order.splitCount ?? order.peopleCount));
  const [splitEntry, setSplitEntry] = useState('');
  const [method, setMethod] = useState<PaymentMethod>(initial.method);
  const [received, setReceived] = useState(initial.received);

  const tipBps = tip.preset ?? parseCustomTipBps(tip.custom);
  const itemsSubtotal = orderSubtotal(order.items);
  // Discounts and comps (kept by the server on the order) come off before the tip.
  // Equal shares: less what share checks owe of these items, plus this check's own share.
  const shares = { sharedOut: order.sharedOut ?? 0, shareAmount: order.shareAmount ?? 0 };
  const owed = checkOwed({
    owed: owedAmount({ subtotal: itemsSubtotal, discounts: order.discount ?? 0, comps: order.comp ?? 0 }),
    ...shares,
  });
  // After parts of a mixed payment, paying the rest at once is on the balance.
  const partsPaid = order.payments.length > 0 && order.status === 'activo';
  const due = partsPaid ? order.balance : owed;
  const subtotal = partsPaid ? due : itemsSubtotal;
  const adjusted = partsPaid ? { discount: 0, comp: 0 } : { discount: order.discount ?? 0, comp: order.comp ?? 0, ...shares };
  const { tip: tipCents, total } = chargeFigures(due, { bps: tipBps });
  const preview: TicketFigures = {
    subtotal,
    ...adjusted,
    tip: tipCents,
    tipBps,
    total,
    perPerson: perPersonAmount(total, guests),
    peopleCount: guests,
    split: splitFigure(total, guests, splitCount),
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
    fillExact: () => setReceived(centsToPesos(figures.total)),
    figures,
  };
}
