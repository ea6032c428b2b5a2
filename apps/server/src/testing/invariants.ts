import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';

/**
 * QUALITY.md, Tests item 8: what must hold in the stored data whatever happened before
 * (concurrent requests, faults, bad input). Throws one error listing every violation.
 *
 * Besides the rules that hold at a single instant, it remembers (per database handle) what it
 * saw last time, so a later call also proves that paid orders, their items and payments never
 * changed and that the audit log only grew.
 */
export async function assertInvariants(handle: Db | Kysely<Database>, options: InvariantOptions = {}): Promise<void> {
  const db = 'selectFrom' in handle ? handle : handle.db;
  const problems: string[] = [];
  const snapshot = await readSnapshot(db);
  checkTotals(snapshot, problems);
  checkPayments(snapshot, problems);
  checkCardPayments(snapshot, problems);
  if (options.terminalCharges) checkTerminalMoney(snapshot, options.terminalCharges, problems);
  checkTables(snapshot, problems);
  checkHistory(db, snapshot, problems);
  if (problems.length > 0) {
    const shown = problems.slice(0, 20).join('\n  ');
    const more = problems.length > 20 ? `\n  … and ${problems.length - 20} more` : '';
    throw new Error(`Invariants violated (${problems.length}):\n  ${shown}${more}`);
  }
}

/** A charge the card terminal approved, as the provider (or its simulator) reports it. */
export interface TerminalCharge {
  /** The card payment id the charge was created for (the provider's external reference). */
  externalReference: string;
  paymentId: string | null;
  amountCents: number;
}

export interface InvariantOptions {
  /**
   * Every charge the terminal approved (test charges excluded). Given, the check proves that the
   * money taken at the terminal equals the card payments recorded: each charge is on its card
   * payment row (the order's payment, or kept for review, or marked refunded), none twice.
   */
  terminalCharges?: readonly TerminalCharge[];
}

type OrderLite = Awaited<ReturnType<typeof readSnapshot>>['orders'][number];
type Snapshot = Awaited<ReturnType<typeof readSnapshot>>;

async function readSnapshot(db: Kysely<Database>) {
  const [orders, items, payments, tables, audit, cards] = await Promise.all([
    db.selectFrom('orders').selectAll().orderBy('id').execute(),
    db.selectFrom('order_items').selectAll().orderBy('order_id').orderBy('id').execute(),
    db.selectFrom('payments').selectAll().orderBy('order_id').orderBy('id').execute(),
    db.selectFrom('tables').selectAll().orderBy('id').execute(),
    db.selectFrom('audit_log').select(['seq', 'id', 'at', 'action', 'entity', 'entity_id', 'data']).orderBy('seq').execute(),
    db.selectFrom('card_payments').selectAll().orderBy('order_id').orderBy('id').execute(),
  ]);
  return { orders, items, payments, tables, audit, cards };
}

function group<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

function isCents(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Stored subtotals equal the sum of the non-deleted items, in integer centavos. */
function checkTotals({ orders, items }: Snapshot, problems: string[]): void {
  const byOrder = group(items, (i) => i.order_id);
  for (const item of items) {
    if (!isCents(Number(item.product_price))) problems.push(`item ${item.id}: price ${item.product_price} is not integer centavos ≥ 0`);
    if (!Number.isSafeInteger(Number(item.quantity)) || Number(item.quantity) < 1)
      problems.push(`item ${item.id}: quantity ${item.quantity}`);
  }
  for (const order of orders) {
    if (order.status === 'cancelado') continue;
    const sum = (byOrder.get(order.id) ?? [])
      .filter((i) => Number(i.is_deleted) === 0)
      .reduce((acc, i) => acc + Number(i.product_price) * Number(i.quantity), 0);
    if (Number(order.subtotal) !== sum) problems.push(`order ${order.id} (${order.status}): subtotal ${order.subtotal} ≠ items ${sum}`);
    for (const field of ['subtotal', 'tip', 'total'] as const) {
      if (!isCents(Number(order[field]))) problems.push(`order ${order.id}: ${field} ${order[field]} is not integer centavos ≥ 0`);
    }
  }
}

/** A paid order has total = subtotal + tip and exactly one payment of that amount; an active one has none. */
function checkPayments({ orders, payments }: Snapshot, problems: string[]): void {
  const byOrder = group(payments, (p) => p.order_id);
  const known = new Set(orders.map((o) => o.id));
  for (const p of payments) if (!known.has(p.order_id)) problems.push(`payment ${p.id}: unknown order ${p.order_id}`);
  for (const order of orders) {
    const own = byOrder.get(order.id) ?? [];
    if (order.status === 'activo' && own.length > 0) problems.push(`order ${order.id} is activo but has ${own.length} payment(s)`);
    if (order.status !== 'pagado') continue;
    const total = Number(order.total);
    if (total !== Number(order.subtotal) + Number(order.tip))
      problems.push(`order ${order.id}: total ${total} ≠ subtotal ${order.subtotal} + tip ${order.tip}`);
    if (own.length !== 1) problems.push(`paid order ${order.id} has ${own.length} payments`);
    else if (Number(own[0]!.amount) !== total) problems.push(`paid order ${order.id}: payment ${own[0]!.amount} ≠ total ${total}`);
    if (order.active_table_id !== null) problems.push(`paid order ${order.id} still holds table ${order.active_table_id}`);
  }
}

const LIVE_CARD_STATES = ['creating', 'pending', 'processing', 'timeout'];
const CHARGED_CARD_STATES = ['approved', 'needs_review', 'refunded'];

/**
 * Card payments: at most one live attempt per order, and while it is live the order still sums
 * what the terminal was asked for (items frozen); an approved one is its paid order's payment,
 * for the amount taken; one the terminal charged (approved, in review, refunded) says how much.
 */
function checkCardPayments({ orders, items, payments, cards }: Snapshot, problems: string[]): void {
  const orderById = new Map<string, OrderLite>(orders.map((o) => [o.id, o]));
  const itemsByOrder = group(items, (i) => i.order_id);
  const paymentsByOrder = group(payments, (p) => p.order_id);
  const liveByOrder = group(
    cards.filter((c) => LIVE_CARD_STATES.includes(c.state)),
    (c) => c.order_id,
  );
  for (const [orderId, live] of liveByOrder) {
    if (live.length > 1) problems.push(`order ${orderId} has ${live.length} live card payments`);
    const order = orderById.get(orderId);
    if (order?.status !== 'activo') continue;
    const subtotal = (itemsByOrder.get(orderId) ?? [])
      .filter((i) => Number(i.is_deleted) === 0)
      .reduce((acc, i) => acc + Number(i.product_price) * Number(i.quantity), 0);
    for (const c of live) {
      const expected = subtotal + Number(c.tip_amount);
      if (Number(c.amount) !== expected)
        problems.push(`order ${orderId} changed under live card payment ${c.id}: asked ${c.amount}, order now sums ${expected}`);
    }
  }
  for (const c of cards) {
    if (CHARGED_CARD_STATES.includes(c.state) && c.approved_amount === null)
      problems.push(`card payment ${c.id} (${c.state}) does not say how much the terminal charged`);
    if (c.state !== 'approved') continue;
    const order = orderById.get(c.order_id);
    const paid = (paymentsByOrder.get(c.order_id) ?? []).filter((p) => p.provider_payment_id === c.provider_payment_id);
    if (order?.status !== 'pagado' || paid.length !== 1)
      problems.push(`approved card payment ${c.id} is not the payment of its order ${c.order_id} (${order?.status})`);
    else if (c.approved_amount !== null && Number(paid[0]!.amount) !== Number(c.approved_amount))
      problems.push(`approved card payment ${c.id}: charged ${c.approved_amount}, recorded ${paid[0]!.amount}`);
  }
  const charged = cards.filter((c) => c.provider_payment_id !== null && CHARGED_CARD_STATES.includes(c.state));
  for (const p of payments) {
    if (p.provider_payment_id === null) continue;
    const own = charged.filter((c) => c.provider_payment_id === p.provider_payment_id);
    if (own.some((c) => c.order_id !== p.order_id || c.state !== 'approved'))
      problems.push(`payment ${p.id} records terminal charge ${p.provider_payment_id} that is not its order's approved card payment`);
  }
}

/** The money the terminal took equals the card payments recorded, charge by charge and in total. */
function checkTerminalMoney({ cards }: Snapshot, charges: readonly TerminalCharge[], problems: string[]): void {
  const byId = new Map(cards.map((c) => [c.id, c]));
  let taken = 0;
  for (const charge of charges) {
    taken += charge.amountCents;
    const card = byId.get(charge.externalReference);
    if (!card) {
      problems.push(`terminal charge ${charge.paymentId} (${charge.amountCents}) has no card payment`);
      continue;
    }
    if (!CHARGED_CARD_STATES.includes(card.state) || card.provider_payment_id !== charge.paymentId)
      problems.push(`terminal charge ${charge.paymentId} is not recorded: card payment ${card.id} is ${card.state}`);
    else if (Number(card.approved_amount) !== charge.amountCents)
      problems.push(`terminal charge ${charge.paymentId}: took ${charge.amountCents}, card payment says ${card.approved_amount}`);
  }
  const recorded = cards.filter((c) => CHARGED_CARD_STATES.includes(c.state)).reduce((acc, c) => acc + Number(c.approved_amount), 0);
  if (recorded !== taken) problems.push(`terminals took ${taken} centavos but card payments record ${recorded}`);
}

/** A table is 'ocupada' exactly when it links one activo order whose active_table_id is the table. */
function checkTables({ orders, tables }: Snapshot, problems: string[]): void {
  const byId = new Map<string, OrderLite>(orders.map((o) => [o.id, o]));
  const activeByTable = group(
    orders.filter((o) => o.status === 'activo'),
    (o) => o.active_table_id,
  );
  for (const order of orders) {
    if (order.status === 'activo' && order.active_table_id !== order.table_id) {
      problems.push(`activo order ${order.id}: active_table_id ${order.active_table_id} ≠ table_id ${order.table_id}`);
    }
  }
  for (const table of tables) {
    const active = activeByTable.get(table.id) ?? [];
    if (active.length > 1) problems.push(`table ${table.number}: ${active.length} activo orders`);
    if (table.status === 'ocupada') {
      const linked = table.current_order_id ? byId.get(table.current_order_id) : undefined;
      if (!linked) problems.push(`table ${table.number} is ocupada but links no order (${table.current_order_id})`);
      else if (linked.status !== 'activo' || linked.active_table_id !== table.id) {
        problems.push(
          `table ${table.number} is ocupada but its order ${linked.id} is ${linked.status}, active_table_id ${linked.active_table_id}`,
        );
      }
    } else if (active.length > 0) {
      problems.push(`table ${table.number} is ${table.status} but order ${active[0]!.id} is activo on it`);
    }
  }
}

interface Memory {
  paid: Map<string, string>;
  auditCount: number;
  auditDigest: string;
}
const memory = new WeakMap<Kysely<Database>, Memory>();

function hash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/** Paid orders with their items and payment never change; the audit log only grows, in seq order. */
function checkHistory(db: Kysely<Database>, { orders, items, payments, audit }: Snapshot, problems: string[]): void {
  for (let i = 1; i < audit.length; i++) {
    if (Number(audit[i]!.seq) <= Number(audit[i - 1]!.seq)) problems.push(`audit_log seq not strictly increasing at ${audit[i]!.seq}`);
  }
  const itemsByOrder = group(items, (i) => i.order_id);
  const paymentsByOrder = group(payments, (p) => p.order_id);
  const paid = new Map<string, string>();
  for (const order of orders) {
    if (order.status !== 'pagado') continue;
    paid.set(order.id, hash([order, itemsByOrder.get(order.id) ?? [], paymentsByOrder.get(order.id) ?? []]));
  }
  const before = memory.get(db);
  if (before) {
    for (const [id, digest] of before.paid) {
      const now = paid.get(id);
      if (now === undefined) problems.push(`paid order ${id} is no longer paid (or was deleted)`);
      else if (now !== digest) problems.push(`paid order ${id}, its items or its payment changed after payment`);
    }
    if (audit.length < before.auditCount) problems.push(`audit_log shrank from ${before.auditCount} to ${audit.length} rows`);
    else if (hash(audit.slice(0, before.auditCount)) !== before.auditDigest) problems.push('audit_log rows seen earlier were changed');
  }
  memory.set(db, { paid, auditCount: audit.length, auditDigest: hash(audit) });
}
