import { cents } from '@comanda/domain';
import { describe, expect, it } from 'vitest';
import type { ModifierGroup, Product } from '@comanda/contract';
import {
  filterPickerProducts,
  settleEntry,
  tapProduct,
  topSellerProducts,
  unitsInRound,
  untapProduct,
  type RoundEntry,
} from './picker-model.ts';
import { hasOptions, offersOptions } from './has-options.ts';

const product = (name: string, category = 'Bebida', description = ''): Product => ({
  id: name.toLowerCase().replace(/\W+/g, '-'),
  name,
  description,
  price: cents(5_000),
  category,
  imageUrl: null,
  available: true,
  createdAt: 0,
  updatedAt: 0,
});

const menu = [product('Piña colada'), product('Café de olla', 'Postre'), product('Tacos al pastor (3)', 'Comida', 'Con piña y cebolla')];

describe('picker search', () => {
  it("ignores accents and case: 'pina' finds 'Piña colada', 'CAFE' finds 'Café'", () => {
    expect(filterPickerProducts(menu, 'pina', null).map((p) => p.name)).toEqual(['Piña colada', 'Tacos al pastor (3)']);
    expect(filterPickerProducts(menu, 'CAFE', null).map((p) => p.name)).toEqual(['Café de olla']);
    // A search looks in every category, whatever chip is selected; the chip alone still filters.
    expect(filterPickerProducts(menu, 'piña', 'Bebida').map((p) => p.name)).toEqual(['Piña colada', 'Tacos al pastor (3)']);
    expect(filterPickerProducts(menu, '', 'Postre').map((p) => p.name)).toEqual(['Café de olla']);
    expect(filterPickerProducts(menu, '', null).map((p) => p.name)).toEqual(['Café de olla', 'Piña colada', 'Tacos al pastor (3)']);
  });

  it('lists top sellers in the served order, skipping products no longer listed', () => {
    expect(topSellerProducts(menu, [menu[2]!.id, 'gone', menu[0]!.id]).map((p) => p.name)).toEqual(['Tacos al pastor (3)', 'Piña colada']);
    expect(topSellerProducts(menu, undefined)).toEqual([]);
  });
});

describe('Esta ronda', () => {
  const beer = { id: 'beer', name: 'Cerveza clara', price: cents(5_500) };
  it('three taps make one waiting line of 3; a sent line is never merged into', () => {
    let round: RoundEntry[] = [];
    round = tapProduct(round, beer, 'a');
    round = tapProduct(round, beer, 'b');
    round = tapProduct(round, beer, 'c');
    expect(round).toHaveLength(1);
    expect(round[0]).toMatchObject({ key: 'a', quantity: 3, state: 'waiting' });
    round = round.map((e) => ({ ...e, state: 'sent' as const, itemId: 'item-1' }));
    round = tapProduct(round, beer, 'd');
    expect(round.map((e) => [e.key, e.quantity, e.state])).toEqual([
      ['a', 3, 'sent'],
      ['d', 1, 'waiting'],
    ]);
    expect(unitsInRound(round, 'beer')).toBe(4);
  });

  it('takes taps back only from a waiting line', () => {
    let round = tapProduct(tapProduct([], beer, 'a'), beer, 'b');
    round = untapProduct(round, 'a');
    expect(round[0]!.quantity).toBe(1);
    expect(untapProduct(round, 'a')).toEqual([]);
    const sent = round.map((e) => ({ ...e, state: 'sent' as const }));
    expect(untapProduct(sent, 'a')).toEqual(sent);
  });
});

describe('hasOptions', () => {
  const group = (over: Partial<ModifierGroup>): ModifierGroup => ({
    id: 'g',
    name: 'Término',
    minSelect: 1,
    maxSelect: 1,
    position: 0,
    options: [],
    productIds: [],
    categories: [],
    createdAt: 0,
    updatedAt: 0,
    ...over,
  });
  it('asks for a step only when a group applying to the product must be answered', () => {
    const p = menu[0]!;
    expect(hasOptions(p, [])).toBe(false);
    expect(hasOptions(p, [group({ productIds: [p.id] })])).toBe(true);
    expect(hasOptions(p, [group({ categories: [p.category] })])).toBe(true);
    // Optional groups only ('Sin', 'Preparación' 0–1): one tap, plain; the row's Nota step offers them.
    expect(hasOptions(p, [group({ productIds: [p.id], minSelect: 0, maxSelect: null })])).toBe(false);
    expect(offersOptions(p, [group({ productIds: [p.id], minSelect: 0, maxSelect: null })])).toBe(true);
    expect(hasOptions(p, [group({ productIds: ['other'] })])).toBe(false);
  });
});

describe('settling a sent line', () => {
  const beer = product('Cerveza clara');
  const entry = (key: string, quantity: number, state: RoundEntry['state'], itemId: string | null = null): RoundEntry => ({
    key,
    productId: beer.id,
    productName: beer.name,
    price: beer.price,
    quantity,
    notes: null,
    state,
    itemId,
  });

  it('joins the units to the entry whose line the server raised, so the round shows one line of 3', () => {
    const round = [entry('a', 1, 'sent', 'item-1'), entry('b', 2, 'sending')];
    expect(settleEntry(round, 'b', { itemId: 'item-1', queued: false })).toEqual([entry('a', 3, 'sent', 'item-1')]);
  });

  it('keeps a new line, a queued pick and an undone twin as entries of their own', () => {
    const round = [entry('a', 1, 'undone', 'item-1'), entry('b', 2, 'sending')];
    expect(settleEntry(round, 'b', { itemId: 'item-1', queued: false })).toEqual([
      entry('a', 1, 'undone', 'item-1'),
      entry('b', 2, 'sent', 'item-1'),
    ]);
    expect(settleEntry([entry('b', 2, 'sending')], 'b', { itemId: 'item-2', queued: false })).toEqual([entry('b', 2, 'sent', 'item-2')]);
    expect(settleEntry([entry('b', 2, 'sending')], 'b', { itemId: null, queued: true })).toEqual([entry('b', 2, 'queued')]);
  });
});
