import { describe, expect, it } from 'vitest';
import { ORDER_LIMITS } from './limits.ts';
import { isPlainAdd, PLAIN_CASE, type PlainAddFacts, type PlainOrderFacts } from './plain-case.ts';

const waiter = { id: 'w1', role: 'waiter' };
const order: PlainOrderFacts = {
  status: 'activo',
  waiterId: 'w1',
  shareAmount: 0,
  sharedOut: 0,
  discount: 0,
  comp: 0,
  liveCardAttempts: 0,
  payments: 0,
  liveAdjustments: 0,
};
const add: PlainAddFacts = {
  role: 'waiter',
  optionIds: 0,
  product: { available: true, category: 'Comida', price: 4_500, requiredOptions: false, stationPrinters: 1 },
  quantity: 2,
  promotionsActive: false,
  lines: 3,
  subtotal: 9_000,
  raises: false,
};

describe('the plain case of an add', () => {
  it('takes a new line and the raise of a pending one alike', () => {
    expect(isPlainAdd(waiter, order, add)).toBe(true);
    expect(isPlainAdd(waiter, order, { ...add, raises: true })).toBe(true);
  });

  it('a raise adds no line: an order at its most lines may still raise one, not gain one', () => {
    const full = { ...add, lines: ORDER_LIMITS.maxLines };
    expect(isPlainAdd(waiter, order, full)).toBe(false);
    expect(isPlainAdd(waiter, order, { ...full, raises: true })).toBe(true);
    expect(isPlainAdd(waiter, order, { ...full, lines: ORDER_LIMITS.maxLines + 1, raises: true })).toBe(false);
  });

  it('a raise past the order amount hands over like a new line', () => {
    const rich = { ...add, subtotal: ORDER_LIMITS.maxOrderAmount - 1, raises: true };
    expect(isPlainAdd(waiter, order, rich)).toBe(false);
  });
});

describe('the blanks the SQL trims off notes', () => {
  it('are exactly the ones String.prototype.trim takes off', () => {
    const trimmed: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      if (`a${c}`.trim() === 'a') trimmed.push(c);
    }
    expect([...PLAIN_CASE.trimmed].sort()).toEqual(trimmed.sort());
  });
});
