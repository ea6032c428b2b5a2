import { describe, expect, it } from 'vitest';
import type { BoardItem } from './board.ts';
import { patchBoardFromEvent } from './board-live-patch.ts';

const line = (id: string, over: Partial<BoardItem> = {}): BoardItem => ({
  id,
  orderId: 'o1',
  tableId: 't1',
  tableNumber: 1,
  tableName: null,
  waiterName: 'Ana',
  productName: 'Tacos',
  quantity: 1,
  notes: null,
  category: 'Comida',
  station: 'cocina',
  status: 'pendiente',
  createdAt: 10,
  updatedAt: 10,
  ...over,
});
const list = [line('a', { createdAt: 10 }), line('c', { createdAt: 30 })];

describe('patchBoardFromEvent', () => {
  it('reads again without a list or without the change', () => {
    expect(patchBoardFromEvent(undefined, { lines: [], removed: [] }, 'cocina')).toBeNull();
    expect(patchBoardFromEvent(list, undefined, 'cocina')).toBeNull();
  });

  it('inserts a new line by creation time, then id', () => {
    const next = patchBoardFromEvent(list, { lines: [line('b', { createdAt: 20 })], removed: [] }, 'cocina')!;
    expect(next.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    const tie = patchBoardFromEvent(list, { lines: [line('0', { createdAt: 30 })], removed: [] }, 'cocina')!;
    expect(tie.map((i) => i.id)).toEqual(['a', '0', 'c']);
    const last = patchBoardFromEvent(list, { lines: [line('z', { createdAt: 40 })], removed: [] }, 'cocina')!;
    expect(last.map((i) => i.id)).toEqual(['a', 'c', 'z']);
    expect(list.map((i) => i.id)).toEqual(['a', 'c']); // the cached list is never changed in place
  });

  it("replaces a line with the event's newer state and keeps a newer one it already holds", () => {
    const moved = patchBoardFromEvent(list, { lines: [line('a', { status: 'listo', updatedAt: 50 })], removed: [] }, 'cocina')!;
    expect(moved[0]).toMatchObject({ id: 'a', status: 'listo', updatedAt: 50 });
    expect(moved[1]).toBe(list[1]);
    const late = patchBoardFromEvent(moved, { lines: [line('a', { status: 'pendiente', updatedAt: 40 })], removed: [] }, 'cocina');
    expect(late).toBe(moved);
  });

  it('drops removed lines and ignores ids it does not hold', () => {
    expect(patchBoardFromEvent(list, { lines: [], removed: ['a'] }, 'cocina')!.map((i) => i.id)).toEqual(['c']);
    expect(patchBoardFromEvent(list, { lines: [], removed: ['x'] }, 'cocina')).toBe(list);
  });

  it("leaves out another station's lines, and keeps every station on the board of both", () => {
    const beer = line('b', { station: 'barra', category: 'Cerveza', createdAt: 20 });
    expect(patchBoardFromEvent(list, { lines: [beer], removed: [] }, 'cocina')).toBe(list);
    expect(patchBoardFromEvent(list, { lines: [beer], removed: [] }, 'all')!.map((i) => i.id)).toEqual(['a', 'b', 'c']);
  });
});
