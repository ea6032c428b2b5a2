import { describe, expect, it } from 'vitest';
import {
  AddUnitsBodySchema,
  CreateUserBodySchema,
  GeneralConfigBodySchema,
  LoginBodySchema,
  ProductBodySchema,
  ResetPasswordBodySchema,
  TableNumberBodySchema,
} from '@comanda/contract';
import { t } from './i18n/es-MX.ts';
import { firstMessage } from './use-zod-form.ts';

/** The forms show the contract's own texts: they must be the ones the screens always showed. */
const messageOf = (result: { success: boolean; error?: { issues: readonly { message: string }[] } }) =>
  result.success ? null : firstMessage(result.error!.issues);

describe('forms validated by the contract schemas', () => {
  it('a product without a name or a price: "Nombre y precio requeridos"', () => {
    const product = { name: 'Tacos', description: '', price: 5000, category: 'Comida', imageUrl: null, available: true };
    expect(messageOf(ProductBodySchema.safeParse(product))).toBeNull();
    expect(messageOf(ProductBodySchema.safeParse({ ...product, name: '  ' }))).toBe(t.products.required);
    expect(messageOf(ProductBodySchema.safeParse({ ...product, price: null }))).toBe(t.products.required);
    expect(messageOf(ProductBodySchema.safeParse({ ...product, price: 0 }))).toBe(t.products.required);
  });

  it("a new user's PIN: blank, or four digits (the union's own message, not a generic one)", () => {
    const user = { displayName: 'Ana', email: 'ana@example.com', role: 'waiter' };
    expect(messageOf(CreateUserBodySchema.safeParse(user))).toBeNull();
    expect(messageOf(CreateUserBodySchema.safeParse({ ...user, pin: '1234' }))).toBeNull();
    expect(messageOf(CreateUserBodySchema.safeParse({ ...user, pin: '12' }))).toBe(t.settings.pinFormat);
  });

  it('a new password of fewer than eight characters', () => {
    expect(messageOf(ResetPasswordBodySchema.safeParse({ token: 'x', password: 'corta' }))).toBe(t.resetPassword.tooShort);
    expect(messageOf(ResetPasswordBodySchema.safeParse({ token: 'x', password: 'larga-123' }))).toBeNull();
  });

  it('login and business information pass as the forms send them', () => {
    expect(messageOf(LoginBodySchema.safeParse({ email: 'admin@example.com', password: 'x' }))).toBeNull();
    const business = {
      name: 'Bar',
      phone: '',
      address: '',
      logoUrl: '',
      timezone: 'America/Mexico_City',
      shiftStartHour: 17,
      shiftEndHour: 3,
    };
    expect(messageOf(GeneralConfigBodySchema.safeParse(business))).toBeNull();
    expect(messageOf(GeneralConfigBodySchema.safeParse({ ...business, logoUrl: 'ftp://logo' }))).toBe('URL inválida');
  });

  it("a quantity: blank or zero, and over the line limit, in the server's words", () => {
    expect(messageOf(AddUnitsBodySchema.safeParse({ quantity: 3 }))).toBeNull();
    expect(messageOf(AddUnitsBodySchema.safeParse({ quantity: Number.NaN }))).toBe(t.quantity.error);
    expect(messageOf(AddUnitsBodySchema.safeParse({ quantity: 0 }))).toBe(t.quantity.error);
    expect(messageOf(AddUnitsBodySchema.safeParse({ quantity: 100 }))).toMatch(/máxima/);
  });

  it('a table number the form cannot read is the one message the tables tab showed', () => {
    expect(messageOf(TableNumberBodySchema.safeParse({ number: 12 }))).toBeNull();
    expect(messageOf(TableNumberBodySchema.safeParse({ number: Number.NaN }))).toBe(t.tables.numberInvalid);
  });

  it('no issue, no message', () => {
    expect(firstMessage([])).toBeNull();
  });
});
