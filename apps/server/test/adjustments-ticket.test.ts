import { describe, expect, it } from 'vitest';
import { decodeEscPos } from '../src/features/printing/escpos-decoder.ts';
import { renderDocument } from '../src/features/printing/render.ts';
import type { ReceiptDocument } from '../src/model/printing/documents.ts';

const receipt: ReceiptDocument = {
  type: 'ticket',
  business: { name: 'La Cantina', address: 'Calle Principal #123', phone: '(55) 1234-5678' },
  ticketNumber: 'ABC123',
  orderShortId: 'abc',
  table: 'Mesa 141',
  waiter: 'Mario Mesero',
  guests: 1,
  perGuest: 14_850,
  at: Date.UTC(2026, 10, 22, 2, 5),
  lines: [
    { quantity: 2, name: 'Cerveza clara', amount: 11_000 },
    { quantity: 1, name: 'Tacos al pastor (3)', amount: 9_500 },
  ],
  subtotal: 20_500,
  discount: 1_500,
  comp: 5_500,
  tip: 1_350,
  total: 14_850,
  method: 'Efectivo',
  received: 14_850,
  change: 0,
  openDrawer: true,
};
const opts = { width: 80 as const, jobNumber: 7, resend: false, timeZone: 'America/Mexico_City' };

describe('printed ticket with discounts and comps', () => {
  it('prints Subtotal, Descuentos, Cortesías, Propina and Total in that order', () => {
    const [ticket] = decodeEscPos(renderDocument(receipt, opts));
    const text = ticket!.text;
    expect(text).toMatch(/Subtotal\s+\$205\.00/);
    expect(text).toMatch(/Descuentos\s+-\$15\.00/);
    expect(text).toMatch(/Cortesías\s+-\$55\.00/);
    expect(text).toMatch(/Propina\s+\$13\.50/);
    expect(text).toMatch(/Total\s+\$148\.50/);
    const order = ['Subtotal', 'Descuentos', 'Cortesías', 'Propina', 'Total'].map((w) => text.indexOf(w));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('a ticket without them (or queued before them) prints no such rows', () => {
    const { discount: _d, comp: _c, ...old } = receipt;
    for (const doc of [old, { ...receipt, discount: 0, comp: 0 }]) {
      const [ticket] = decodeEscPos(renderDocument(doc, opts));
      expect(ticket!.text).not.toContain('Descuentos');
      expect(ticket!.text).not.toContain('Cortesías');
    }
  });
});
