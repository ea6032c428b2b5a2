import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ITEM_STATUSES } from './item-status.ts';
import type { ItemStatus } from './item-status.ts';
import { cents } from './money.ts';
import { activeItems, distinctProducts, itemQuantity, lastActiveItem, lineTotal, orderSubtotal, quantityByStatus } from './order-math.ts';

function item(productId: string, price: number, quantity: number, extra: { isDeleted?: boolean; status?: ItemStatus; name?: string } = {}) {
  return {
    productId,
    productPrice: cents(price),
    quantity,
    isDeleted: extra.isDeleted ?? false,
    status: extra.status ?? 'pendiente',
    productName: extra.name ?? productId,
  };
}

const items = [
  item('cerveza', 4500, 3, { status: 'entregado' }),
  item('tacos', 12000, 1, { status: 'listo' }),
  item('cerveza', 4500, 2, { status: 'pendiente' }),
  item('mezcal', 9000, 4, { isDeleted: true, status: 'entregado' }),
  item('agua', 2500, 1, { status: 'en_preparacion', name: 'Agua mineral' }),
];

describe('order math', () => {
  it('drops deleted items and keeps the caller’s extra fields', () => {
    const active = activeItems(items);
    expect(active).toHaveLength(4);
    expect(active.map((i) => i.productName)).not.toContain('mezcal');
  });

  it('subtotal is price × quantity of non-deleted items', () => {
    expect(lineTotal(items[0]!)).toBe(13500);
    expect(orderSubtotal(items)).toBe(13500 + 12000 + 9000 + 2500);
    expect(orderSubtotal([])).toBe(0);
    expect(orderSubtotal([item('x', 100, 1, { isDeleted: true })])).toBe(0);
  });

  it('counts units and distinct products among non-deleted items', () => {
    expect(itemQuantity(items)).toBe(3 + 1 + 2 + 1);
    expect(distinctProducts(items)).toBe(3); // mezcal was deleted, cerveza counted once
    expect(itemQuantity([])).toBe(0);
  });

  it('counts quantities by status with every status present', () => {
    expect(quantityByStatus(items)).toEqual({
      pendiente: 2,
      en_preparacion: 1,
      listo: 1,
      entregado: 3,
    });
    expect(quantityByStatus([])).toEqual({
      pendiente: 0,
      en_preparacion: 0,
      listo: 0,
      entregado: 0,
    });
  });

  it('ignores statuses it does not know, even prototype names', () => {
    const stray = { ...item('x', 100, 5), status: 'toString' as ItemStatus };
    expect(quantityByStatus([stray])).toEqual({
      pendiente: 0,
      en_preparacion: 0,
      listo: 0,
      entregado: 0,
    });
  });

  it('finds the last non-deleted item', () => {
    expect(lastActiveItem(items)?.productName).toBe('Agua mineral');
    expect(lastActiveItem([item('x', 1, 1, { isDeleted: true })])).toBeNull();
  });
});

describe('order math properties', () => {
  const arbItem = fc.record({
    productId: fc.constantFrom('a', 'b', 'c', 'd'),
    productPrice: fc.integer({ min: 0, max: 1_000_000 }).map((n) => cents(n)),
    quantity: fc.integer({ min: 1, max: 999 }),
    isDeleted: fc.boolean(),
    status: fc.constantFrom(...ITEM_STATUSES),
  });

  it('subtotal equals the sum of non-deleted lines, whatever the deleted ones hold', () => {
    fc.assert(
      fc.property(fc.array(arbItem, { maxLength: 40 }), (list) => {
        const expected = list.filter((i) => !i.isDeleted).reduce((sum, i) => sum + i.productPrice * i.quantity, 0);
        expect(orderSubtotal(list)).toBe(expected);
        const withoutDeleted = list.filter((i) => !i.isDeleted);
        expect(orderSubtotal(withoutDeleted)).toBe(orderSubtotal(list));
      }),
    );
  });

  it('status counts add up to the item quantity', () => {
    fc.assert(
      fc.property(fc.array(arbItem, { maxLength: 40 }), (list) => {
        const byStatus = quantityByStatus(list);
        const sum = Object.values(byStatus).reduce((a, b) => a + b, 0);
        expect(sum).toBe(itemQuantity(list));
      }),
    );
  });
});
