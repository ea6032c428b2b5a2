import { describe, expect, it } from 'vitest';
import type { BoardItem } from '@comanda/contract';
import { DELIVERED_RETENTION_MS } from '@comanda/domain';
import { categoryCounts, shouldRing, splitColumns, visibleItems } from './board-model.ts';

const NOW = 1_750_000_000_000;
let seq = 0;
function item(over: Partial<BoardItem>): BoardItem {
  seq += 1;
  return {
    id: `i${seq}`,
    orderId: 'o1',
    tableId: 't1',
    tableNumber: 5,
    tableName: null,
    waiterName: 'Mario',
    productName: 'Tacos',
    quantity: 1,
    notes: null,
    category: 'Comida',
    station: 'cocina',
    status: 'pendiente',
    createdAt: NOW - 1000,
    updatedAt: NOW - 1000,
    ...over,
  };
}

describe('board model', () => {
  it('keeps the stations asked for, oldest first, and delivered items only for 30 minutes', () => {
    const newer = item({ createdAt: NOW - 10 });
    const older = item({ createdAt: NOW - 5000 });
    const bar = item({ station: 'barra', category: 'Bebida' });
    const freshDelivered = item({ status: 'entregado', updatedAt: NOW - DELIVERED_RETENTION_MS + 1 });
    const oldDelivered = item({ status: 'entregado', updatedAt: NOW - DELIVERED_RETENTION_MS });
    const shown = visibleItems([newer, older, bar, freshDelivered, oldDelivered], ['cocina'], NOW);
    expect(shown.map((i) => i.id)).toEqual([older.id, freshDelivered.id, newer.id]);
  });

  it('puts en_preparacion with the pending items', () => {
    const cols = splitColumns([
      item({ status: 'en_preparacion' }),
      item({ status: 'listo' }),
      item({ status: 'entregado', updatedAt: NOW }),
    ]);
    expect([cols.pendientes.length, cols.listos.length, cols.entregados.length]).toEqual([1, 1, 1]);
  });

  it('counts undelivered items per category of the stations, zeros included', () => {
    const counts = categoryCounts(
      [item({}), item({ status: 'listo' }), item({ category: 'Postre', status: 'entregado' }), item({ category: 'Antojitos' })],
      ['cocina'],
    );
    expect(counts).toEqual([
      { category: 'Entrada', count: 0 },
      { category: 'Comida', count: 2 },
      { category: 'Postre', count: 0 },
      { category: 'Antojitos', count: 1 },
    ]);
  });

  it('rings only when pending rises on the same board after the first load', () => {
    expect(shouldRing(null, { board: 'cocina', pending: 3 })).toBe(false);
    expect(shouldRing({ board: 'cocina', pending: 3 }, { board: 'cocina', pending: 3 })).toBe(false);
    expect(shouldRing({ board: 'cocina', pending: 3 }, { board: 'cocina', pending: 2 })).toBe(false);
    expect(shouldRing({ board: 'cocina', pending: 3 }, { board: 'cocina', pending: 4 })).toBe(true);
    expect(shouldRing({ board: 'cocina', pending: 0 }, { board: 'barra', pending: 4 })).toBe(false);
  });
});
