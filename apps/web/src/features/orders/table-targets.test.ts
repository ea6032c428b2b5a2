import { describe, expect, it } from 'vitest';
import type { Table } from '@comanda/contract';
import { chosenLines, serviceTargets } from './table-targets.ts';

const table = (number: number, over: Partial<Table> = {}): Table => ({
  id: `t${number}`,
  number,
  status: 'libre',
  waiterId: null,
  waiterName: null,
  currentOrderId: null,
  updatedAt: 0,
  order: null,
  ...over,
});

describe('serviceTargets', () => {
  const tables = [
    table(3),
    table(1, { status: 'ocupada', waiterId: 'w1', currentOrderId: 'o1' }),
    table(2, { status: 'ocupada', waiterId: 'w2', currentOrderId: null }),
    table(4, { status: 'ocupada', waiterId: 'w1', currentOrderId: 'o4' }),
    table(0),
  ];

  it('offers a waiter the free tables and their own occupied ones, never the order’s own table', () => {
    const t = serviceTargets(tables, { tableId: 't4' }, { id: 'w1', role: 'waiter' });
    expect(t.free.map((x) => x.number)).toEqual([3, 0]);
    expect(t.workable.map((x) => x.number)).toEqual([1]);
    expect(t.either.map((x) => x.number)).toEqual([0, 1, 3]);
  });

  it('offers an admin every occupied table with an order', () => {
    const withOrder = tables.map((x) => (x.number === 2 ? { ...x, currentOrderId: 'o2' } : x));
    const t = serviceTargets(withOrder, { tableId: 't4' }, { id: 'a', role: 'admin' });
    expect(t.workable.map((x) => x.number)).toEqual([1, 2]);
  });

  it('offers no occupied table before the session is known', () => {
    expect(serviceTargets(tables, { tableId: 't3' }, null).workable).toEqual([]);
  });
});

describe('chosenLines', () => {
  it('keeps only lines with units chosen', () => {
    expect(chosenLines({ a: 2, b: 0, c: 1 })).toEqual([
      { itemId: 'a', quantity: 2 },
      { itemId: 'c', quantity: 1 },
    ]);
  });
});
