import { describe, it, expect } from 'vitest';
import {
  MP_TERMINAL_CASHIER,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_METHOD_LABELS,
  isOrderOpen,
  isOrderStatus,
  isPaymentMethod,
  paymentFlow,
  statusChip,
} from './order-status.ts';

describe('order status', () => {
  it('lists the statuses', () => {
    expect(ORDER_STATUSES).toEqual(['activo', 'pagado', 'cancelado']);
    expect(isOrderStatus('pagado')).toBe(true);
    expect(isOrderStatus('pendiente')).toBe(false);
  });

  it.each([
    ['pagado', 'PAGADO'],
    ['cancelado', 'CANCELADO'],
    ['activo', 'PENDIENTE'],
    ['pendiente', 'PENDIENTE'],
    ['', 'PENDIENTE'],
    ['PAGADO', 'PENDIENTE'],
  ])('chip for %j is %s', (status, chip) => {
    expect(statusChip(status)).toBe(chip);
  });

  it('only an active order is open', () => {
    expect(isOrderOpen('activo')).toBe(true);
    expect(isOrderOpen('pagado')).toBe(false);
    expect(isOrderOpen('cancelado')).toBe(false);
    expect(isOrderOpen('pendiente')).toBe(false);
  });
});

describe('payment methods', () => {
  it('lists methods with labels', () => {
    expect(PAYMENT_METHODS).toEqual(['efectivo', 'tarjeta', 'transferencia']);
    expect(PAYMENT_METHOD_LABELS.efectivo).toBe('Efectivo');
    expect(PAYMENT_METHOD_LABELS.tarjeta).toBe('Tarjeta');
    expect(PAYMENT_METHOD_LABELS.transferencia).toBe('Transferencia');
    expect(isPaymentMethod('tarjeta')).toBe(true);
    expect(isPaymentMethod('bitcoin')).toBe(false);
  });

  it('cash asks for a PIN, card and transfer use the terminal', () => {
    expect(paymentFlow('efectivo')).toBe('cash-pin');
    expect(paymentFlow('tarjeta')).toBe('card-terminal');
    expect(paymentFlow('transferencia')).toBe('card-terminal');
    expect(MP_TERMINAL_CASHIER).toBe('mp-terminal');
  });
});
