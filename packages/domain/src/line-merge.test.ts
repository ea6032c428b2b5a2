import { describe, expect, it } from 'vitest';
import { ORDER_LIMITS } from './limits.ts';
import { mayRaisePendingLine, pendingLineFor, type MergeableLine } from './line-merge.ts';

const line = (over: Partial<MergeableLine & { id: string; createdAt: number }> = {}) => ({
  id: 'a',
  productId: 'tacos',
  status: 'pendiente',
  isDeleted: false,
  quantity: 1,
  unitPrice: 9_500,
  notes: null,
  modifiers: null,
  promotionId: null,
  adjusted: false,
  createdAt: 1,
  ...over,
});
const add = { productId: 'tacos', quantity: 2, unitPrice: 9_500, notes: null, modifiers: null, promotionsActive: false };

describe('units added onto a pending line', () => {
  it('the same product, notes, options and price on a pending line: raised', () => {
    expect(mayRaisePendingLine(line(), add)).toBe(true);
    expect(mayRaisePendingLine(line({ notes: 'sin cebolla' }), { ...add, notes: '  sin cebolla ' })).toBe(true);
    expect(mayRaisePendingLine(line({ notes: '' }), add)).toBe(true);
  });

  it('a line the kitchen started, a deleted one, or any difference: a new line', () => {
    for (const status of ['en_preparacion', 'listo', 'entregado']) expect(mayRaisePendingLine(line({ status }), add)).toBe(false);
    expect(mayRaisePendingLine(line({ isDeleted: true }), add)).toBe(false);
    expect(mayRaisePendingLine(line({ productId: 'flan' }), add)).toBe(false);
    expect(mayRaisePendingLine(line({ notes: 'sin cebolla' }), add)).toBe(false);
    expect(mayRaisePendingLine(line({ modifiers: '[{"optionName":"Michelada"}]' }), add)).toBe(false);
    expect(mayRaisePendingLine(line({ unitPrice: 9_000 }), add)).toBe(false);
    expect(mayRaisePendingLine(line({ promotionId: 'p' }), add)).toBe(false);
    expect(mayRaisePendingLine(line({ adjusted: true }), add)).toBe(false);
    expect(mayRaisePendingLine(line(), { ...add, promotionsActive: true })).toBe(false);
    expect(mayRaisePendingLine(line({ quantity: ORDER_LIMITS.maxLineQuantity - 1 }), add)).toBe(false);
    expect(mayRaisePendingLine(line({ quantity: ORDER_LIMITS.maxLineQuantity - 2 }), add)).toBe(true);
  });

  it('takes the newest pending line that may take the units', () => {
    const lines = [line({ createdAt: 1 }), line({ createdAt: 3, status: 'listo' }), line({ createdAt: 2 })];
    expect(pendingLineFor(lines, add)?.createdAt).toBe(2);
    expect(pendingLineFor([line({ status: 'listo' })], add)).toBeNull();
  });

  it('of two made in the same millisecond, the greater id, in whatever order they were read', () => {
    const older = line({ id: '0193a000-0000-7000-8000-000000000009', createdAt: 5 });
    const newer = line({ id: '0193a000-0000-7000-8000-000000000015', createdAt: 5 });
    expect(pendingLineFor([older, newer], add)?.id).toBe(newer.id);
    expect(pendingLineFor([newer, older], add)?.id).toBe(newer.id);
    expect(pendingLineFor([newer, line({ id: 'z', createdAt: 4 })], add)?.id).toBe(newer.id);
  });
});
