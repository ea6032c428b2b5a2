import { describe, expect, it } from 'vitest';
import { decodeEscPos } from '../src/features/printing/escpos-decoder.ts';
import { renderDocument } from '../src/features/printing/render.ts';
import type { ComandaDocument, ReceiptDocument } from '../src/model/printing/documents.ts';

const opts = { width: 80 as const, jobNumber: 7, resend: false, timeZone: 'America/Mexico_City' };

/** Modifier options on paper (decision 0026): under the product on the comanda and the receipt. */
describe('modifiers on ESC/POS documents', () => {
  it('prints each option in bold under its line on a comanda, before the notes', () => {
    const comanda: ComandaDocument = {
      type: 'comanda',
      station: 'barra',
      table: 'Mesa 300',
      waiter: 'Mario Mesero',
      guests: 2,
      orderShortId: 'abcd1234',
      at: Date.UTC(2026, 10, 22, 2, 5),
      lines: [
        { itemId: 'a', quantity: 1, name: 'Cerveza clara', notes: 'bien fría', modifiers: ['Michelada'] },
        { itemId: 'b', quantity: 2, name: 'Cerveza', notes: null },
      ],
    };
    const [ticket] = decodeEscPos(renderDocument(comanda, opts));
    const lines = ticket!.text.split('\n');
    const at = lines.indexOf('## 1 x Cerveza clara');
    expect(at).toBeGreaterThan(-1);
    expect(lines[at + 1]).toContain('> Michelada');
    expect(lines[at + 2]).toBe('[[ NOTA: bien fría ]]');
  });

  it('lists the options under the line on a receipt, the line amount already counting them', () => {
    const receipt: ReceiptDocument = {
      type: 'ticket',
      business: { name: 'Comanda Bar', address: '', phone: '' },
      ticketNumber: 'ABCDEF',
      orderShortId: 'abcdef12',
      table: 'Mesa 300',
      waiter: 'Mario Mesero',
      guests: 1,
      perGuest: 175_00,
      at: Date.UTC(2026, 10, 22, 2, 5),
      lines: [
        { quantity: 1, name: 'Cerveza clara', amount: 80_00, modifiers: ['Michelada'] },
        { quantity: 1, name: 'Tacos al pastor (3)', amount: 95_00, modifiers: ['sin cebolla'] },
      ],
      subtotal: 175_00,
      tip: 0,
      total: 175_00,
      method: 'efectivo',
      received: 200_00,
      change: 25_00,
      openDrawer: false,
    };
    const [ticket] = decodeEscPos(renderDocument(receipt, opts));
    const lines = ticket!.text.split('\n');
    const beer = lines.findIndex((l) => l.startsWith('1 x Cerveza clara'));
    expect(lines[beer]).toContain('$80.00');
    expect(lines[beer + 1]!.trim()).toBe('Michelada');
    const tacos = lines.findIndex((l) => l.startsWith('1 x Tacos al pastor (3)'));
    expect(lines[tacos + 1]!.trim()).toBe('sin cebolla');
  });
});
