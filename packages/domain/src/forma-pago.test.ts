import { describe, expect, it } from 'vitest';
import { formaPagoOf, formaPagoOfPart } from './forma-pago.ts';

describe('forma de pago', () => {
  it('tells a debit card (28) from a credit one or a card of unknown type (04)', () => {
    expect(formaPagoOfPart({ method: 'tarjeta', cardType: 'debito' })).toBe('28');
    expect(formaPagoOfPart({ method: 'tarjeta', cardType: 'credito' })).toBe('04');
    expect(formaPagoOfPart({ method: 'tarjeta', cardType: null })).toBe('04');
    expect(formaPagoOfPart({ method: 'tarjeta' })).toBe('04');
    expect(formaPagoOfPart({ method: 'efectivo' })).toBe('01');
    expect(formaPagoOfPart({ method: 'transferencia' })).toBe('03');
  });

  it('takes the largest part of a mixed payment, the first of equal ones', () => {
    expect(
      formaPagoOf([
        { method: 'efectivo', amount: 100 },
        { method: 'tarjeta', amount: 300, cardType: 'debito' },
        { method: 'tarjeta', amount: 200, cardType: 'credito' },
      ]),
    ).toBe('28');
    expect(
      formaPagoOf([
        { method: 'tarjeta', amount: 300, cardType: 'debito' },
        { method: 'efectivo', amount: 301 },
      ]),
    ).toBe('01');
    expect(
      formaPagoOf([
        { method: 'transferencia', amount: 250 },
        { method: 'tarjeta', amount: 250, cardType: 'debito' },
      ]),
    ).toBe('03');
    expect(formaPagoOf([])).toBe('01');
  });
});
