import { describe, expect, it } from 'vitest';
import { cents } from './money.ts';
import { chargeFigures, checkoutGate } from './checkout.ts';
import { mayMoveStationItems } from './stations.ts';

const item = (status: 'pendiente' | 'entregado', price: number, isDeleted = false) => ({
  isDeleted,
  status,
  productPrice: price,
  quantity: 2,
});

describe('checkoutGate', () => {
  it('opens only when every non-deleted item is delivered, with the subtotal of those items', () => {
    expect(checkoutGate([item('entregado', 100_00), item('pendiente', 50_00, true)])).toEqual({ ok: true, subtotal: 200_00 });
    expect(checkoutGate([item('entregado', 100_00), item('pendiente', 50_00)])).toMatchObject({ ok: false, reason: 'undelivered' });
    expect(checkoutGate([item('entregado', 100_00, true)])).toMatchObject({ ok: false, reason: 'empty' });
  });

  it('lets a charge already taken through an undelivered item, never through an empty order', () => {
    expect(checkoutGate([item('pendiente', 10_00)], { allowUndelivered: true })).toEqual({ ok: true, subtotal: 20_00 });
    expect(checkoutGate([], { allowUndelivered: true })).toMatchObject({ ok: false, reason: 'empty' });
  });
});

describe('chargeFigures', () => {
  it('clamps the rate once and rounds the tip to the centavo', () => {
    expect(chargeFigures(cents(99_99), { bps: 1500 })).toEqual({ tipBps: 1500, tip: 15_00, total: 114_99 });
    expect(chargeFigures(cents(100_00), { bps: 25_000 })).toEqual({ tipBps: 10_000, tip: 100_00, total: 200_00 });
    expect(chargeFigures(cents(100_00), { bps: -5 })).toEqual({ tipBps: 0, tip: 0, total: 100_00 });
  });

  it('takes a card charge as the total, the tip being what it holds beyond the part', () => {
    expect(chargeFigures(cents(200_00), { bps: 1000, chargedTotal: 230_00 })).toEqual({ tipBps: 1000, tip: 30_00, total: 230_00 });
  });

  it('gives a tip typed as an amount its rate on the part', () => {
    expect(chargeFigures(cents(80_00), { amount: 12_00.7 })).toEqual({ tipBps: 1500, tip: 12_00, total: 92_00 });
  });
});

describe('mayMoveStationItems', () => {
  it('lets kitchen staff move kitchen items, bar staff bar items, an admin both, a waiter none', () => {
    expect(mayMoveStationItems('kitchen', 'cocina')).toBe(true);
    expect(mayMoveStationItems('kitchen', 'barra')).toBe(false);
    expect(mayMoveStationItems('barra', 'barra')).toBe(true);
    expect(mayMoveStationItems('barra', 'cocina')).toBe(false);
    expect(mayMoveStationItems('admin', 'cocina') && mayMoveStationItems('admin', 'barra')).toBe(true);
    expect(mayMoveStationItems('waiter', 'cocina')).toBe(false);
    expect(mayMoveStationItems(undefined, 'cocina')).toBe(false);
  });
});
