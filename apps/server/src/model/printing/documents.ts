import type { SelfInvoiceLine, TaxBreakdown } from '@comanda/domain';

/** What a print job prints, stored as JSON on the job and rendered for the printer's width at delivery. */
export type PrinterRole = 'cocina' | 'barra' | 'caja';
export type JobKind = 'comanda' | 'cancelacion' | 'reimpresion' | 'ticket' | 'prueba' | 'movimiento' | 'corte';

export interface ComandaLine {
  itemId: string;
  quantity: number;
  name: string;
  notes: string | null;
  /** The chosen modifier options as they read ('Michelada', 'sin cebolla'); absent on older jobs (0026). */
  modifiers?: string[];
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
  /** The checkout's calculator, when it divided the check by other than its guests ("Dividido entre N"). */
  split?: { count: number; each: number };
  at: number;
  /** `promo`: the promotion that priced the line, printed as "PROMO <name>" under it.
   *  `modifiers`: the chosen options as they read; absent on older jobs and lines without any (0026). */
  lines: { quantity: number; name: string; amount: number; promo?: string | null; modifiers?: string[] }[];
  subtotal: number;
  /** Discounts and comps; absent in jobs queued before them, printed only when > 0. */
  discount?: number;
  comp?: number;
  /** Equal shares: what other checks pay of these items, or this check's share; printed only when > 0. */
  sharedOut?: number;
  shareAmount?: number;
  tip: number;
  total: number;
  method: string;
  received: number | null;
  change: number | null;
  openDrawer: boolean;
  /** The order's folio (absent on jobs written before folios existed). */
  folio?: number | null;
  /** Every payment when the order was paid in parts (mixed payments); absent or one: `method`. */
  payments?: { method: string; amount: number; reference: string | null }[];
  /** The check's frozen tax breakdown (absent on jobs written before the tax model). */
  taxes?: TaxBreakdown | null;
  /** The self-invoice QR, key and expiry, or a note while the receipt is queued; absent: nothing printed. */
  selfInvoice?: SelfInvoiceLine | null;
  /** Printed again from Tickets (marked REIMPRESIÓN, no drawer pulse). */
  reprint?: boolean;
}

/** A cash movement slip (retiro, depósito, gasto, propinas) on the caja printer, written with the movement. */
export interface MovementDocument {
  type: 'movimiento';
  businessName: string;
  kind: 'retiro' | 'deposito' | 'gasto' | 'propinas';
  /** Who received a tip payout (absent for other kinds and on older jobs). */
  recipient?: string | null;
  amount: number;
  reason: string;
  authorizedBy: string;
  createdBy: string;
  at: number;
}

/** A corte X (figures so far, on request) or corte Z (the closing count, written with the close). */
export interface CorteDocument {
  type: 'corte';
  variant: 'X' | 'Z';
  businessName: string;
  openedAt: number;
  openedBy: string;
  /** When the figures were taken (the close for a corte Z). */
  at: number;
  figures: {
    float: number;
    cashSales: number;
    cashReceived: number;
    change: number;
    deposits: number;
    withdrawals: number;
    paidOuts: number;
    /** Absent on jobs queued before tip payouts existed. */
    tipPayouts?: number;
    expected: number;
    cashCount: number;
    card: number;
    transfer: number;
    /** What the session's paid checks charged, tips apart, with their IVA by rate (absent on older cortes). */
    taxes?: TaxBreakdown;
  };
  counted: number | null;
  difference: number | null;
  comment: string | null;
  cashier: string | null;
  admin: string | null;
  movements: { kind: 'retiro' | 'deposito' | 'gasto' | 'propinas'; amount: number; reason: string }[];
}

export type PrintDocument = ComandaDocument | TestDocument | ReceiptDocument | MovementDocument | CorteDocument;
