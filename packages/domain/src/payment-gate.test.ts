import { describe, it, expect } from 'vitest';
import type { ItemStatus } from './item-status.ts';
import { PAYMENT_GATE_MESSAGES, canCharge, paymentGate } from './payment-gate.ts';

const line = (status: ItemStatus, isDeleted = false) => ({ status, isDeleted });

describe('paymentGate', () => {
  it('blocks an empty order', () => {
    expect(paymentGate([])).toEqual({
      ok: false,
      reason: 'empty',
      message: 'Agrega al menos un producto para proceder',
    });
  });

  it('treats an order whose items are all deleted as empty', () => {
    expect(paymentGate([line('entregado', true), line('pendiente', true)])).toMatchObject({
      ok: false,
      reason: 'empty',
    });
  });

  it.each<ItemStatus>(['pendiente', 'en_preparacion', 'listo'])('blocks while an item is %s', (status) => {
    expect(paymentGate([line('entregado'), line(status)])).toEqual({
      ok: false,
      reason: 'undelivered',
      message: PAYMENT_GATE_MESSAGES.undelivered,
    });
  });

  it('ignores undelivered items that were deleted', () => {
    expect(paymentGate([line('entregado'), line('pendiente', true)])).toEqual({ ok: true });
    expect(canCharge([line('entregado'), line('listo', true)])).toBe(true);
  });

  it('allows payment when everything was delivered', () => {
    expect(paymentGate([line('entregado'), line('entregado')])).toEqual({ ok: true });
    expect(canCharge([line('listo')])).toBe(false);
  });

  it('keeps the spec texts', () => {
    expect(PAYMENT_GATE_MESSAGES.undelivered).toBe(
      'No puedes proceder al pago: la orden tiene ítems pendientes, en preparación o listos (no entregados).',
    );
    expect(PAYMENT_GATE_MESSAGES.cannotCharge).toBe('No puedes cobrar: hay items sin entregar');
  });
});

describe('paymentGate of an equal-share check (decision 0022)', () => {
  it('a share check with no items of its own can be charged; an empty plain order cannot', () => {
    expect(paymentGate([], 96_67)).toEqual({ ok: true });
    expect(canCharge([line('entregado', true)], 96_67)).toBe(true);
    expect(paymentGate([], 0)).toMatchObject({ ok: false, reason: 'empty' });
  });
  it('items added to a share check still wait for delivery', () => {
    expect(paymentGate([line('pendiente')], 96_67)).toMatchObject({ ok: false, reason: 'undelivered' });
    expect(canCharge([line('entregado')], 96_67)).toBe(true);
  });
});
