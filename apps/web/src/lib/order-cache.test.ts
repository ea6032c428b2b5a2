import { cents, ZERO } from '@comanda/domain';
import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Order, OrderChange, OrderItem } from '@comanda/contract';
import { orderAfterWrite, patchCachedOrders, storeOrderAnswer } from './order-cache.ts';

const item = (id: string, createdAt: number, fields: Partial<OrderItem> = {}): OrderItem => ({
  id,
  productId: 'p1',
  productName: 'Cerveza clara',
  productPrice: cents(5500),
  quantity: 1,
  status: 'pendiente',
  category: 'Bebida',
  station: 'barra',
  notes: null,
  modifiers: [],
  isDeleted: false,
  deletedBy: null,
  deletedByName: null,
  deletedAt: null,
  createdAt,
  updatedAt: createdAt,
  ...fields,
});

const order = (version: number, items: OrderItem[]): Order => ({
  id: 'o1',
  tableId: 't1',
  tableNumber: 1,
  tableName: null,
  waiterId: 'w1',
  waiterName: 'Ana',
  items,
  status: 'activo',
  paymentMethod: null,
  peopleCount: 2,
  adminComments: null,
  subtotal: cents(items.filter((i) => !i.isDeleted).reduce((s, i) => s + i.productPrice * i.quantity, 0)),
  discount: ZERO,
  comp: ZERO,
  shareAmount: ZERO,
  sharedOut: ZERO,
  adjustments: [],
  tip: ZERO,
  total: ZERO,
  tax: null,
  payments: [],
  folio: null,
  balance: ZERO,
  version,
  createdAt: 1,
  updatedAt: version,
  completedAt: null,
});

const changeOf = (next: Order, items: OrderItem[]): OrderChange => {
  const { items: _all, ...header } = next;
  return { order: header, items };
};

describe('patching the cached order with an item write’s light answer', () => {
  const a = item('a', 10);
  const b = item('b', 20);

  it('appends a new row and takes the new header when the copy is one version behind', () => {
    const after = order(3, [a, b]);
    expect(orderAfterWrite(order(2, [a]), { change: changeOf(after, [b]) })).toEqual(after);
  });

  it('replaces a changed row in place (a delete comes back flagged)', () => {
    const gone = { ...a, isDeleted: true, deletedAt: 30, updatedAt: 30 };
    const after = order(4, [gone, b]);
    expect(orderAfterWrite(order(3, [a, b]), { change: changeOf(after, [gone]) })).toEqual(after);
  });

  it('keeps a copy already as new, and refuses to guess across a missed version', () => {
    const current = order(5, [a, b]);
    expect(orderAfterWrite(current, { change: changeOf(order(5, [a, b]), [b]) })).toBe(current);
    expect(orderAfterWrite(order(1, [a]), { change: changeOf(order(3, [a, b]), [b]) })).toBeUndefined();
    expect(orderAfterWrite(undefined, { change: changeOf(order(3, [a, b]), [b]) })).toBeUndefined();
  });

  it('stores a whole-order answer as before', () => {
    const whole = order(7, [a, b]);
    expect(orderAfterWrite(order(2, [a]), { order: whole })).toBe(whole);
  });

  it('marks the cache stale when it cannot patch, and patches every copy of the order under a table', () => {
    const qc = new QueryClient();
    qc.setQueryData(['table-order', 't1'], order(1, [a]));
    expect(storeOrderAnswer(qc, ['table-order', 't1'], { change: changeOf(order(3, [a, b]), [b]) })).toBe(false);
    expect(qc.getQueryState(['table-order', 't1'])?.isInvalidated).toBe(true);

    qc.setQueryData(['table-order', 't1'], order(2, [a]));
    qc.setQueryData(['table-order', 't1', 'o1'], order(2, [a]));
    expect(patchCachedOrders(qc, ['table-order', 't1'], { change: changeOf(order(3, [a, b]), [b]) })).toBe(true);
    expect(qc.getQueryData<Order>(['table-order', 't1'])?.items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(qc.getQueryData<Order>(['table-order', 't1', 'o1'])?.version).toBe(3);
    expect(patchCachedOrders(qc, ['table-order', 't1'], { order: order(4, [a]) })).toBe(false);
  });
});
