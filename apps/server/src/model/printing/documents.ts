/** What a print job prints, stored as JSON on the job and rendered for the printer's width at delivery. */
export type PrinterRole = 'cocina' | 'barra' | 'caja';
export type JobKind = 'comanda' | 'cancelacion' | 'reimpresion' | 'ticket' | 'prueba';

export interface ComandaLine {
  itemId: string;
  quantity: number;
  name: string;
  notes: string | null;
}

export interface ComandaDocument {
  type: 'comanda';
  station: 'cocina' | 'barra';
  /** Set when the comanda cancels lines printed before. */
  cancel?: boolean;
  /** Set when staff asked to print it again. */
  reprint?: boolean;
  table: string;
  waiter: string | null;
  guests: number;
  orderShortId: string;
  /** Epoch ms of the change that caused it (printed as local time). */
  at: number;
  lines: ComandaLine[];
}

export interface TestDocument {
  type: 'prueba';
  printerName: string;
  role: PrinterRole;
  at: number;
}

export interface ReceiptDocument {
  type: 'ticket';
  business: { name: string; address: string; phone: string };
  /** The ticket number (first 6 characters of the order id in capitals). */
  ticketNumber: string;
  orderShortId: string;
  table: string;
  tableName?: string | null;
  waiter: string | null;
  guests: number;
  perGuest: number;
  at: number;
  lines: { quantity: number; name: string; amount: number }[];
  subtotal: number;
  tip: number;
  total: number;
  method: string;
  received: number | null;
  change: number | null;
  openDrawer: boolean;
}

export type PrintDocument = ComandaDocument | TestDocument | ReceiptDocument;
