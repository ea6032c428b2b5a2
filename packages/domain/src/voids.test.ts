import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_VOID_REASONS,
  VOID_BOARD_RETENTION_MS,
  deliverableIds,
  isVoidShownOnBoard,
  mayDeliver,
  normalizeVoidReasons,
  splitVoid,
  voidNeedsAdminPin,
} from './voids.ts';

describe('voids', () => {
  it('needs an admin PIN only once the station prepared the item', () => {
    expect(voidNeedsAdminPin('pendiente')).toBe(false);
    expect(voidNeedsAdminPin('en_preparacion')).toBe(false);
    expect(voidNeedsAdminPin('listo')).toBe(true);
    expect(voidNeedsAdminPin('entregado')).toBe(true);
  });

  it('splits a line into voided and remaining units, refusing impossible counts', () => {
    expect(splitVoid(3, 1)).toEqual({ voided: 1, remaining: 2 });
    expect(splitVoid(3, 3)).toEqual({ voided: 3, remaining: 0 });
    for (const [q, u] of [
      [3, 0],
      [3, 4],
      [3, -1],
      [3, 1.5],
      [0, 1],
      [3, Number.NaN],
    ] as const)
      expect(splitVoid(q, u)).toBeNull();
  });

  it('conserves units: voided + remaining = quantity', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999 }), fc.integer({ min: -5, max: 1200 }), (quantity, units) => {
        const split = splitVoid(quantity, units);
        if (split) expect(split.voided + split.remaining).toBe(quantity);
        else expect(units < 1 || units > quantity).toBe(true);
      }),
    );
  });

  it('delivers only listo items, and "Entregar todo lo listo" picks the live listo ones', () => {
    expect(mayDeliver('listo')).toBe(true);
    expect(mayDeliver('pendiente')).toBe(false);
    expect(mayDeliver('en_preparacion')).toBe(false);
    expect(mayDeliver('entregado')).toBe(false);
    expect(
      deliverableIds([
        { id: 'a', status: 'listo', isDeleted: false },
        { id: 'b', status: 'listo', isDeleted: true },
        { id: 'c', status: 'pendiente', isDeleted: false },
        { id: 'd', status: 'listo', isDeleted: false },
      ]),
    ).toEqual(['a', 'd']);
  });

  it('shows a void on the boards for five minutes, never an already delivered one', () => {
    expect(isVoidShownOnBoard({ status: 'pendiente', deletedAt: 1000 }, 1000 + VOID_BOARD_RETENTION_MS - 1)).toBe(true);
    expect(isVoidShownOnBoard({ status: 'listo', deletedAt: 1000 }, 1000 + VOID_BOARD_RETENTION_MS)).toBe(false);
    expect(isVoidShownOnBoard({ status: 'entregado', deletedAt: 1000 }, 1001)).toBe(false);
    expect(isVoidShownOnBoard({ status: 'pendiente', deletedAt: null }, 1001)).toBe(false);
  });

  it('cleans the admin reason list', () => {
    expect(normalizeVoidReasons([' Error  de captura ', '', 'Otro'])).toEqual({ reasons: ['Error de captura', 'Otro'] });
    expect(normalizeVoidReasons(['  '])).toHaveProperty('error');
    expect(normalizeVoidReasons(['Otro', 'otro'])).toHaveProperty('error');
    expect(normalizeVoidReasons(DEFAULT_VOID_REASONS)).toEqual({ reasons: [...DEFAULT_VOID_REASONS] });
  });
});
