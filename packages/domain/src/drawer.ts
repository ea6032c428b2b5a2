import { cents, type Cents } from './money.ts';

/** MXN bills (1000–20) and coins (20–0.50) in centavos, largest first. Each denomination once, with its kind: the $20 exists as a bill and as a coin. */
export const DENOMINATION_SLOTS = [
  { key: 'b100000', value: 100000, kind: 'billete' },
  { key: 'b50000', value: 50000, kind: 'billete' },
  { key: 'b20000', value: 20000, kind: 'billete' },
  { key: 'b10000', value: 10000, kind: 'billete' },
  { key: 'b5000', value: 5000, kind: 'billete' },
  { key: 'b2000', value: 2000, kind: 'billete' },
  { key: 'm2000', value: 2000, kind: 'moneda' },
  { key: 'm1000', value: 1000, kind: 'moneda' },
  { key: 'm500', value: 500, kind: 'moneda' },
  { key: 'm200', value: 200, kind: 'moneda' },
  { key: 'm100', value: 100, kind: 'moneda' },
  { key: 'm50', value: 50, kind: 'moneda' },
] as const;

export type DenominationKey = (typeof DENOMINATION_SLOTS)[number]['key'];
/** How many pieces of each denomination were counted; a missing key is zero. */
export type DenominationCount = Partial<Record<DenominationKey, number>>;

/** Pieces of one denomination the form accepts (a drawer never holds more). */
export const MAX_PIECES = 100000;

export const DRAWER_MESSAGES = {
  badCount: 'Cada cantidad de billetes o monedas debe ser un número entero entre 0 y 100,000',
} as const;

export function isValidCount(count: DenominationCount): boolean {
  return Object.entries(count).every(
    ([key, n]) =>
      DENOMINATION_SLOTS.some((s) => s.key === key) && Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= MAX_PIECES,
  );
}

/** The money a count of bills and coins adds up to. */
export function countTotal(count: DenominationCount): Cents {
  if (!isValidCount(count)) throw new RangeError(DRAWER_MESSAGES.badCount);
  let total = 0;
  for (const slot of DENOMINATION_SLOTS) total += (count[slot.key] ?? 0) * slot.value;
  return cents(total);
}

/** 'propinas': card and transfer tips handed to a waiter in cash (tip-payouts.ts). */
export type DrawerMovementKind = 'deposito' | 'retiro' | 'gasto' | 'propinas';

/** What happened in a drawer session. Card and transfer payments are listed for information only. */
export interface DrawerFigures {
  float: Cents;
  /** Totals of cash payments (what the order cost, tip included). */
  cashSales: Cents;
  /** Money received in cash beyond the total, handed back. Cash in = received − change = cashSales. */
  change: Cents;
  /** Money received in cash (before change). */
  cashReceived: Cents;
  deposits: Cents;
  withdrawals: Cents;
  paidOuts: Cents;
  /** Card and transfer tips handed to waiters in cash. */
  tipPayouts: Cents;
}

export interface DrawerPayment {
  method: 'efectivo' | 'tarjeta' | 'transferencia';
  amount: number;
  receivedAmount: number | null;
  changeAmount: number | null;
}

export interface DrawerMovement {
  kind: DrawerMovementKind;
  amount: number;
}

/** Sums a session's payments and movements into its figures. */
export function drawerFigures(float: number, payments: readonly DrawerPayment[], movements: readonly DrawerMovement[]): DrawerFigures {
  let cashSales = 0;
  let change = 0;
  let cashReceived = 0;
  for (const p of payments) {
    if (p.method !== 'efectivo') continue;
    cashSales += p.amount;
    change += p.changeAmount ?? 0;
    cashReceived += p.receivedAmount ?? p.amount;
  }
  const sum = (kind: DrawerMovementKind) => movements.filter((m) => m.kind === kind).reduce((a, m) => a + m.amount, 0);
  return {
    float: cents(float),
    cashSales: cents(cashSales),
    change: cents(change),
    cashReceived: cents(cashReceived),
    deposits: cents(sum('deposito')),
    withdrawals: cents(sum('retiro')),
    paidOuts: cents(sum('gasto')),
    tipPayouts: cents(sum('propinas')),
  };
}

/**
 * Cash the drawer should hold: float + cash received − change given + deposits − withdrawals − paid-outs − tip payouts.
 * (Received − change is each cash sale's total, so this equals float + cash sales + movements.)
 */
export function expectedCash(f: DrawerFigures): Cents {
  return cents(f.float + f.cashReceived - f.change + f.deposits - f.withdrawals - f.paidOuts - f.tipPayouts);
}

const OUTFLOW_NAMES: Record<Exclude<DrawerMovementKind, 'deposito'>, string> = {
  retiro: 'El retiro',
  gasto: 'El gasto',
  propinas: 'El pago de propinas',
};

/**
 * A retiro, gasto or tip payout takes cash out of the drawer: at most the cash it is expected to
 * hold, so the corte never expects negative cash. null when allowed, else the Spanish refusal
 * (without the expected amount: the corte Z count stays blind).
 */
export function outflowRefusal(kind: DrawerMovementKind, amount: number, expected: number): string | null {
  if (kind === 'deposito' || amount <= expected) return null;
  return `${OUTFLOW_NAMES[kind]} es mayor al efectivo que debería haber en la caja: no se puede sacar más efectivo del que hay.`;
}

/** Counted minus expected: positive is a surplus (sobrante), negative a shortage (faltante). */
export function overShort(counted: number, expected: number): Cents {
  return cents(counted - expected);
}

export function overShortLabel(diff: number): 'Cuadra' | 'Sobrante' | 'Faltante' {
  return diff === 0 ? 'Cuadra' : diff > 0 ? 'Sobrante' : 'Faltante';
}
