import { describe, expect, it } from 'vitest';
import type { TableOrderSummary } from '@comanda/contract';
import { cents } from '@comanda/domain';
import { tableTotal } from './table-total.ts';

const summary = (id: string, subtotal: number, total?: number): TableOrderSummary => ({
  id,
  tableName: null,
  waiterName: 'Ana',
  status: 'activo',
  itemCount: 1,
  lastItemName: null,
  subtotal: cents(subtotal),
  createdAt: 0,
  canCharge: true,
  version: 1,
  cardReviews: 0,
  ...(total === undefined ? {} : { total: cents(total) }),
});

describe('tableTotal', () => {
  it('adds every open check of the table, each at what it owes', () => {
    // $290.00 split in 3 equal checks: A keeps the items (subtotal 290) but owes 96.67.
    expect(tableTotal({ order: summary('a', 290_00, 96_67), extraOrders: [summary('b', 0, 96_67), summary('c', 0, 96_66)] })).toEqual({
      total: 290_00,
      checks: 3,
    });
  });
  it('one order: its amount; an older server without totals: the subtotals; no order: nothing', () => {
    expect(tableTotal({ order: summary('a', 150_00, 140_00) })).toEqual({ total: 140_00, checks: 1 });
    expect(tableTotal({ order: summary('a', 150_00), extraOrders: [summary('b', 50_00)] })).toEqual({ total: 200_00, checks: 2 });
    expect(tableTotal({ order: null })).toEqual({ total: 0, checks: 0 });
  });
});
