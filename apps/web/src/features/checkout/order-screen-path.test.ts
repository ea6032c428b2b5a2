import { describe, expect, it } from 'vitest';
import { orderScreenPath } from './order-screen-path.ts';

describe('orderScreenPath', () => {
  it("a table's plain order goes back to the table's order screen", () => {
    expect(orderScreenPath('/waiter', { id: 'o1', tableId: 't1', tabName: null, parentOrderId: null })).toBe('/waiter/order/t1');
  });
  it('a check or bar tab goes back with the same check selected', () => {
    expect(orderScreenPath('/waiter', { id: 'o2', tableId: 't1', tabName: 'Cuenta B', parentOrderId: 'o1' })).toBe(
      '/waiter/order/t1?cuenta=o2',
    );
    expect(orderScreenPath('/admin', { id: 'o1', tableId: 't1', tabName: 'Cuenta A', parentOrderId: null })).toBe(
      '/admin/order/t1?cuenta=o1',
    );
    expect(orderScreenPath('/admin', { id: 'o3', tableId: 'bar', tabName: 'Cuenta de Juan' })).toBe('/admin/order/bar?cuenta=o3');
  });
});
