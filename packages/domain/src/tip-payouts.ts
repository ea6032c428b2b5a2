import { cents, type Cents } from './money.ts';

/**
 * Tips per waiter. Cash tips stay in the waiter's pocket; card and transfer
 * tips reach the bar's account, so the bar owes them and hands them over in cash from the drawer
 * (a 'propinas' movement). With pooling on, what is owed is the pool shared by role.
 */

export const TIP_MESSAGES = {
  overOwed: 'El monto es mayor a lo que se le debe de propinas.',
  nothingOwed: 'No se le deben propinas.',
  badRange: 'La fecha inicial debe ser igual o anterior a la final.',
  notPayable: 'Las propinas se pagan desde el turno de caja abierto.',
  badPool: 'Los porcentajes del reparto deben sumar 100 %.',
} as const;

/** The roles a pool can share tips with; admins are not in the pool. */
export const POOL_ROLES = ['waiter', 'kitchen', 'barra'] as const;
export type PoolRole = (typeof POOL_ROLES)[number];

export interface TipPoolRules {
  enabled: boolean;
  /** Percent per role, whole numbers 0–100 that sum to 100. */
  percents: Record<PoolRole, number>;
}

export const DEFAULT_TIP_POOL: TipPoolRules = { enabled: false, percents: { waiter: 100, kitchen: 0, barra: 0 } };

export function isValidPool(percents: Record<PoolRole, number>): boolean {
  const values = POOL_ROLES.map((r) => percents[r]);
  return values.every((p) => Number.isInteger(p) && p >= 0 && p <= 100) && values.reduce((a, p) => a + p, 0) === 100;
}

export interface TipPayment {
  waiterId: string;
  waiterName: string;
  method: 'efectivo' | 'tarjeta' | 'transferencia';
  tip: number;
}

export interface TipPayout {
  userId: string;
  userName: string;
  amount: number;
}

export interface WaiterTips {
  userId: string;
  name: string;
  cash: Cents;
  card: Cents;
  transfer: Cents;
  /** Card + transfer tips: what the bar holds for this waiter (before pooling). */
  earned: Cents;
  paid: Cents;
  /** What is still owed (with pooling: the pooled share − paid); never negative. */
  owed: Cents;
}

/** Tips of each waiter by method, what was paid out to them and what is still owed. Sorted by name. */
export function tipsByWaiter(payments: readonly TipPayment[], payouts: readonly TipPayout[]): WaiterTips[] {
  const rows = new Map<string, { name: string; cash: number; card: number; transfer: number; paid: number }>();
  const row = (id: string, name: string) => {
    let r = rows.get(id);
    if (!r) rows.set(id, (r = { name, cash: 0, card: 0, transfer: 0, paid: 0 }));
    return r;
  };
  for (const p of payments) {
    const r = row(p.waiterId, p.waiterName);
    if (p.method === 'efectivo') r.cash += p.tip;
    else if (p.method === 'tarjeta') r.card += p.tip;
    else r.transfer += p.tip;
  }
  for (const p of payouts) row(p.userId, p.userName).paid += p.amount;
  return [...rows.entries()]
    .map(([userId, r]) => ({
      userId,
      name: r.name,
      cash: cents(r.cash),
      card: cents(r.card),
      transfer: cents(r.transfer),
      earned: cents(r.card + r.transfer),
      paid: cents(r.paid),
      owed: cents(Math.max(0, r.card + r.transfer - r.paid)),
    }))
    .sort((a, b) => a.name.localeCompare(b.name, 'es') || a.userId.localeCompare(b.userId));
}

/**
 * Splits `total` centavos in proportion to non-negative integer `weights`, exactly: each part
 * gets the floor of its share, and the centavos left go one each to the largest remainders
 * (ties to the earlier weight). The parts always sum to `total`; all zero weights give all zeros.
 */
export function largestRemainder(total: number, weights: readonly number[]): Cents[] {
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError('total must be a non-negative integer');
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0)) throw new RangeError('weights must be non-negative integers');
  const sum = weights.reduce((a, w) => a + w, 0);
  if (sum === 0 || total === 0) return weights.map(() => cents(0));
  // BigInt: total × weight can pass 2^53 for large weights.
  const T = BigInt(total);
  const S = BigInt(sum);
  const floors = weights.map((w) => (T * BigInt(w)) / S);
  const rests = weights.map((w, i) => ({ i, rest: T * BigInt(w) - floors[i]! * S }));
  let left = total - Number(floors.reduce((a, f) => a + f, 0n));
  rests.sort((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1));
  const parts = floors.map(Number);
  for (const { i } of rests) {
    if (left === 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts.map(cents);
}

export interface PoolMember {
  userId: string;
  name: string;
  role: PoolRole;
}

export interface PoolShare extends PoolMember {
  amount: Cents;
}

/**
 * The pool (card + transfer tips) shared by role: each role's percent of the pool, the waiters'
 * part in proportion to the tips each one earned, the kitchen's and the bar's in equal parts
 * among their members. A role with nobody in it gives its percent to the others (in proportion),
 * so the shares always sum to the pool exactly (if none of those has a percent, the waiters keep
 * their own tips).
 */
export function poolShares(
  earned: readonly { userId: string; name: string; earned: number }[],
  staff: readonly PoolMember[],
  percents: Record<PoolRole, number>,
): PoolShare[] {
  const pool = earned.reduce((a, w) => a + w.earned, 0);
  const waiters = earned.filter((w) => w.earned > 0).map((w) => ({ userId: w.userId, name: w.name, role: 'waiter' as const }));
  const members: Record<PoolRole, PoolMember[]> = {
    waiter: waiters,
    kitchen: staff.filter((s) => s.role === 'kitchen'),
    barra: staff.filter((s) => s.role === 'barra'),
  };
  let roleWeights = POOL_ROLES.map((r) => (members[r].length > 0 ? percents[r] : 0));
  // Nobody in the roles that have a percent: the waiters keep what they earned.
  if (roleWeights.every((w) => w === 0)) roleWeights = POOL_ROLES.map((r) => (r === 'waiter' ? 1 : 0));
  const roleParts = largestRemainder(pool, roleWeights);
  const shares: PoolShare[] = [];
  POOL_ROLES.forEach((role, i) => {
    const people = members[role];
    const weights = role === 'waiter' ? earned.filter((w) => w.earned > 0).map((w) => w.earned) : people.map(() => 1);
    largestRemainder(roleParts[i]!, weights).forEach((amount, j) => shares.push({ ...people[j]!, amount }));
  });
  return shares;
}
