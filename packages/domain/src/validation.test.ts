import { describe, it, expect } from 'vitest';
import {
  PIN_LENGTH,
  PIN_MESSAGES,
  PRODUCT_REQUIRED_ERROR,
  QUANTITY_ERROR,
  isValidPin,
  isValidQuantity,
  normalizeOptionalText,
  pinInputError,
  sanitizePinInput,
  validateProductInput,
} from './validation.ts';

describe('PIN', () => {
  it('is exactly four digits', () => {
    expect(PIN_LENGTH).toBe(4);
    expect(isValidPin('1234')).toBe(true);
    expect(isValidPin('0000')).toBe(true);
    for (const bad of ['', '123', '12345', '12a4', ' 1234', '١٢٣٤']) {
      expect(isValidPin(bad), bad).toBe(false);
    }
  });

  it('explains what is wrong before any lookup', () => {
    expect(pinInputError('')).toBe('Por favor ingresa el PIN');
    expect(pinInputError('1')).toBe('El PIN debe tener al menos 4 dígitos');
    expect(pinInputError('123')).toBe('El PIN debe tener al menos 4 dígitos');
    expect(pinInputError('1234')).toBeNull();
    expect(pinInputError('12345')).toBe(PIN_MESSAGES.wrong);
    expect(pinInputError('abcd')).toBe('PIN incorrecto');
  });

  it('keypad input keeps digits only, at most four', () => {
    expect(sanitizePinInput('12a3 45')).toBe('1234');
    expect(sanitizePinInput('')).toBe('');
  });
});

describe('quantity', () => {
  it('is a whole number from 1 to 99', () => {
    expect(QUANTITY_ERROR).toBe('La cantidad debe ser mayor a 0');
    expect(isValidQuantity(1)).toBe(true);
    expect(isValidQuantity(99)).toBe(true);
    for (const bad of [0, -1, 1.5, 100, 999, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(isValidQuantity(bad), String(bad)).toBe(false);
    }
  });
});

describe('normalizeOptionalText', () => {
  it('trims and stores blanks as null', () => {
    expect(normalizeOptionalText('  Cumpleaños Ana  ')).toBe('Cumpleaños Ana');
    expect(normalizeOptionalText('   ')).toBeNull();
    expect(normalizeOptionalText('')).toBeNull();
    expect(normalizeOptionalText(null)).toBeNull();
    expect(normalizeOptionalText(undefined)).toBeNull();
  });
});

describe('validateProductInput', () => {
  it('needs a name and a positive price', () => {
    expect(validateProductInput({ name: 'Tacos', priceCents: 4500 })).toBeNull();
    expect(PRODUCT_REQUIRED_ERROR).toBe('Nombre y precio requeridos');
    for (const input of [
      { name: '', priceCents: 4500 },
      { name: '   ', priceCents: 4500 },
      { name: null, priceCents: 4500 },
      { priceCents: 4500 },
      { name: 'Tacos', priceCents: 0 },
      { name: 'Tacos', priceCents: null },
      { name: 'Tacos' },
      { name: 'Tacos', priceCents: -100 },
      { name: 'Tacos', priceCents: Number.NaN },
      { name: 'Tacos', priceCents: 45.5 },
    ]) {
      expect(validateProductInput(input), JSON.stringify(input)).toBe(PRODUCT_REQUIRED_ERROR);
    }
  });
});
