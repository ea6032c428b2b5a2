import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cents } from './money.ts';
import {
  freeUnits,
  isPromotionActiveAt,
  promotionDiscount,
  promotionFor,
  promotionParts,
  promotionUnitPrice,
  promotionsConflict,
  windowsOverlap,
  type PromotionRule,
} from './promotions.ts';

const MX = 'America/Mexico_City';
const FRIDAY = 5;

function rule(over: Partial<PromotionRule> = {}): PromotionRule {
  return {
    id: 'r1',
    name: 'Happy hour',
    kind: 'percent',
    percentBps: 2000,
    fixedPrice: null,
    buy: null,
    pay: null,
    days: [FRIDAY],
    startMinute: 22 * 60,
    endMinute: 2 * 60,
    productIds: [],
    categories: ['Bebida'],
    active: true,
    createdAt: 1,
    ...over,
  };
}

describe('windows in Mexico City (UTC−6 all year: no daylight saving since 2022)', () => {
  const friday = rule();
  // 2026-11-20 is a Friday; Mexico City is UTC−6, so 22:00 local is 04:00Z the next day.
  it.each([
    ['2026-11-21T03:59:59Z', false, 'Friday 21:59:59'],
    ['2026-11-21T04:00:00Z', true, 'Friday 22:00:00'],
    ['2026-11-21T07:30:00Z', true, 'Saturday 01:30, after midnight, belongs to Friday'],
    ['2026-11-21T07:59:59Z', true, 'Saturday 01:59:59'],
    ['2026-11-21T08:00:00Z', false, 'Saturday 02:00:00, the end is excluded'],
    ['2026-11-22T04:30:00Z', false, 'Saturday 22:30: Saturday is not in the days'],
    ['2026-11-20T07:30:00Z', false, 'Friday 01:30 belongs to Thursday'],
  ])('%s → %s (%s)', (iso, expected) => {
    expect(isPromotionActiveAt(friday, new Date(iso), MX)).toBe(expected);
  });

  it('the same local time in summer and winter (no DST shift in Mexico City)', () => {
    // 22:30 local on a Friday in July and in January: both 04:30Z the next day.
    expect(isPromotionActiveAt(friday, new Date('2026-07-18T04:30:00Z'), MX)).toBe(true);
    expect(isPromotionActiveAt(friday, new Date('2026-01-17T04:30:00Z'), MX)).toBe(true);
    expect(isPromotionActiveAt(friday, new Date('2026-07-18T03:30:00Z'), MX)).toBe(false);
  });

  it('a window within one day, and an inactive rule', () => {
    const afternoon = rule({ days: [1, 2, 3], startMinute: 17 * 60, endMinute: 19 * 60 });
    // Monday 2026-11-23 17:00 local = 23:00Z.
    expect(isPromotionActiveAt(afternoon, new Date('2026-11-23T23:00:00Z'), MX)).toBe(true);
    expect(isPromotionActiveAt(afternoon, new Date('2026-11-24T01:00:00Z'), MX)).toBe(false);
    expect(isPromotionActiveAt({ ...afternoon, active: false }, new Date('2026-11-23T23:00:00Z'), MX)).toBe(false);
  });

  it('start equal to end is the whole day from that minute', () => {
    const allDay = rule({ days: [2], startMinute: 0, endMinute: 0 });
    expect(isPromotionActiveAt(allDay, new Date('2026-11-24T06:00:00Z'), MX)).toBe(true); // Tue 00:00
    expect(isPromotionActiveAt(allDay, new Date('2026-11-25T05:59:59Z'), MX)).toBe(true); // Tue 23:59:59
    expect(isPromotionActiveAt(allDay, new Date('2026-11-25T06:00:00Z'), MX)).toBe(false); // Wed 00:00
  });
});

describe('NxM', () => {
  it('2x1 on odd quantities: every complete pair gives one free', () => {
    expect([1, 2, 3, 4, 5].map((q) => freeUnits(2, 1, q))).toEqual([0, 1, 1, 2, 2]);
    expect(freeUnits(3, 2, 7)).toBe(2);
  });

  it('an add becomes a paid row and a free row, counting what the order already has', () => {
    const twoForOne = rule({ kind: 'nxm', buy: 2, pay: 1, percentBps: null });
    const price = cents(5000);
    expect(promotionParts(twoForOne, price, 3)).toEqual([
      { unitPrice: 5000, quantity: 2 },
      { unitPrice: 0, quantity: 1 },
    ]);
    expect(promotionParts(twoForOne, price, 1)).toEqual([{ unitPrice: 5000, quantity: 1 }]);
    // One already paid at list price: the next one is the free one.
    expect(promotionParts(twoForOne, price, 1, { paid: 1, free: 0 })).toEqual([{ unitPrice: 0, quantity: 1 }]);
  });

  it('whatever the sequence of adds, the order has exactly the free units the total is owed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 5 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }), (buy, adds) => {
        const pay = buy - 1;
        let paid = 0;
        let free = 0;
        for (const q of adds) {
          for (const part of promotionParts(rule({ kind: 'nxm', buy, pay }), cents(1000), q, { paid, free })) {
            if (part.unitPrice === 0) free += part.quantity;
            else paid += part.quantity;
          }
        }
        expect(paid + free).toBe(adds.reduce((a, b) => a + b, 0));
        expect(free).toBe(freeUnits(buy, pay, paid + free));
      }),
    );
  });
});

describe('prices', () => {
  it('percent off rounds to the centavo; fixed never raises the price', () => {
    expect(promotionUnitPrice(rule({ percentBps: 3333 }), cents(4999))).toBe(3333);
    expect(promotionUnitPrice(rule({ kind: 'fixed', fixedPrice: 3000 }), cents(4500))).toBe(3000);
    expect(promotionUnitPrice(rule({ kind: 'fixed', fixedPrice: 6000 }), cents(4500))).toBe(4500);
    expect(promotionUnitPrice(rule({ percentBps: 10000 }), cents(4500))).toBe(0);
  });

  it('the discount of a row is (list − price) × quantity', () => {
    expect(promotionDiscount({ listPrice: cents(5000), productPrice: cents(4000), quantity: 3 })).toBe(3000);
    expect(promotionDiscount({ listPrice: null, productPrice: cents(4000), quantity: 3 })).toBe(0);
  });
});

describe('precedence and conflicts', () => {
  const beer = { id: 'beer', category: 'Bebida' };
  const at = new Date('2026-11-21T05:00:00Z'); // Friday 23:00

  it('a rule naming the product beats one on its category; then the earliest created', () => {
    const byCategory = rule({ id: 'a', createdAt: 1 });
    const byProduct = rule({ id: 'b', createdAt: 2, categories: [], productIds: ['beer'], kind: 'fixed', fixedPrice: 2500 });
    expect(promotionFor([byCategory, byProduct], beer, at, MX)?.id).toBe('b');
    const older = rule({ id: 'z', createdAt: 0 });
    expect(promotionFor([byCategory, older], beer, at, MX)?.id).toBe('z');
    expect(promotionFor([byCategory], { id: 'taco', category: 'Comida' }, at, MX)).toBeNull();
    expect(promotionFor([byCategory], beer, new Date('2026-11-21T03:00:00Z'), MX)).toBeNull();
  });

  it('windows meet across midnight and across the end of the week', () => {
    const fri = rule();
    expect(windowsOverlap(fri, { days: [6], startMinute: 60, endMinute: 180 })).toBe(true); // Sat 01:00
    expect(windowsOverlap(fri, { days: [6], startMinute: 120, endMinute: 180 })).toBe(false); // Sat 02:00 touches
    const sat = { days: [6], startMinute: 23 * 60, endMinute: 60 };
    expect(windowsOverlap(sat, { days: [0], startMinute: 0, endMinute: 30 })).toBe(true);
  });

  it('same product, same category, or a product in the other rule’s category, with meeting windows, conflict', () => {
    const categoryOf = (id: string) => ({ beer: 'Bebida', taco: 'Comida' })[id];
    const conflict = (a: Parameters<typeof rule>[0], b: Parameters<typeof rule>[0]) => promotionsConflict(rule(a), rule(b), categoryOf);
    expect(conflict({}, { startMinute: 23 * 60, endMinute: 23 * 60 + 30 })).toBe(true);
    expect(conflict({}, { categories: ['Comida'] })).toBe(false);
    // A rule on the beer and one on its category: both ways round.
    expect(conflict({}, { categories: [], productIds: ['beer'] })).toBe(true);
    expect(conflict({ categories: [], productIds: ['beer'] }, {})).toBe(true);
    expect(conflict({}, { categories: [], productIds: ['taco'] })).toBe(false);
    expect(conflict({}, { categories: [], productIds: ['beer'], days: [4] })).toBe(false);
    expect(conflict({ productIds: ['beer'] }, { categories: [], productIds: ['beer'], days: [4] })).toBe(false);
    // A product the catalogue no longer has reaches no category.
    expect(conflict({}, { categories: [], productIds: ['gone'] })).toBe(false);
  });
});
