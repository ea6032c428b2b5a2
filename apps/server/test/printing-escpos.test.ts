import { describe, expect, it } from 'vitest';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import CodepageEncoder from '@point-of-sale/codepage-encoder';
import { UPPER_HALF } from '../src/features/printing/codepages.ts';
import { decodeEscPos } from '../src/features/printing/escpos-decoder.ts';
import { columnsFor, renderDocument } from '../src/features/printing/render.ts';
import type { ComandaDocument } from '../src/model/printing/documents.ts';

const comanda: ComandaDocument = {
  type: 'comanda',
  station: 'barra',
  table: 'Mesa 12',
  waiter: 'Mario Mesero',
  guests: 4,
  orderShortId: '5a6e196d',
  at: Date.UTC(2026, 10, 22, 2, 5),
  lines: [
    { itemId: 'a', quantity: 2, name: 'Piña colada jalapeño ¿doble?', notes: 'sin azúcar, ¡rápido!' },
    { itemId: 'b', quantity: 1, name: 'Cerveza', notes: null },
  ],
};
const opts = { width: 80 as const, jobNumber: 41, resend: false, timeZone: 'America/Mexico_City' };

describe('ESC/POS comandas', () => {
  it('our code page tables agree with the IBM tables the encoder library ships', () => {
    for (const page of ['cp437', 'cp850', 'cp858'] as const) {
      const theirs = CodepageEncoder.getCodepoints(page, true).slice(128);
      expect([...UPPER_HALF[page]].map((c) => c.codePointAt(0))).toEqual(theirs);
    }
  });

  it('prints "Piña colada jalapeño ¿doble?" with cp858 selected and the right bytes', () => {
    const expected = Buffer.from([
      ...Buffer.from('Pi'),
      0xa4,
      ...Buffer.from('a colada jalape'),
      0xa4,
      ...Buffer.from('o '),
      0xa8,
      ...Buffer.from('doble?'),
    ]);
    // The test page prints it at normal size on one line.
    const test = Buffer.from(renderDocument({ type: 'prueba', printerName: 'Barra', role: 'barra', at: comanda.at }, opts));
    // ESC t 19 selects cp858 (Epson numbering) before the text.
    expect(test.indexOf(Buffer.from([0x1b, 0x74, 19]))).toBeGreaterThan(-1);
    expect(test.indexOf(Buffer.from([0x1b, 0x74, 19]))).toBeLessThan(test.indexOf(expected));
    expect(test.indexOf(expected)).toBeGreaterThan(-1);
    // On a comanda the double-size name wraps at 24 columns; the bytes are the same code page.
    const bytes = Buffer.from(renderDocument(comanda, opts));
    expect(bytes.indexOf(expected.subarray(0, 'Piña colada jalapeño'.length))).toBeGreaterThan(-1);
    expect(bytes.indexOf(Buffer.from([0xa8, ...Buffer.from('doble?')]))).toBeGreaterThan(-1);
    // No UTF-8 leaked through.
    expect(bytes.indexOf(Buffer.from('ñ', 'utf8'))).toBe(-1);
    expect(test.indexOf(Buffer.from('ñ', 'utf8'))).toBe(-1);
  });

  it('decodes the encoder library’s own output back to the text', () => {
    const bytes = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: 48 })
      .initialize()
      .codepage('cp858')
      .line('Añejo ¿sí? ¡Olé! Ü €')
      .size(2, 2)
      .line('GRANDE')
      .size(1, 1)
      .invert(true)
      .line('NOTA')
      .invert(false)
      .cut()
      .encode();
    const [ticket, ...rest] = decodeEscPos(bytes);
    expect(rest.filter((t) => t.text)).toEqual([]);
    expect(ticket).toEqual({ text: 'Añejo ¿sí? ¡Olé! Ü €\n## GRANDE\n[[NOTA]]', complete: true, pulses: 0 });
  });

  it('lays out a comanda: station, table, waiter, time, guests, large quantities, highlighted notes, short id, job number, cut', () => {
    const [ticket] = decodeEscPos(renderDocument(comanda, opts));
    const lines = ticket!.text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['## BARRA', '## Mesa 12']);
    expect(ticket!.text).toContain('Mesero: Mario Mesero');
    expect(ticket!.text).toContain('Hora: 20:05   Personas: 4');
    expect(ticket!.text).toContain('Orden: 5a6e196d');
    // Double size: 24 columns on 80 mm, so a long name wraps (both lines large).
    expect(lines).toContain('## 2 x Piña colada jalapeño');
    expect(lines).toContain('## ¿doble?');
    expect(lines).toContain('[[ NOTA: sin azúcar, ¡rápido! ]]');
    expect(lines).toContain('## 1 x Cerveza');
    expect(ticket!.text).toContain('Trabajo #41');
    expect(ticket!.complete).toBe(true);
  });

  it('fits 58 mm paper (32 columns) and marks reprints and resends', () => {
    expect(columnsFor(58)).toBe(32);
    const [narrow] = decodeEscPos(renderDocument({ ...comanda, reprint: true }, { ...opts, width: 58, resend: true }));
    const rule = narrow!.text.split('\n').find((l) => /^─+$/.test(l));
    expect(rule).toHaveLength(32);
    expect(narrow!.text).toContain('[[ REIMPRESIÓN ]]');
    expect(narrow!.text).toContain('REENVÍO');
    const [wide] = decodeEscPos(renderDocument(comanda, opts));
    expect(wide!.text.split('\n').find((l) => /^─+$/.test(l))).toHaveLength(48);
  });

  it('a receipt with a cash payment opens the drawer, one paid otherwise does not', () => {
    const receipt = {
      type: 'ticket' as const,
      business: { name: 'La Cantina', address: 'Calle Principal #123', phone: '(55) 1234-5678' },
      ticketNumber: 'ABC123',
      orderShortId: 'abc',
      table: 'Mesa 1',
      waiter: 'Ana',
      guests: 2,
      perGuest: 6900,
      at: comanda.at,
      lines: [{ quantity: 2, name: 'Tacos', amount: 12000 }],
      subtotal: 12000,
      tip: 1800,
      total: 13800,
      method: 'Efectivo',
      received: 20000,
      change: 6200,
      openDrawer: true,
    };
    const [ticket] = decodeEscPos(renderDocument(receipt, opts));
    expect(ticket!.pulses).toBe(1);
    expect(ticket!.text).toContain('PASE DE SALIDA');
    expect(ticket!.text).toMatch(/Total\s+\$138\.00/);
    expect(ticket!.text).toMatch(/Por persona\s+\$69\.00/);
    expect(ticket!.text).toContain('¡Gracias por su visita!');
    expect(ticket!.text).toMatch(/Cambio\s+\$62\.00/);
    const [card] = decodeEscPos(renderDocument({ ...receipt, method: 'Tarjeta', received: null, change: null, openDrawer: false }, opts));
    expect(card!.pulses).toBe(0);
    expect(card!.text).not.toContain('Cambio');
    // A line a promotion priced (decision 0028) says so under it.
    const promo = { ...receipt, lines: [{ quantity: 2, name: 'Cerveza clara', amount: 5500, promo: '2x1 en cerveza' }] };
    const [promoTicket] = decodeEscPos(renderDocument(promo, opts));
    expect(promoTicket!.text).toMatch(/2 x Cerveza clara\s+\$55\.00\n\s+PROMO 2x1 en cerveza/);
  });
});
