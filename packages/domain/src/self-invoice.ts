/**
 * How the ticket invites the customer to invoice it online (the PAC's self-invoice page), the same
 * on the screen, the browser's print and the ESC/POS receipt: the page's QR, its key and the date
 * until which it may be invoiced, or a note while the ticket's receipt is still queued.
 */
export const SELF_INVOICE_TEXT = {
  until: (date: string) => `Factura en línea hasta el ${date}`,
  key: (key: string) => `Clave: ${key}`,
  queued: 'Factura en línea: el código se imprimirá al reimprimir el ticket',
  qrAlt: 'Código QR para facturar en línea',
} as const;

const formats = new Map<string, Intl.DateTimeFormat>();

/** dd/mm/aaaa of an instant in the business's time zone ("07/03/2026"). */
export function selfInvoiceDate(at: number, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('es-MX', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.day}/${parts.month}/${parts.year}`;
}

/** What a ticket prints about its self-invoice, from its receipt's state; null: nothing (no receipt, or no longer open). */
export type SelfInvoiceLine = { state: 'queued' } | { state: 'issued'; url: string; key: string; expiresAt: number };

export function selfInvoiceLine(
  receipt: { state: string; selfInvoiceUrl: string | null; receiptKey: string | null; expiresAt: number | null } | null,
): SelfInvoiceLine | null {
  if (!receipt) return null;
  if (receipt.state === 'pendiente') return { state: 'queued' };
  if (receipt.state !== 'emitido' || !receipt.selfInvoiceUrl || !receipt.receiptKey || receipt.expiresAt === null) return null;
  return { state: 'issued', url: receipt.selfInvoiceUrl, key: receipt.receiptKey, expiresAt: receipt.expiresAt };
}
