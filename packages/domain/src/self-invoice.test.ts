import { describe, expect, it } from 'vitest';
import { selfInvoiceDate, selfInvoiceLine, SELF_INVOICE_TEXT } from './self-invoice.ts';

describe('self-invoice line', () => {
  it('prints the expiry as dd/mm/aaaa in the business time zone', () => {
    // 2026-04-01 03:30 UTC is still 31 March in Mexico City.
    const at = Date.UTC(2026, 3, 1, 3, 30);
    expect(selfInvoiceDate(at, 'America/Mexico_City')).toBe('31/03/2026');
    expect(selfInvoiceDate(at, 'UTC')).toBe('01/04/2026');
    expect(SELF_INVOICE_TEXT.until(selfInvoiceDate(at, 'America/Mexico_City'))).toBe('Factura en línea hasta el 31/03/2026');
  });

  it('is queued while the receipt is pending, the QR once issued, nothing once invoiced or without a receipt', () => {
    const issued = { selfInvoiceUrl: 'https://factura.example/r/abc', receiptKey: 'ABC123', expiresAt: 1 };
    expect(selfInvoiceLine({ state: 'pendiente', selfInvoiceUrl: null, receiptKey: null, expiresAt: null })).toEqual({ state: 'queued' });
    expect(selfInvoiceLine({ state: 'emitido', ...issued })).toEqual({
      state: 'issued',
      url: issued.selfInvoiceUrl,
      key: 'ABC123',
      expiresAt: 1,
    });
    expect(selfInvoiceLine({ state: 'facturado', ...issued })).toBeNull();
    expect(selfInvoiceLine(null)).toBeNull();
  });
});
