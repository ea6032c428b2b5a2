import type { Order } from '@comanda/contract';
import type { GeneralConfig } from '@comanda/contract';

/** Amounts the ticket shows; for an unpaid order the checkout passes its preview figures. */
export interface TicketFigures {
  subtotal: number;
  tip: number;
  tipBps: number;
  total: number;
  perPerson: number;
  peopleCount: number;
}

export interface PrintableTicketProps {
  order: Order;
  business: GeneralConfig | undefined;
  figures: TicketFigures;
}

// Placeholder: the checkout feature owns this component (80 mm receipt, PASE DE SALIDA).
export function PrintableTicket({ order }: PrintableTicketProps) {
  return <div className="print-area">PASE DE SALIDA {order.id}</div>;
}
