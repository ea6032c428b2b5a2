import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import type { ComandaDocument, PrintDocument, ReceiptDocument, TestDocument } from '../../model/printing/documents.ts';

/** Characters per line in the printer's normal font: 48 on 80 mm paper, 32 on 58 mm. */
export function columnsFor(width: 80 | 58): number {
  return width === 58 ? 32 : 48;
}

export interface RenderOptions {
  width: 80 | 58;
  /** Job number printed on every ticket, so a resent ticket can be matched with the first copy. */
  jobNumber: number;
  /** A second delivery after a delivery whose outcome was unknown. */
  resend: boolean;
  timeZone: string;
}

const clocks = new Map<string, Intl.DateTimeFormat>();
function clock(at: number, timeZone: string): string {
  let format = clocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('es-MX', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clocks.set(timeZone, format);
  }
  return format.format(at);
}

function money(centavos: number): string {
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  const pesos = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${pesos}.${String(abs % 100).padStart(2, '0')}`;
}

type Encoder = InstanceType<typeof ReceiptPrinterEncoder>;

function start(width: 80 | 58): Encoder {
  // cp858: cp850 (every Spanish letter, ¿ and ¡) plus the euro sign; ESC t 19 on Epson-compatible printers.
  return new ReceiptPrinterEncoder({ language: 'esc-pos', columns: columnsFor(width) }).initialize().codepage('cp858');
}

function footer(e: Encoder, opts: RenderOptions): Uint8Array {
  e.newline().line(`Trabajo #${opts.jobNumber}`).newline().newline().cut();
  return e.encode();
}

function resendBanner(e: Encoder, opts: RenderOptions): void {
  if (!opts.resend) return;
  e.invert(true).line(' REENVÍO: revisar si ya salió ').invert(false);
}

function renderComanda(doc: ComandaDocument, opts: RenderOptions): Uint8Array {
  const e = start(opts.width);
  const title = doc.cancel ? 'CANCELACIÓN' : doc.station === 'cocina' ? 'COCINA' : 'BARRA';
  resendBanner(e, opts);
  if (doc.reprint) e.invert(true).line(' REIMPRESIÓN ').invert(false);
  e.size(2, 2).line(title).line(doc.table).size(1, 1);
  e.line(`Mesero: ${doc.waiter ?? '—'}`);
  e.line(`Hora: ${clock(doc.at, opts.timeZone)}   Personas: ${doc.guests}`);
  e.line(`Orden: ${doc.orderShortId}`);
  e.rule();
  for (const l of doc.lines) {
    e.bold(true)
      .size(2, 2)
      .line(`${doc.cancel ? 'CANCELAR ' : ''}${l.quantity} x ${l.name}`)
      .size(1, 1)
      .bold(false);
    if (l.notes) e.invert(true).line(` NOTA: ${l.notes} `).invert(false);
  }
  e.rule();
  return footer(e, opts);
}

function renderTest(doc: TestDocument, opts: RenderOptions): Uint8Array {
  const e = start(opts.width);
  e.size(2, 2).line('PRUEBA').size(1, 1);
  e.line(`Impresora: ${doc.printerName}`);
  e.line(`Área: ${doc.role}   Ancho: ${opts.width} mm`);
  e.line(`Hora: ${clock(doc.at, opts.timeZone)}`);
  e.line('Piña colada jalapeño ¿doble? ¡Sí!');
  return footer(e, opts);
}

const DATE_TIME = new Map<string, Intl.DateTimeFormat>();
function dateTime(at: number, timeZone: string): string {
  let format = DATE_TIME.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('es-MX', { timeZone, dateStyle: 'short', timeStyle: 'short', hourCycle: 'h23' });
    DATE_TIME.set(timeZone, format);
  }
  return format.format(at);
}

/** The PASE DE SALIDA (SPEC §2 checkout ticket) on the caja printer; a cash payment also kicks the drawer. */
function renderReceipt(doc: ReceiptDocument, opts: RenderOptions): Uint8Array {
  const e = start(opts.width);
  const cols = columnsFor(opts.width);
  const row = (left: string, right: string) => {
    const room = Math.max(1, cols - right.length - 1);
    e.line(`${left.slice(0, room).padEnd(room)} ${right}`);
  };
  resendBanner(e, opts);
  e.align('center');
  if (doc.business.name) e.bold(true).line(doc.business.name).bold(false);
  e.size(2, 2).line('PASE DE SALIDA').size(1, 1);
  e.line(dateTime(doc.at, opts.timeZone));
  e.line(`Ticket #${doc.ticketNumber}`);
  e.align('left');
  e.line(`${doc.table}${doc.tableName ? ` · ${doc.tableName}` : ''}`);
  e.line(`Mesero: ${doc.waiter ?? '—'}   Personas: ${doc.guests}`);
  e.rule();
  for (const l of doc.lines) row(`${l.quantity} x ${l.name}`, money(l.amount));
  e.rule();
  row('Subtotal', money(doc.subtotal));
  row('Propina', money(doc.tip));
  e.bold(true);
  row('Total', money(doc.total));
  e.bold(false);
  if (doc.guests > 1) row('Por persona', money(doc.perGuest));
  row('Pago', doc.method);
  if (doc.received !== null) row('Recibido', money(doc.received));
  if (doc.change !== null) row('Cambio', money(doc.change));
  e.newline().align('center').line('¡Gracias por su visita!').line(doc.business.address).line(doc.business.phone).align('left');
  if (doc.openDrawer) e.pulse();
  return footer(e, opts);
}

export function renderDocument(doc: PrintDocument, opts: RenderOptions): Uint8Array {
  switch (doc.type) {
    case 'comanda':
      return renderComanda(doc, opts);
    case 'prueba':
      return renderTest(doc, opts);
    case 'ticket':
      return renderReceipt(doc, opts);
  }
}
