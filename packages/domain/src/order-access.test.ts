import { describe, expect, it } from 'vitest';
import { mayWorkEveryOrder, mayWorkOrder, takesOrders } from './order-access.ts';

describe('who works which order', () => {
  it('an admin every order, a waiter their own, kitchen and bar none', () => {
    const order = 'w1';
    expect(mayWorkOrder({ id: 'a', role: 'admin' }, order)).toBe(true);
    expect(mayWorkOrder({ id: 'a', role: 'admin' }, null)).toBe(true);
    expect(mayWorkOrder({ id: 'w1', role: 'waiter' }, order)).toBe(true);
    expect(mayWorkOrder({ id: 'w2', role: 'waiter' }, order)).toBe(false);
    expect(mayWorkOrder({ id: 'w1', role: 'waiter' }, null)).toBe(false);
    expect(mayWorkOrder({ id: 'w1', role: 'kitchen' }, order)).toBe(false);
    expect(mayWorkOrder({ id: 'w1', role: 'barra' }, order)).toBe(false);
  });

  it('tells who takes orders and who works every one', () => {
    expect(['admin', 'waiter', 'kitchen', 'barra', null].map(takesOrders)).toEqual([true, true, false, false, false]);
    expect(['admin', 'waiter', 'kitchen', 'barra', undefined].map(mayWorkEveryOrder)).toEqual([true, false, false, false, false]);
  });
});
