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
  checkMixedPayments(snapshot, problems);
  checkFolios(snapshot, problems);
  checkCardPayments(snapshot, problems);
  if (options.terminalCharges) checkTerminalMoney(snapshot, options.terminalCharges, problems);
  checkTables(snapshot, problems);
  checkItemsOwned(snapshot, problems);
  checkChecksAndTabs(snapshot, problems);
  checkEqualShares(snapshot, problems);
  checkVoids(snapshot, problems);
  checkHistory(db, snapshot, problems);
  checkAdjustments(snapshot, await readAdjustments(db), problems);
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
  const [orders, items, payments, tables, audit, cards, counters] = await Promise.all([
    db.selectFrom('orders').selectAll().orderBy('id').execute(),
    db.selectFrom('order_items').selectAll().orderBy('order_id').orderBy('id').execute(),
    db.selectFrom('payments').selectAll().orderBy('order_id').orderBy('id').execute(),
    db.selectFrom('tables').selectAll().orderBy('id').execute(),
    db.selectFrom('audit_log').select(['seq', 'id', 'at', 'action', 'entity', 'entity_id', 'data']).orderBy('seq').execute(),
    db.selectFrom('card_payments').selectAll().orderBy('order_id').orderBy('id').execute(),
    db.selectFrom('counters').selectAll().execute(),
  ]);
  return { orders, items, payments, tables, audit, cards, counters };
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

/**
 * A paid order has total = subtotal − discount − comp + tip and at least one payment (mixed payments: several,
 * checked by checkMixedPayments); an active one may hold parts already paid.
 */
function checkPayments({ orders, payments }: Snapshot, problems: string[]): void {
  const byOrder = group(payments, (p) => p.order_id);
  const known = new Set(orders.map((o) => o.id));
  for (const p of payments) if (!known.has(p.order_id)) problems.push(`payment ${p.id}: unknown order ${p.order_id}`);
  for (const order of orders) {
    const own = byOrder.get(order.id) ?? [];
    if (order.status === 'cancelado' && own.length > 0) problems.push(`order ${order.id} is cancelado but has ${own.length} payment(s)`);
    if (order.status !== 'pagado') continue;
    const total = Number(order.total);
    // Discounts and comps come off the subtotal before the tip; equal shares
    // move money between checks: what share checks owe comes off, a share check's own is added.
    if (total !== owedOf(order) + Number(order.tip))
      problems.push(
        `order ${order.id}: total ${total} ≠ subtotal ${order.subtotal} − discount ${order.discount} − comp ${order.comp} − shared ${order.shared_out} + share ${order.share_amount} + tip ${order.tip}`,
      );
    if (own.length === 0) problems.push(`paid order ${order.id} has no payment`);
    if (order.active_table_id !== null) problems.push(`paid order ${order.id} still holds table ${order.active_table_id}`);
  }
}

/**
 * Mixed payments: each paid order's payments sum exactly to its total and their
 * tips to its tip (so the parts sum to the amount owed); an open order's parts never exceed
 * its subtotal; every payment is centavos ≥ 0 and holds its tip.
 */
/** What an order owes before tips: its subtotal less discounts and comps, equal shares applied. */
function owedOf(order: OrderLite): number {
  const items = Math.max(0, Number(order.subtotal) - Number(order.discount) - Number(order.comp));
  return Math.max(0, items - Number(order.shared_out)) + Number(order.share_amount);
}

/**
 * Equal shares: within each family of checks, what the share checks owe equals
 * what their orders gave out (no centavo created or lost), and an order's items after discounts
 * and comps always cover what its share checks owe; no cancelled order is part of a share.
 */
function checkEqualShares({ orders }: Snapshot, problems: string[]): void {
  const families = group(
    orders.filter((o) => Number(o.shared_out) > 0 || Number(o.share_amount) > 0),
    (o) => o.parent_order_id ?? o.id,
  );
  for (const [root, family] of families) {
    const out = family.reduce((acc, o) => acc + Number(o.shared_out), 0);
    const owed = family.reduce((acc, o) => acc + Number(o.share_amount), 0);
    if (out !== owed) problems.push(`checks of ${root}: shares given ${out} ≠ shares owed ${owed}`);
  }
  for (const o of orders) {
    if (Number(o.shared_out) > Math.max(0, Number(o.subtotal) - Number(o.discount) - Number(o.comp)))
      problems.push(`order ${o.id}: its items no longer cover the shares ${o.shared_out} its share checks owe`);
    if (o.status === 'cancelado' && (Number(o.shared_out) > 0 || Number(o.share_amount) > 0))
      problems.push(`cancelled order ${o.id} is part of an equal split`);
  }
}

function checkMixedPayments({ orders, payments }: Snapshot, problems: string[]): void {
  const byOrder = group(payments, (p) => p.order_id);
  for (const p of payments) {
    // 0 only for an entirely comped order closed without a tip.
    if (!isCents(Number(p.amount)) || Number(p.amount) < 0) problems.push(`payment ${p.id}: amount ${p.amount} is not centavos ≥ 0`);
    if (!isCents(Number(p.tip_amount)) || Number(p.tip_amount) > Number(p.amount))
      problems.push(`payment ${p.id}: tip ${p.tip_amount} outside 0..amount ${p.amount}`);
  }
  for (const order of orders) {
    const own = byOrder.get(order.id) ?? [];
    const sum = own.reduce((acc, p) => acc + Number(p.amount), 0);
    const tips = own.reduce((acc, p) => acc + Number(p.tip_amount), 0);
    if (order.status === 'pagado') {
      if (own.length > 0 && sum !== Number(order.total))
        problems.push(`paid order ${order.id}: payments sum ${sum} ≠ total ${order.total}`);
      if (own.length > 0 && tips !== Number(order.tip)) problems.push(`paid order ${order.id}: payment tips ${tips} ≠ tip ${order.tip}`);
    } else if (order.status === 'activo' && sum - tips > owedOf(order)) {
      problems.push(`open order ${order.id}: parts paid ${sum - tips} exceed what is owed ${owedOf(order)}`);
    }
  }
}

/**
 * Folios: every paid order has one, they are exactly 1..N with no gaps or repeats, only paid
 * orders hold one, and the counter stands at N (a failed close burnt none).
 */
function checkFolios({ orders, counters }: Snapshot, problems: string[]): void {
  const folios: number[] = [];
  for (const order of orders) {
    if (order.status === 'pagado') {
      if (order.folio === null) problems.push(`paid order ${order.id} has no folio`);
      else folios.push(Number(order.folio));
    } else if (order.folio !== null) problems.push(`order ${order.id} (${order.status}) holds folio ${order.folio}`);
  }
  folios.sort((a, b) => a - b);
  folios.forEach((folio, i) => {
    if (folio !== i + 1) problems.push(`folio ${folio} at position ${i + 1}: folios are not consecutive from 1 (gap or repeat)`);
  });
  const counter = counters.find((c) => c.name === 'folio');
  if (Number(counter?.value ?? 0) !== folios.length) problems.push(`folio counter ${counter?.value} ≠ ${folios.length} paid orders`);
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
    // What a charge pays: its own part, or the balance (subtotal less the parts already paid).
    const paidParts = (paymentsByOrder.get(orderId) ?? []).reduce((acc, p) => acc + Number(p.amount) - Number(p.tip_amount), 0);
    for (const c of live) {
      // Discounts and comps come off before the balance.
      const owed =
        Math.max(0, Math.max(0, subtotal - Number(order.discount) - Number(order.comp)) - Number(order.shared_out)) +
        Number(order.share_amount);
      const expected = (c.part_amount === null ? owed - paidParts : Number(c.part_amount)) + Number(c.tip_amount);
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
    // A part of a mixed payment is its order's payment row whether or not it settled the balance.
    if ((order?.status !== 'pagado' && !(c.part_amount !== null && order?.status === 'activo')) || paid.length !== 1)
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
    // A table's other open orders (separate checks, bar tabs) keep active_table_id null: checkChecksAndTabs.
    if (order.status === 'activo' && order.active_table_id !== null && order.active_table_id !== order.table_id) {
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

/**
 * Separate checks and bar tabs (docs/decisions/0014-checks-are-orders.md): every item belongs to
 * exactly one existing order; a table is libre iff none of its orders is activo, and an ocupada
 * table links exactly one of its activo orders; two activo orders share a table only when they
 * were split from the same order (same parent) or the table is the Barra (number 0).
 */
function checkChecksAndTabs({ orders, items, tables }: Snapshot, problems: string[]): void {
  const known = new Set(orders.map((o) => o.id));
  const seen = new Set<string>();
  for (const item of items) {
    if (!known.has(item.order_id)) problems.push(`item ${item.id} belongs to no order (${item.order_id})`);
    if (seen.has(item.id)) problems.push(`item ${item.id} appears twice`);
    seen.add(item.id);
  }
  const activeByTable = group(
    orders.filter((o) => o.status === 'activo'),
    (o) => o.table_id,
  );
  for (const table of tables) {
    const active = activeByTable.get(table.id) ?? [];
    if ((table.status === 'libre') !== (active.length === 0))
      problems.push(`table ${table.number} is ${table.status} with ${active.length} activo order(s)`);
    if (active.length === 0) continue;
    const linking = active.filter((o) => o.active_table_id === table.id);
    if (linking.length !== 1) problems.push(`table ${table.number}: ${linking.length} of its activo orders hold it`);
    if (active.length > 1 && table.number !== 0) {
      const families = new Set(active.map((o) => o.parent_order_id ?? o.id));
      if (families.size > 1) problems.push(`table ${table.number}: ${active.length} activo orders that are not checks of one order`);
    }
  }
}

/**
 * Voids and cancelled orders: a voided row is a deleted row that says who deleted it
 * and when; a cancelled order has no live item, owes nothing and holds no table.
 */
function checkVoids({ orders, items, tables }: Snapshot, problems: string[]): void {
  for (const item of items) {
    if (item.void_reason === null) continue;
    if (Number(item.is_deleted) !== 1 || item.deleted_at === null || item.deleted_by === null)
      problems.push(`voided item ${item.id} is not a deleted row with who and when`);
  }
  const liveByOrder = group(
    items.filter((i) => Number(i.is_deleted) === 0),
    (i) => i.order_id,
  );
  for (const order of orders) {
    if (order.status !== 'cancelado') continue;
    const live = liveByOrder.get(order.id)?.length ?? 0;
    if (live > 0) problems.push(`cancelled order ${order.id} still has ${live} live item(s)`);
    if (order.active_table_id !== null) problems.push(`cancelled order ${order.id} still holds table ${order.active_table_id}`);
    if (order.cancelled_by !== null && Number(order.subtotal) !== 0)
      problems.push(`cancelled order ${order.id}: subtotal ${order.subtotal} ≠ 0`);
  }
  const byId = new Map(orders.map((o) => [o.id, o]));
  for (const table of tables) {
    const linked = table.current_order_id ? byId.get(table.current_order_id) : undefined;
    if (linked?.status === 'cancelado') problems.push(`table ${table.number} still links cancelled order ${linked.id}`);
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

/**
 * Table moves (merge, move items): every item row belongs to exactly one existing order, and an
 * order emptied by a merge ('cancelado' without items) carries no money.
 */
function checkItemsOwned({ orders, items }: Snapshot, problems: string[]): void {
  const known = new Set(orders.map((o) => o.id));
  const byOrder = group(items, (i) => i.order_id);
  const seen = new Set<string>();
  for (const item of items) {
    if (!known.has(item.order_id)) problems.push(`item ${item.id}: unknown order ${item.order_id}`);
    if (seen.has(item.id)) problems.push(`item ${item.id} appears twice`);
    seen.add(item.id);
  }
  for (const order of orders) {
    if (order.status !== 'cancelado' || byOrder.has(order.id)) continue;
    if (Number(order.subtotal) !== 0 || Number(order.total) !== 0)
      problems.push(`cancelado order ${order.id} has no items but subtotal ${order.subtotal}, total ${order.total}`);
  }
}

/**
 * The units of every product line across all orders, by (product, price, status, notes, created_at):
 * a move or merge only changes which order holds them, so this ledger is the same before and after.
 */
export interface UnitLedger {
  rows: number;
  units: number;
  amount: number;
  lines: Record<string, number>;
}

export async function unitLedger(handle: Db | Kysely<Database>): Promise<UnitLedger> {
  const db = 'selectFrom' in handle ? handle : handle.db;
  const items = await db.selectFrom('order_items').selectAll().where('is_deleted', '=', 0).execute();
  const lines: Record<string, number> = {};
  let units = 0;
  let amount = 0;
  for (const i of items) {
    const key = [i.product_id, i.product_price, i.status, i.notes ?? '', i.created_at].join('|');
    lines[key] = (lines[key] ?? 0) + Number(i.quantity);
    units += Number(i.quantity);
    amount += Number(i.quantity) * Number(i.product_price);
  }
  const all = await db.selectFrom('order_items').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows: Number(all.n), units, amount, lines };
}

/** Throws unless two ledgers hold the same units line by line (rows may differ: a split adds one). */
export function assertUnitsAccounted(before: UnitLedger, after: UnitLedger): void {
  const problems: string[] = [];
  if (before.units !== after.units) problems.push(`units ${before.units} → ${after.units}`);
  if (before.amount !== after.amount) problems.push(`amount ${before.amount} → ${after.amount}`);
  for (const key of new Set([...Object.keys(before.lines), ...Object.keys(after.lines)])) {
    if ((before.lines[key] ?? 0) !== (after.lines[key] ?? 0))
      problems.push(`line ${key}: ${before.lines[key] ?? 0} → ${after.lines[key] ?? 0}`);
  }
  if (problems.length) throw new Error(`Units not accounted after a move:\n  ${problems.join('\n  ')}`);
}
function readAdjustments(db: Kysely<Database>) {
  return db.selectFrom('order_adjustments').selectAll().orderBy('order_id').orderBy('id').execute();
}

/**
 * Discounts and comps: an order's cached discount and comp equal the sums of its
 * live adjustments, each adjustment takes off integer centavos ≥ 0, and what is owed
 * (subtotal − discount − comp) is never negative.
 */
function checkAdjustments({ orders, items }: Snapshot, adjustments: Awaited<ReturnType<typeof readAdjustments>>, problems: string[]): void {
  // A line's live discount or comp is on a live line of its own order (it follows
  // moved units, and is removed with voided ones).
  const itemById = new Map(items.map((i) => [i.id, i]));
  for (const a of adjustments) {
    if (a.removed_at !== null || a.item_id === null) continue;
    const item = itemById.get(a.item_id);
    if (!item || item.order_id !== a.order_id)
      problems.push(`adjustment ${a.id} of order ${a.order_id}: its line ${a.item_id} is in another order`);
    else if (Number(item.is_deleted) === 1) problems.push(`adjustment ${a.id} of order ${a.order_id}: its line ${a.item_id} is voided`);
  }
  const live = group(
    adjustments.filter((a) => a.removed_at === null),
    (a) => a.order_id,
  );
  const known = new Set(orders.map((o) => o.id));
  for (const a of adjustments) {
    if (!known.has(a.order_id)) problems.push(`adjustment ${a.id}: unknown order ${a.order_id}`);
    if (!isCents(Number(a.amount))) problems.push(`adjustment ${a.id}: amount ${a.amount} is not integer centavos ≥ 0`);
  }
  for (const order of orders) {
    if (order.status === 'cancelado') continue;
    const own = live.get(order.id) ?? [];
    const sum = (kind: string) => own.filter((a) => a.kind === kind).reduce((acc, a) => acc + Number(a.amount), 0);
    if (Number(order.discount) !== sum('discount'))
      problems.push(`order ${order.id}: discount ${order.discount} ≠ adjustments ${sum('discount')}`);
    if (Number(order.comp) !== sum('comp')) problems.push(`order ${order.id}: comp ${order.comp} ≠ adjustments ${sum('comp')}`);
    if (Number(order.subtotal) - Number(order.discount) - Number(order.comp) < 0)
      problems.push(`order ${order.id}: discounts and comps exceed the subtotal ${order.subtotal}`);
  }
}
