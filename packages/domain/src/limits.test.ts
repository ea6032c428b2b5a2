import { describe, expect, it } from 'vitest';
import { ORDER_LIMITS, orderLimitError } from './limits.ts';

describe('order limits', () => {
  it('lets an order reach the limits exactly and refuses one centavo or one line more', () => {
    expect(orderLimitError({ lines: 999, subtotal: 0 }, { lines: 1, amount: ORDER_LIMITS.maxOrderAmount })).toBeNull();
    expect(orderLimitError({ lines: 1000, subtotal: 0 }, { lines: 1, amount: 100 })?.reason).toBe('lines');
    const over = orderLimitError({ lines: 3, subtotal: ORDER_LIMITS.maxOrderAmount - 100 }, { lines: 1, amount: 101 });
    expect(over?.reason).toBe('amount');
    expect(over?.message).toBe('La orden no puede pasar de $1,000,000.00 MXN (con este producto quedaría en $1,000,000.01 MXN).');
  });
});
