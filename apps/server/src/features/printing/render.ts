import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import type {
  ComandaDocument,
  CorteDocument,
  MovementDocument,
  PrintDocument,
  ReceiptDocument,
  TestDocument,
} from '../../model/printing/documents.ts';
import { TAX_TEXT, taxSummary, taxSummaryRows, type TaxSummary } from '@comanda/domain';
import type { LogoImage } from './logo.ts';
import { installFastCodepages } from './fast-codepages.ts';
import { SELF_INVOICE_TEXT, selfInvoiceDate, SPLIT_LABEL, type SelfInvoiceLine } from '@comanda/domain';

installFastCodepages();

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
  /** The business logo, printed at the top of receipts when configured and printable. */
  logo?: LogoImage | null;
}

/** Printable dots across the paper at 203 dpi: 576 on 80 mm, 384 on 58 mm; the logo takes at most half. */
function logoWidth(logo: LogoImage, width: 80 | 58): number {
  const max = width === 58 ? 192 : 288;
  return Math.max(8, Math.min(max, Math.floor(logo.width / 8) * 8 || 8));
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

/**
 * Text as it may reach the paper: every run of control characters (CR, LF, ESC, GS, DEL, C1) and
 * of Unicode line breaks becomes one space, so a name, note or setting prints on its own line and
 * cannot send a command or start a new protocol line; only the encoder emits control bytes.
 */
export function printableText(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ');
}

/** The encoder with its one text input (text, which line also calls) made printable. */
class PrintableEncoder extends ReceiptPrinterEncoder {
  override text(value: string): this {
    super.text(printableText(String(value)));
    return this;
  }
}

type Encoder = PrintableEncoder;

function start(width: 80 | 58): Encoder {
  // cp858: cp850 (every Spanish letter, ¿ and ¡) plus the euro sign; ESC t 19 on Epson-compatible printers.
  return new PrintableEncoder({ language: 'esc-pos', columns: columnsFor(width) }).initialize().codepage('cp858');
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
    // The chosen options read as plainly as the notes: one bold line each under the product.
    for (const m of l.modifiers ?? []) e.bold(true).line(`  > ${m}`).bold(false);
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
/** The business logo at the top of the caja's papers, centred (the caller set the alignment). */
function printLogo(e: ReturnType<typeof start>, opts: RenderOptions): void {
  if (!opts.logo) return;
  // GS v 0 raster (the command every ESC/POS thermal printer accepts), then a line feed.
  e.image(opts.logo, { width: logoWidth(opts.logo, opts.width), algorithm: 'threshold', threshold: 128, mode: 'raster' }).newline();
}

function renderReceipt(doc: ReceiptDocument, opts: RenderOptions): Uint8Array {
  const e = start(opts.width);
  const cols = columnsFor(opts.width);
  const row = (left: string, right: string) => {
    const room = Math.max(1, cols - right.length - 1);
    e.line(`${left.slice(0, room).padEnd(room)} ${right}`);
  };
  resendBanner(e, opts);
  if (doc.reprint) e.invert(true).line(' REIMPRESIÓN ').invert(false);
  e.align('center');
  printLogo(e, opts);
  if (doc.business.name) e.bold(true).line(doc.business.name).bold(false);
  e.size(2, 2).line('PASE DE SALIDA').size(1, 1);
  e.line(dateTime(doc.at, opts.timeZone));
  e.line(`Ticket #${doc.ticketNumber}`);
  if (doc.folio != null) e.bold(true).line(`Folio ${doc.folio}`).bold(false);
  e.align('left');
  e.line(`${doc.table}${doc.tableName ? ` · ${doc.tableName}` : ''}`);
  e.line(`Mesero: ${doc.waiter ?? '—'}   Personas: ${doc.guests}`);
  e.rule();
  for (const l of doc.lines) {
    row(`${l.quantity} x ${l.name}`, money(l.amount));
    for (const m of l.modifiers ?? []) e.line(`    ${m}`);
    if (l.promo) e.line(`  PROMO ${l.promo}`.slice(0, cols));
  }
  e.rule();
  row('Subtotal', money(doc.subtotal));
  if (doc.discount) row('Descuentos', `-${money(doc.discount)}`);
  if (doc.comp) row('Cortesías', `-${money(doc.comp)}`);
  if (doc.sharedOut) row('Otras cuentas (partes iguales)', `-${money(doc.sharedOut)}`);
  if (doc.shareAmount) row('Parte igual de la cuenta', money(doc.shareAmount));
  if (doc.taxes) printTaxes(e, row, taxSummary(doc.taxes), true);
  row('Propina', money(doc.tip));
  e.bold(true);
  row('Total', money(doc.total));
  e.bold(false);
  if (doc.guests > 1) row('Por persona', money(doc.perGuest));
  if (doc.split) row(SPLIT_LABEL(doc.split.count), money(doc.split.each));
  if (doc.payments && doc.payments.length > 1)
    for (const p of doc.payments) row(`Pago ${p.method}${p.reference ? ` ${p.reference}` : ''}`, money(p.amount));
  else row('Pago', doc.method);
  if (doc.received !== null) row('Recibido', money(doc.received));
  if (doc.change !== null) row('Cambio', money(doc.change));
  selfInvoiceBlock(e, doc.selfInvoice, opts);
  e.newline().align('center').line('¡Gracias por su visita!').line(doc.business.address).line(doc.business.phone).align('left');
  if (doc.openDrawer) e.pulse();
  return footer(e, opts);
}

/**
 * The self-invoice: the PAC's page as a QR (GS ( k, model 2, built by the encoder), its key and
 * "Factura en línea hasta el dd/mm/aaaa" in the business's zone; a note while the receipt is queued.
 */
function selfInvoiceBlock(e: Encoder, line: SelfInvoiceLine | null | undefined, opts: RenderOptions): void {
  if (!line) return;
  e.newline().align('center');
  if (line.state === 'queued') e.line(SELF_INVOICE_TEXT.queued);
  else {
    e.qrcode(line.url, { model: 2, size: opts.width === 58 ? 4 : 6, errorlevel: 'm' });
    e.newline().bold(true).line(SELF_INVOICE_TEXT.key(line.key)).bold(false);
    e.line(SELF_INVOICE_TEXT.until(selfInvoiceDate(line.expiresAt, opts.timeZone)));
  }
  e.align('left');
}

/** A check's (or a session's) taxes: "Subtotal sin IVA", IVA by rate, "Total", from the frozen breakdown. */
function printTaxes(e: Encoder, row: (left: string, right: string) => void, summary: TaxSummary, receipt: boolean): void {
  if (receipt) for (const r of taxSummaryRows(summary)) row(r.label, money(r.amount));
  else for (const r of summary.rates) row(`  ${r.label}`, money(r.amount));
  if (receipt && summary.includedNote) e.line(TAX_TEXT.included);
}

const KIND_TITLES = { retiro: 'RETIRO', deposito: 'DEPÓSITO', gasto: 'GASTO', propinas: 'PAGO DE PROPINAS' } as const;
const KIND_LABELS = { retiro: 'Retiro', deposito: 'Depósito', gasto: 'Gasto', propinas: 'Propinas' } as const;

/** A cash movement slip: what, how much, why, who authorised it, with a line to sign. */
function renderMovement(doc: MovementDocument, opts: RenderOptions): Uint8Array {
  const e = start(opts.width);
  const cols = columnsFor(opts.width);
  resendBanner(e, opts);
  e.align('center');
  printLogo(e, opts);
  if (doc.businessName) e.bold(true).line(doc.businessName).bold(false);
  e.bold(true).line(`COMPROBANTE DE ${KIND_TITLES[doc.kind]}`).bold(false);
  e.line(dateTime(doc.at, opts.timeZone));
  e.align('left').rule();
  e.size(2, 2)
    .line(`Monto: ${money(doc.amount)}`)
    .size(1, 1);
  e.line(`Motivo: ${doc.reason}`);
  if (doc.recipient) e.line(`Recibió: ${doc.recipient}`);
  e.rule();
  // A tip payout is signed by who received it (their PIN); the others by who authorised them.
  if (!doc.recipient) e.line(`Autorizó: ${doc.authorizedBy}`);
  e.line(`Registró: ${doc.createdBy}`);
  e.newline()
    .newline()
    .line('_'.repeat(Math.min(32, cols)))
    .line(`Firma: ${doc.recipient ?? doc.authorizedBy}`);
  return footer(e, opts);
}

/** Corte X (figures so far) or corte Z (count, expected, difference, signatures). */
function renderCorte(doc: CorteDocument, opts: RenderOptions): Uint8Array {
  const e = start(opts.width);
  const cols = columnsFor(opts.width);
  const row = (left: string, right: string) => {
    const room = Math.max(1, cols - right.length - 1);
    e.line(`${left.slice(0, room).padEnd(room)} ${right}`);
  };
  const minus = (c: number) => (c === 0 ? money(0) : `-${money(c)}`);
  const f = doc.figures;
  resendBanner(e, opts);
  e.align('center');
  printLogo(e, opts);
  if (doc.businessName) e.bold(true).line(doc.businessName).bold(false);
  e.size(2, 2).line(`CORTE ${doc.variant}`).size(1, 1);
  e.align('left');
  row('Apertura', dateTime(doc.openedAt, opts.timeZone));
  row(doc.variant === 'Z' ? 'Cierre' : 'Impreso', dateTime(doc.at, opts.timeZone));
  e.line(`Abrió: ${doc.openedBy}`);
  e.rule();
  row('Fondo inicial', money(f.float));
  row('Efectivo recibido', money(f.cashReceived));
  row('Cambio entregado', minus(f.change));
  row('Depósitos', money(f.deposits));
  row('Retiros', minus(f.withdrawals));
  row('Gastos', minus(f.paidOuts));
  row('Propinas pagadas', minus(f.tipPayouts ?? 0));
  e.rule().bold(true);
  row('Efectivo esperado', money(f.expected));
  if (doc.variant === 'Z' && doc.counted !== null && doc.difference !== null) {
    const label = doc.difference === 0 ? 'Cuadra' : doc.difference > 0 ? 'Sobrante' : 'Faltante';
    row('Efectivo contado', money(doc.counted));
    row(`Diferencia (${label})`, `${doc.difference < 0 ? '-' : ''}${money(Math.abs(doc.difference))}`);
  }
  e.bold(false);
  if (doc.comment) e.line(doc.comment);
  e.rule();
  row('Ventas en efectivo', money(f.cashSales));
  row('Cobros en efectivo', String(f.cashCount));
  row('Tarjeta (informativo)', money(f.card));
  row('Transferencia (informativo)', money(f.transfer));
  if (f.taxes) {
    e.rule();
    const summary = taxSummary(f.taxes);
    row(TAX_TEXT.netSales, money(summary.subtotal));
    e.line(`${TAX_TEXT.vatHeading}:`);
    printTaxes(e, row, summary, false);
  }
  if (doc.movements.length) {
    e.rule();
    for (const m of doc.movements) row(`${KIND_LABELS[m.kind]}: ${m.reason}`, money(m.amount));
  }
  if (doc.variant === 'Z') {
    const sign = '_'.repeat(Math.min(32, cols));
    e.newline()
      .newline()
      .line(sign)
      .line(`Cajero: ${doc.cashier ?? ''}`);
    e.newline()
      .newline()
      .line(sign)
      .line(`Administrador: ${doc.admin ?? ''}`);
  }
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
    case 'movimiento':
      return renderMovement(doc, opts);
    case 'corte':
      return renderCorte(doc, opts);
  }
}
