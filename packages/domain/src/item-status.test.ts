import { describe, it, expect } from 'vitest';
import type { ItemStatus } from './item-status.ts';
import {
  BOARD_STATUSES,
  DELIVERED_RETENTION_MS,
  ITEM_STATUSES,
  ITEM_STATUS_LABELS,
  boardColumn,
  compareByCreatedAt,
  isItemStatus,
  isShownOnBoard,
  nextBoardStatus,
  panelStatusOptions,
  progressPercent,
} from './item-status.ts';

describe('item statuses', () => {
  it('lists all statuses and the board subset', () => {
    expect(ITEM_STATUSES).toEqual(['pendiente', 'en_preparacion', 'listo', 'entregado']);
    expect(BOARD_STATUSES).toEqual(['pendiente', 'listo', 'entregado']);
    expect(ITEM_STATUS_LABELS).toEqual({
      pendiente: 'Pendiente',
      en_preparacion: 'En preparación',
      listo: 'Listo',
      entregado: 'Entregado',
    });
    expect(isItemStatus('listo')).toBe(true);
    expect(isItemStatus('pagado')).toBe(false);
    expect(isItemStatus(3)).toBe(false);
  });

  it.each<[ItemStatus, ItemStatus | null, 33 | 67 | 100, string]>([
    ['pendiente', 'listo', 33, 'pendientes'],
    ['en_preparacion', 'listo', 33, 'pendientes'],
    ['listo', 'entregado', 67, 'listos'],
    ['entregado', null, 100, 'entregados'],
  ])('%s → next %s, %d %%, column %s', (status, next, percent, column) => {
    expect(nextBoardStatus(status)).toBe(next);
    expect(progressPercent(status)).toBe(percent);
    expect(boardColumn(status)).toBe(column);
  });

  it('offers every board status except the current one, backwards included', () => {
    expect(panelStatusOptions('pendiente')).toEqual(['listo', 'entregado']);
    expect(panelStatusOptions('listo')).toEqual(['pendiente', 'entregado']);
    expect(panelStatusOptions('entregado')).toEqual(['pendiente', 'listo']);
    expect(panelStatusOptions('en_preparacion')).toEqual(['pendiente', 'listo', 'entregado']);
  });
});

describe('isShownOnBoard', () => {
  const now = new Date('2025-03-01T02:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('keeps the 30-minute constant', () => {
    expect(DELIVERED_RETENTION_MS).toBe(1_800_000);
  });

  it('always shows items still in progress', () => {
    for (const status of ['pendiente', 'en_preparacion', 'listo'] as const) {
      expect(isShownOnBoard({ status, updatedAt: ago(5 * 3_600_000) }, now)).toBe(true);
    }
  });

  it('shows delivered items for 30 minutes after their last update', () => {
    const delivered = (ms: number) => ({ status: 'entregado' as const, updatedAt: ago(ms) });
    expect(isShownOnBoard(delivered(0), now)).toBe(true);
    expect(isShownOnBoard(delivered(DELIVERED_RETENTION_MS - 1), now)).toBe(true);
    expect(isShownOnBoard(delivered(DELIVERED_RETENTION_MS), now)).toBe(false);
    expect(isShownOnBoard(delivered(DELIVERED_RETENTION_MS + 60_000), now)).toBe(false);
  });

  it('shows a delivered item stamped slightly in the future (clock skew)', () => {
    expect(isShownOnBoard({ status: 'entregado', updatedAt: ago(-60_000) }, now)).toBe(true);
  });

  it('hides deleted items', () => {
    expect(isShownOnBoard({ status: 'pendiente', updatedAt: now, isDeleted: true }, now)).toBe(false);
  });

  it('sorts oldest first', () => {
    const a = { createdAt: ago(1000) };
    const b = { createdAt: ago(5000) };
    expect([a, b].sort(compareByCreatedAt)).toEqual([b, a]);
  });
});
