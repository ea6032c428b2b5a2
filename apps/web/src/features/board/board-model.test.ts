import { describe, expect, it } from 'vitest';
import type { BoardItem } from '@comanda/contract';
import { DELIVERED_RETENTION_MS, VOID_BOARD_RETENTION_MS } from '@comanda/domain';
import { BATCH_GAP_MS, categoryCounts, shouldRing, splitColumns, ticketColumns, visibleItems } from './board-model.ts';
import { boardItem } from '../../lib/testing/board-item.ts';

const NOW = 1_750_000_000_000;
/** A pending kitchen line of table 5, created a second before NOW. */
const item = (over: Partial<BoardItem>): BoardItem => boardItem({ createdAt: NOW - 1000, updatedAt: NOW - 1000, ...over });

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

  it("groups an order's items added within a minute of each other into one ticket per station and column", () => {
    const t0 = NOW - 10 * 60_000;
    const a = item({ orderId: 'o9', createdAt: t0 });
    const b = item({ orderId: 'o9', createdAt: t0 + 30_000 });
    const c = item({ orderId: 'o9', createdAt: t0 + 30_000 + BATCH_GAP_MS - 1, station: 'barra', category: 'Bebida' });
    const late = item({ orderId: 'o9', createdAt: t0 + 5 * 60_000 });
    const other = item({ orderId: 'o8', tableNumber: 8, createdAt: t0 + 10_000 });
    const readyB = { ...b, status: 'listo' as const };
    const columns = ticketColumns([a, readyB, c, late, other]);
    // Oldest first: order 9's first batch (cocina), order 8, then the barra line of batch 1, then the late batch.
    expect(columns.pendientes.map((tk) => tk.items.map((i) => i.id))).toEqual([[a.id], [other.id], [c.id], [late.id]]);
    // The ready line keeps its batch: the same ticket key as its pending sibling.
    expect(columns.listos.map((tk) => tk.items.map((i) => i.id))).toEqual([[readyB.id]]);
    expect(columns.listos[0]!.key).toBe(columns.pendientes[0]!.key);
    expect(columns.pendientes[2]!.key).not.toBe(columns.pendientes[0]!.key);
    expect(columns.pendientes[3]!.key.startsWith(`o9:${late.id}`)).toBe(true);
  });

  it('shows a voided line as cancelled for a few minutes after its void, and never counts it as to do', () => {
    const live = item({});
    const voided = item({ cancelled: true, voidReason: 'Error de captura', updatedAt: NOW - VOID_BOARD_RETENTION_MS + 1 });
    const expired = item({ cancelled: true, voidReason: 'Otro', updatedAt: NOW - VOID_BOARD_RETENTION_MS });
    const shown = visibleItems([live, voided, expired], ['cocina'], NOW);
    expect(shown.map((i) => i.id)).toEqual([live.id, voided.id]);
    expect(categoryCounts(shown, ['cocina']).find((c) => c.category === 'Comida')?.count).toBe(1);
  });
});
