import type { Cents } from './money.ts';
import { ZERO, addCents, cents, multiplyCents } from './money.ts';
import { splitCents } from './split.ts';
import { lineTotal } from './order-math.ts';

/**
 * Separate checks and bar tabs (docs/decisions/0014-checks-are-orders.md): a check is an order.
 * Splitting by item moves whole units of the order's lines into new checks; what is not moved
 * stays in the order. The money rule: the checks' subtotals always add up to the order's.
 */

export const TAB_NAME_MAX = 40;

export const TAB_NAME_MESSAGES = {
  required: 'Escribe el nombre de la cuenta',
  tooLong: `El nombre de la cuenta es demasiado largo (máximo ${TAB_NAME_MAX} caracteres)`,
  taken: 'Ya hay una cuenta abierta con ese nombre en la Barra',
} as const;

export const CHECK_MESSAGES = {
  unknownLine: 'Los productos elegidos ya no están en esta cuenta. Revisa la orden e intenta de nuevo.',
  tooMany: 'Elegiste más unidades de las que tiene la cuenta. Revisa la orden e intenta de nuevo.',
  emptyCheck: 'Cada cuenta nueva necesita al menos un producto',
  nothingLeft: 'Deja al menos un producto en la cuenta original',
  onlyBar: 'Solo la Barra admite varias cuentas abiertas a la vez',
} as const;

/** The name of the n-th check of a table, from 0: 'Cuenta A', 'Cuenta B', … then 'Cuenta 27'. */
export function checkName(index: number): string {
  const n = Math.max(0, Math.floor(index));
  return n < 26 ? `Cuenta ${String.fromCharCode(65 + n)}` : `Cuenta ${n + 1}`;
}

/** A tab's name as stored and compared: trimmed, inner spaces collapsed. */
export function normalizeTabName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

/** Two open tabs may not share a name, whatever the case or accents typed. */
export function tabNameKey(name: string): string {
  return normalizeTabName(name)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export interface CheckLine {
  id: string;
  productPrice: Cents;
  quantity: number;
}

/** Units of each line (by id) that one new check takes. */
export type CheckTake = Readonly<Record<string, number>>;

export type CheckPlan =
  | {
      ok: true;
      /** Units left in the order, by line id (0 when the whole line moves). */
      remaining: Record<string, number>;
      /** The order's subtotal after the split, then each new check's, in the order given. */
      remainingSubtotal: Cents;
      subtotals: Cents[];
    }
  | { ok: false; reason: 'unknown_line' | 'too_many' | 'empty_check' | 'nothing_left'; message: string };

const refuse = (reason: 'unknown_line' | 'too_many' | 'empty_check' | 'nothing_left'): CheckPlan => ({
  ok: false,
  reason,
  message: {
    unknown_line: CHECK_MESSAGES.unknownLine,
    too_many: CHECK_MESSAGES.tooMany,
    empty_check: CHECK_MESSAGES.emptyCheck,
    nothing_left: CHECK_MESSAGES.nothingLeft,
  }[reason],
});

/**
 * Plans a split by item: `takes[k]` is what the k-th new check takes from the order's lines.
 * Refused when a line is unknown, more units are taken than the line has, a new check is empty,
 * or nothing would be left in the order. Units are whole, so every subtotal is an exact sum of
 * price × units and they add up to the order's subtotal to the centavo.
 */
export function planChecks(lines: readonly CheckLine[], takes: readonly CheckTake[]): CheckPlan {
  const byId = new Map(lines.map((l) => [l.id, l]));
  const remaining: Record<string, number> = Object.fromEntries(lines.map((l) => [l.id, l.quantity]));
  const subtotals: Cents[] = [];
  for (const take of takes) {
    let subtotal = ZERO;
    let units = 0;
    for (const [id, qty] of Object.entries(take)) {
      const line = byId.get(id);
      if (!line) return refuse('unknown_line');
      if (!Number.isSafeInteger(qty) || qty < 0) return refuse('too_many');
      if (qty > remaining[id]!) return refuse('too_many');
      remaining[id] = remaining[id]! - qty;
      units += qty;
      subtotal = addCents(subtotal, multiplyCents(line.productPrice, qty));
    }
    if (units === 0) return refuse('empty_check');
    subtotals.push(subtotal);
  }
  if (Object.values(remaining).every((q) => q === 0)) return refuse('nothing_left');
  const remainingSubtotal = lines.reduce<Cents>((sum, l) => addCents(sum, multiplyCents(l.productPrice, remaining[l.id]!)), ZERO);
  return { ok: true, remaining, remainingSubtotal, subtotals };
}

/**
 * The sums a split shows while it is planned, each a sum of line totals: what stays in the order,
 * each new check's, and the order's whole. A take never counts more units than its line has left.
 */
export function splitSums(lines: readonly CheckLine[], takes: readonly CheckTake[]): { stays: Cents; takes: Cents[]; total: Cents } {
  const left = new Map(lines.map((l) => [l.id, l.quantity]));
  const sums = takes.map((take) =>
    lines.reduce<Cents>((sum, l) => {
      const units = Math.max(0, Math.min(take[l.id] ?? 0, left.get(l.id)!));
      left.set(l.id, left.get(l.id)! - units);
      return addCents(sum, lineTotal({ productPrice: l.productPrice, quantity: units }));
    }, ZERO),
  );
  const stays = lines.reduce<Cents>(
    (sum, l) => addCents(sum, lineTotal({ productPrice: l.productPrice, quantity: left.get(l.id)! })),
    ZERO,
  );
  const total = lines.reduce<Cents>((sum, l) => addCents(sum, lineTotal(l)), ZERO);
  return { stays, takes: sums, total };
}

/**
 * Equal shares are separate checks: an order
 * split into N equal shares keeps its items and the first share; N − 1 new share checks owe the
 * others. Shares are the largest-remainder split of what is owed: they differ by at most one
 * centavo, the leftover centavos go to the first ones, and they add up to it exactly.
 */
export const EQUAL_SHARES_MAX = 20;

export const EQUAL_SHARE_MESSAGES = {
  count: `Elige de 2 a ${EQUAL_SHARES_MAX} partes iguales`,
  tooSmall: 'La cuenta es muy pequeña para dividirla en tantas partes',
  paidParts: 'Esta cuenta ya tiene pagos: divídela antes de cobrar',
  alreadyShared: 'Esta cuenta ya se dividió en partes iguales',
  sharesOwed: 'Las partes iguales de esta cuenta ya se cobran en otras cuentas: no puede quedar por debajo de ellas.',
  shareFamily: 'Esta cuenta se dividió en partes iguales: cobra cada parte en su cuenta.',
} as const;

export type EqualSharePlan =
  { ok: true; keep: Cents; shares: Cents[]; sharedOut: Cents } | { ok: false; reason: 'count' | 'too_small'; message: string };

export function planEqualShares(owed: Cents, count: number): EqualSharePlan {
  if (!Number.isSafeInteger(count) || count < 2 || count > EQUAL_SHARES_MAX)
    return { ok: false, reason: 'count', message: EQUAL_SHARE_MESSAGES.count };
  if (!Number.isSafeInteger(owed) || owed < count) return { ok: false, reason: 'too_small', message: EQUAL_SHARE_MESSAGES.tooSmall };
  const all = splitCents(owed, count);
  const shares = all.slice(1);
  return { ok: true, keep: all[0]!, shares, sharedOut: shares.reduce<Cents>((sum, s) => addCents(sum, s), ZERO) };
}

/**
 * What a check owes before tips, shares included: its items after discounts and comps, less
 * what its share checks owe of them, plus the share it owes of another check. Never negative.
 */
export function checkOwed(input: { owed: number; sharedOut: number; shareAmount: number }): Cents {
  return cents(Math.max(0, input.owed - input.sharedOut) + Math.max(0, input.shareAmount));
}
