import { PostgresAdapter, sql, type Expression, type Kysely, type QueryCreator, type SqlBool, type Updateable } from 'kysely';
import type { Order, TableLiveCard } from '@comanda/contract';
import {
  changeDue,
  chargeFigures,
  checkoutGate,
  clampGuests,
  cents,
  dominantMethod,
  formatMXN,
  isCashSufficient,
  orderTotal,
  owedAmount,
  PARTIAL_PAYMENT_MESSAGES,
  paymentsTip,
  type Cents,
  type PaymentMethod,
  type TaxBreakdown,
} from '@comanda/domain';
import type { Database, OrderAdjustmentRow, OrderItemRow, OrderRow, OrdersTable, PaymentRow } from '../../db/schema.ts';
import type { AppContext } from '../../http/context.ts';
import type { Emit, Trx } from '../../http/transaction.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { auditInsert } from '../../http/audit.ts';
import { newId } from '../../http/ids.ts';
import { enqueueReceipt } from '../printing/enqueue.ts';
import { CONFIG_READ_TOGETHER, rememberConfig } from '../config-store.ts';
import { ORDER_CLOSED, ORDER_NOT_FOUND } from '../orders/order-repository.ts';
import { presentItem, presentOrder } from '../orders/order-presenter.ts';
import { emitOrderChanged } from '../orders/order-events.ts';
import { linesOf, liveAdjustmentRows, recomputeAdjustments } from '../orders/order-adjustments.ts';
import { compiledOnce, firstRow, insertRider, type Rider } from '../../db/compiled.ts';
import {
  lockTableOfOrder,
  OTHER_WAITERS,
  releasedCard,
  releaseSteps,
  releaseTableLinkInTurn,
  type LinkedTable,
} from '../orders/table-link.ts';
import { lockTableRefusingCardCharges } from '../orders/card-charges.ts';
import { businessTimezone, paidOrderRollups } from '../reports/rollups.ts';
import { rollupsCall, upsertRollups } from '../reports/rollup-set.ts';
import { attachToDrawer } from '../drawer/drawer-store.ts';
import { amountOwed } from './amount-owed.ts';
import { asParts, balanceOf, orderPayments } from './order-payments.ts';
import { MESSAGES } from '../../http/messages.ts';
import { defaultTreatment } from '../fiscal-store.ts';
import { closingBreakdown, itemsBreakdown, productTaxRows, type ProductTax } from './tax-breakdown.ts';

export const CHECKOUT_MESSAGES = MESSAGES.checkout;

export interface CloseOrderInput {
  orderId: string;
  /** The id for the payment row (the caller attaches it to the drawer); a new one when omitted. */
  paymentId?: string;
  method: PaymentMethod;
  tipBps: number;
  /** The table's guests when the close changes them; null: they stay as set on the order. */
  peopleCount: number | null;
  /** What the checkout's calculator divided the check by; null or absent: not divided. */
  splitCount?: number | null;
  /** Cash only: centavos handed over; null for card and transfer. */
  receivedAmount: number | null;
  /** Who took the money: the PIN user, or the card terminal ('mp-terminal'). */
  cashier: { id: string; name: string | null };
  providerPaymentId: string | null;
  /** The signed-in user who asked for the close; null when the server closes by itself (card). */
  actor: { id: string; displayName: string } | null;
  emit: Emit;
  /**
   * Card only: what the terminal already charged. The order's total becomes exactly that (the
   * tip is what it holds beyond the items), so the recorded payment is the money taken.
   */
  chargedTotal?: number;
  /** Card only: the money is already taken, so an item moved back on a board does not refuse it. */
  allowUndelivered?: boolean;
  /**
   * How the close takes the table's lock ('plain' when omitted). A cash close refuses while a card
   * charge may still take the money or awaits review, told by that lock, which it takes with its
   * key's claim: 'held' (claimKeyLockingTable).
   */
  tableLock?: TableLock;
  /** The order as the caller already claimed it (claimOpenOrder's row), its table's lock held: not claimed again. */
  claimed?: ClaimedOrder;
  /** Cash: the payment joins the drawer's open session. */
  drawer?: DrawerHook;
}

export const CHARGE_SHORT = (charged: number, subtotal: number) =>
  `El cobro aprobado (${formatMXN(cents(charged))}) no cubre los productos de la orden (${formatMXN(cents(subtotal))}).`;

/**
 * The one close of an order, for cash and card alike, inside the caller's transaction.
 * It claims the order with a conditional update first, so of two concurrent closes exactly one
 * sees it activo; the other waits for the row lock (PostgreSQL) or the write lock (SQLite) and
 * then gets 'La orden ya fue pagada'. Every amount is recomputed here from the item rows.
 * Mixed payments: the close is "one payment for the whole balance" — the
 * balance is the amount owed minus the parts already paid (none in the SPEC flow, so it is
 * the subtotal); the tip is on that payment. finishPaidOrder then marks the order paid.
 */
export async function closeOrderInTx(ctx: AppContext, trx: Trx, input: CloseOrderInput): Promise<Order> {
  const now = ctx.clock.now();
  const claimed = input.claimed ?? (await claimOpenOrder(trx, input.orderId, now, input.tableLock));
  const state = await checkoutState(trx, claimed, input.allowUndelivered === true);
  const { balance } = state;
  // Nothing left to pay after parts already paid: settled. An order owing 0 from the start (an
  // entirely comped one) still closes here, with one payment of its tip (maybe 0).
  if (balance <= 0 && (state.payments.length > 0 || state.owed > 0)) throw conflict(PARTIAL_PAYMENT_MESSAGES.settled, 'order_settled');

  if (input.chargedTotal !== undefined && input.chargedTotal < balance)
    throw conflict(CHARGE_SHORT(input.chargedTotal, balance), 'charge_short');
  const { tipBps, tip, total: amount } = chargeFigures(balance, { bps: input.tipBps, chargedTotal: input.chargedTotal });
  const payment = paymentRow({ ...input, figures: { tipBps, tip, total: amount }, reference: null, now });
  // Nothing reads the payment back before the close's last statement: its INSERT rides on it.
  return finishPaidOrder(ctx, trx, {
    claimed,
    state,
    payments: [...state.payments, payment],
    last: payment,
    peopleCount: input.peopleCount,
    splitCount: input.splitCount ?? null,
    actor: input.actor,
    emit: input.emit,
    riders: [paymentInsert(trx, payment)],
    ...(input.drawer ? { drawer: input.drawer } : {}),
  });
}

export interface ClaimedOrder {
  id: string;
  table_id: string;
  version: number;
  waiter_id: string | null;
  people_count: number;
  discount: number;
  comp: number;
  share_amount: number;
  shared_out: number;
}

/**
 * How a claim takes the table's row lock: plainly, refusing first a card charge that may still
 * take the money (or awaits review), or not at all because the caller already holds it (and
 * refused card charges from it).
 */
export type TableLock = 'plain' | 'refusing-card-charges' | 'held';

/** Locks the activo order (version + 1) or refuses: 'La orden ya fue pagada' / closed / not found. */
export async function claimOpenOrder(trx: Trx, orderId: string, now: number, lock: TableLock = 'plain'): Promise<ClaimedOrder> {
  // Separate checks and bar tabs: the table's row lock first, then the order's.
  if (lock === 'refusing-card-charges') await lockTableRefusingCardCharges(trx, orderId, now);
  else if (lock === 'plain') await lockTableOfOrder(trx, orderId, now);
  const claimed = await claimOrder(trx, { orderId, now }).executeTakeFirst();
  if (!claimed) throw await notOpen(trx, orderId);
  return claimed;
}

/**
 * The claim's UPDATE: an activo order's version bumped and its row locked, returning what the close
 * needs of it; `when` (a condition of the caller's statement) may hold it back.
 */
export const claimOrder = (db: QueryCreator<Database>, a: { orderId: string; now: number }, when?: Expression<SqlBool>) =>
  db
    .updateTable('orders')
    .set({ version: sql<number>`version + 1`, updated_at: a.now })
    .where('id', '=', a.orderId)
    .where('status', '=', 'activo')
    .$if(when !== undefined, (qb) => qb.where(when!))
    .returning(['id', 'table_id', 'version', 'waiter_id', 'people_count', 'discount', 'comp', 'share_amount', 'shared_out']);

export interface CheckoutState {
  /** Every line of the order (deleted ones too), in the order's reading order. */
  items: OrderItemRow[];
  /** The live discounts and comps, with the amounts recomputed here. */
  adjustments: OrderAdjustmentRow[];
  subtotal: Cents;
  /** Discounts and comps, recomputed on the items as they are now. */
  discount: number;
  comp: number;
  owed: Cents;
  payments: PaymentRow[];
  balance: Cents;
  /** The enabled caja printers when they were read with the order's rows (PostgreSQL). */
  receiptPrinters?: PrinterRef[] | undefined;
  /** The taxes of the products the lines name, for the breakdown frozen at the close. */
  productTaxes: ProductTax[];
}

/**
 * Read after claimOpenOrder (the row lock), so an item added while paying is seen: the SPEC's
 * payment gate, the subtotal from the item rows, the amount owed and the payments so far.
 */
export async function checkoutState(trx: Trx, claimed: ClaimedOrder, allowUndelivered: boolean): Promise<CheckoutState> {
  const orderId = claimed.id;
  const read = await checkoutRows(trx, orderId);
  const { subtotal, rows: items } = gateItems(read.items, claimed, allowUndelivered);
  const payments = read.payments;
  const known = { rows: read.adjustments, lines: linesOf(items) };
  const { discount, comp, rows: adjustments } = await recomputeAdjustments(trx, orderId, claimed, known);
  const figures = { subtotal, discount, comp, share_amount: claimed.share_amount, shared_out: claimed.shared_out };
  const owed = amountOwed(figures);
  const balance = balanceOf(figures, payments);
  return {
    items,
    adjustments,
    subtotal,
    discount,
    comp,
    owed,
    payments,
    balance,
    receiptPrinters: read.receiptPrinters,
    productTaxes: read.productTaxes,
  };
}

export interface CheckoutRows {
  items: OrderItemRow[];
  payments: PaymentRow[];
  adjustments: OrderAdjustmentRow[];
  /** PostgreSQL: the enabled caja printers, read with the rest for the close's ticket (SQLite: read when printing). */
  receiptPrinters?: PrinterRef[];
  /** The taxes of the products the lines name (the close's tax breakdown). */
  productTaxes: ProductTax[];
}

type PrinterRef = { id: string; role: string };
type SettingRow = { key: string; value: string };

/**
 * PostgreSQL: the order's lines, payments and live adjustments in one round trip, each a JSON list
 * in its reading order, with the enabled caja printers (by id, as enqueueReceipt reads them) and
 * the settings the close reads later ('general', 'drawer'). Their columns are text, integer and
 * bigint, so each row comes back with the same names and values as `selectAll()` gives (int8 is
 * read as a number either way).
 */
const checkoutRowsStatement = compiledOnce((db, a: { orderId: string }) => {
  const items = sql<OrderItemRow[]>`(SELECT COALESCE(json_agg(i ORDER BY i.created_at, i.id), '[]'::json)
    FROM order_items i WHERE i.order_id = ${a.orderId})`;
  const payments = sql<PaymentRow[]>`(SELECT COALESCE(json_agg(p ORDER BY p.created_at, p.id), '[]'::json)
    FROM payments p WHERE p.order_id = ${a.orderId})`;
  const adjustments = sql<OrderAdjustmentRow[]>`(SELECT COALESCE(json_agg(j ORDER BY j.created_at, j.id), '[]'::json)
    FROM order_adjustments j WHERE j.order_id = ${a.orderId} AND j.removed_at IS NULL)`;
  const printers = sql<PrinterRef[]>`(SELECT COALESCE(json_agg(json_build_object('id', r.id, 'role', r.role) ORDER BY r.id), '[]'::json)
    FROM printers r WHERE r.role = 'caja' AND r.enabled = 1)`;
  const taxes = sql<ProductTax[]>`(SELECT COALESCE(json_agg(json_build_object('id', p.id, 'tax_treatment', p.tax_treatment,
    'ieps_rate_bp', p.ieps_rate_bp) ORDER BY p.id), '[]'::json)
    FROM products p WHERE p.id IN (SELECT t.product_id FROM order_items t WHERE t.order_id = ${a.orderId}))`;
  const settings = sql<SettingRow[]>`(SELECT COALESCE(json_agg(json_build_object('key', c.key, 'value', c.value)), '[]'::json)
    FROM config c WHERE c.key IN (${sql.join(CONFIG_READ_TOGETHER.map((key) => sql.lit(key)))}))`;
  return db.selectNoFrom([
    items.as('items'),
    payments.as('payments'),
    adjustments.as('adjustments'),
    printers.as('receipt_printers'),
    taxes.as('product_taxes'),
    settings.as('settings'),
  ]);
});

/**
 * What a close reads of the order under its lock: every line (deleted ones too), the payments so
 * far and the live adjustments, each oldest first. One statement on PostgreSQL (a round trip each
 * was three, and the close's ticket read its printers in a fourth); SQLite reads them in turn, in
 * process, and the ticket its printers. `taxes: false` (a card start, which freezes no breakdown)
 * spares SQLite the products' read.
 */
export async function checkoutRows(trx: Trx, orderId: string, { taxes = true } = {}): Promise<CheckoutRows> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    const row = await firstRow(checkoutRowsStatement, trx, { orderId });
    // The settings the close reads later (the reports' time zone, the ticket's name, the drawer's rule).
    rememberConfig(trx, row?.settings ?? []);
    return {
      items: row?.items ?? [],
      payments: row?.payments ?? [],
      adjustments: row?.adjustments ?? [],
      receiptPrinters: row?.receipt_printers ?? [],
      productTaxes: row?.product_taxes ?? [],
    };
  }
  const items = await orderItemRows(trx, orderId);
  return {
    items,
    payments: await orderPayments(trx, orderId),
    adjustments: await liveAdjustmentRows(trx, orderId),
    productTaxes: taxes
      ? await productTaxRows(
          trx,
          items.map((i) => i.product_id),
        )
      : [],
  };
}

/** Every line of the order, deleted ones too, oldest first. */
export function orderItemRows(trx: Trx, orderId: string): Promise<OrderItemRow[]> {
  return trx.selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute();
}

/**
 * The order's items through the payment gate (SPEC §4), refused with its Spanish message; the
 * subtotal of the non-deleted items when it opens. Used by every close and every card charge.
 */
export async function gatedItems(
  trx: Trx,
  order: { id: string; share_amount: number | string | bigint },
  allowUndelivered = false,
): Promise<{ subtotal: Cents; rows: OrderItemRow[] }> {
  return gateItems(await orderItemRows(trx, order.id), order, allowUndelivered);
}

/** gatedItems for lines the caller read under the lock already (checkoutRows). */
export function gateItems(
  rows: OrderItemRow[],
  order: { share_amount: number | string | bigint },
  allowUndelivered: boolean,
): { subtotal: Cents; rows: OrderItemRow[] } {
  // An equal-share check has no items of its own and may be paid.
  const gate = checkoutGate(rows.map(presentItem), { allowUndelivered, shareAmount: Number(order.share_amount) });
  if (!gate.ok) throw conflict(gate.message, gate.reason === 'empty' ? 'order_empty' : 'items_undelivered');
  return { subtotal: gate.subtotal, rows };
}

/**
 * The payments now cover the amount owed: the order becomes pagado with the next folio (from
 * the `counters` row, incremented in this transaction, so a close that rolls back gives its
 * folio back and folios have no gaps), tip = the payments' tips, total = owed + tips; the
 * table is freed, the ticket printed and everyone told.
 */
export async function finishPaidOrder(
  ctx: AppContext,
  trx: Trx,
  input: {
    claimed: ClaimedOrder;
    state: CheckoutState;
    payments: PaymentRow[];
    /** The payment that settled the balance. */
    last: PaymentRow;
    peopleCount: number | null;
    /** The calculator's split, kept apart from the guests (the ticket's "Dividido entre N"). */
    splitCount?: number | null;
    actor: { id: string; displayName: string } | null;
    emit: Emit;
    /** Writes not yet run that go along with the close's last statement (the settling payment's INSERT). */
    riders?: readonly Rider[];
    drawer?: DrawerHook;
  },
): Promise<Order> {
  const now = ctx.clock.now();
  const { claimed, state, payments, last } = input;
  const orderId = claimed.id;
  const parts = asParts(payments);
  const tip = paymentsTip(parts);
  const total = orderTotal(state.owed, tip);
  const figures: PaidFigures = {
    status: 'pagado',
    active_table_id: null,
    payment_method: dominantMethod(payments.map((p) => ({ method: p.method, amount: Number(p.amount) }))) ?? last.method,
    people_count: clampGuests(input.peopleCount ?? Number(claimed.people_count)),
    split_count: input.splitCount ?? null,
    subtotal: state.subtotal,
    discount: state.discount,
    comp: state.comp,
    tip,
    total,
    completed_at: now,
    updated_at: now,
    // The taxes included in what it charged, frozen: a later price or rate change never alters them.
    tax_breakdown: JSON.stringify(await paidBreakdown(trx, claimed, state)),
  };
  // Only a table that still points at this order is freed; one reopened meanwhile is left alone.
  // Separate checks and bar tabs: while another order of the table is activo, the table
  // stays ocupada and its link moves to that order; the last one paid frees it.
  const { paid, table } = await markPaidReleasingTable(trx, { orderId, tableId: claimed.table_id, now, figures });
  const folio = Number(paid.folio);
  // The owner reports' summary rows, in this transaction.
  // The order as it now stands is in hand: the paid row, the lines and adjustments read under the
  // order's lock (the close changes neither), the payments with the one that settled it.
  const paidOrder = { row: paid, items: state.items, payments: byCreation(payments), adjustments: state.adjustments };
  // The audit entry and the ticket's jobs go along with the rollups' statement: one round trip on PostgreSQL.
  const riders: Rider[] = [
    ...(input.riders ?? []),
    auditInsert(trx, now, {
      actor: input.actor,
      action: 'order.closed',
      entity: 'order',
      entityId: orderId,
      authorizedBy: last.cashier_id,
      data: {
        method: last.method,
        subtotal: state.subtotal,
        discount: state.discount,
        comp: state.comp,
        tip,
        tipBps: last.tip_bps,
        total,
        folio,
        payments: payments.length,
        receivedAmount: last.received_amount,
        change: last.change_amount,
        cashierName: last.cashier_name,
        providerPaymentId: last.provider_payment_id,
      },
    }),
  ];
  const defer = (insert: Rider) => riders.push(insert);
  await enqueueReceipt(trx, { orderId, now, paid: paidOrder, printers: state.receiptPrinters, defer });
  const rollups = paidOrderRollups(paidOrder, await businessTimezone(ctx, trx));
  const version = Number(claimed.version);
  const closed = presentOrder(paidOrder.row, paidOrder.items, paidOrder.payments, paidOrder.adjustments);
  // The drawer's events go out after the close's own, as when the caller attached the payment after the close.
  const drawerEvents: Parameters<Emit>[0][] = [];
  const drawer = input.drawer && {
    attach: { orderId, now, emit: (e: Parameters<Emit>[0]) => void drawerEvents.push(e), paymentId: last.id },
    riders: input.drawer.riders(closed),
  };
  const call = drawer ? rollupsCall(trx, rollups) : null;
  if (drawer && call) {
    // PostgreSQL: the rollups' call, the payment, audit entry and ticket jobs, the drawer's lock and
    // link and the caller's riders (its stored answer) in one statement.
    await attachToDrawer(trx, { ...drawer.attach, riders: [...riders, ...drawer.riders], along: call });
  } else {
    await upsertRollups(trx, rollups, { oneCall: true, riders });
    if (drawer) await attachToDrawer(trx, { ...drawer.attach, riders: drawer.riders });
  }
  // The boards show only active orders' lines (and their recent voids): every line of a paid
  // order leaves them, which they patch from the event instead of reading again.
  const removed = closed.items.map((i) => i.id);
  emitOrderChanged(input.emit, orderId, version, { owner: claimed.waiter_id, board: true, lines: { lines: [], removed } });
  // Only this order's waiter's orders changed (a table handed to another order names its new waiter).
  // The table's card as the release left it: nothing later in a close changes the table.
  input.emit({
    topic: 'tables',
    type: 'table.updated',
    id: claimed.table_id,
    version,
    changedOrdersOf: claimed.waiter_id,
    ...(table ? { table } : {}),
  });
  input.emit({ topic: 'tickets', type: 'ticket.created', id: orderId, version });
  for (const event of drawerEvents) input.emit(event);
  return closed;
}

/**
 * The check's tax breakdown at its close, from the lines, adjustments and product taxes read under
 * its lock; an order split into equal shares, or a share check, reads what the split stored.
 */
async function paidBreakdown(trx: Trx, claimed: ClaimedOrder, state: CheckoutState) {
  const items = await itemsBreakdown(trx, { items: state.items, adjustments: state.adjustments, taxes: state.productTaxes });
  const sharedOut = cents(Number(claimed.shared_out));
  const shareAmount = cents(Number(claimed.share_amount));
  if (sharedOut === 0 && shareAmount === 0) return items;
  const row = await trx.selectFrom('orders').select('tax_breakdown').where('id', '=', claimed.id).executeTakeFirst();
  return closingBreakdown({
    items,
    itemsOwed: owedAmount({ subtotal: state.subtotal, discounts: state.discount, comps: state.comp }),
    sharedOut,
    shareAmount,
    stored: row?.tax_breakdown ? (JSON.parse(row.tax_breakdown) as TaxBreakdown) : null,
    fallback: await defaultTreatment(trx),
  });
}

/**
 * A cash close's drawer (attachToDrawer): the settling payment joins the open session, and `riders`
 * (made from the closed order: the caller's stored answer) go along with that statement.
 */
export interface DrawerHook {
  riders: (closed: Order) => readonly Rider[];
}

/** Payments in the order the order's reads give them: by creation, then id. */
function byCreation(payments: readonly PaymentRow[]): PaymentRow[] {
  return [...payments].sort((a, b) => Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

type PaidFigures = Omit<Updateable<OrdersTable>, 'folio'>;

/** The order's paid row with the next folio (nextFolio). */
async function markPaid(trx: Trx, orderId: string, figures: PaidFigures): Promise<OrderRow> {
  return trx
    .updateTable('orders')
    .set({ ...figures, folio: await nextFolio(trx) })
    .where('id', '=', orderId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The order's paid row (markPaid), then its table released (releaseTableLink). On PostgreSQL one
 * statement: the folio's counter, the order's UPDATE and the release's CTEs (releaseSteps). The
 * release reads the table's other activo orders, never this one, and the close holds the table's
 * lock, so its snapshot, taken with the order's UPDATE, sees what a statement after it saw.
 */
export async function markPaidReleasingTable(trx: Trx, input: PaidRelease): Promise<PaidReleased> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return markPaidReleasingTableInTurn(trx, input);
  const { orderId, tableId, now, figures } = input;
  const set = Object.entries(figures).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
  const { rows } = await sql<OrderRow & { released: LinkedTable | null; other_waiters: (string | null)[] }>`
    WITH next_folio AS (UPDATE counters SET value = value + 1 WHERE name = 'folio' RETURNING value),
    paid AS (
      UPDATE orders SET ${sql.join(set)}, folio = (SELECT value FROM next_folio)
      WHERE id = ${orderId}
      RETURNING *
    ),
    ${releaseSteps(tableId, orderId, now)}
    SELECT paid.*, (SELECT row_to_json(l) FROM linked l) AS released, ${OTHER_WAITERS} AS other_waiters FROM paid`.execute(trx);
  const row = rows[0];
  if (!row) throw new Error(`markPaidReleasingTable: order ${orderId} not found`);
  const { released, other_waiters: waiters, ...written } = row;
  const table = releasedCard(released, waiters);
  // No counter yet (a database older than its migration's first row): the first folio, as nextFolio gives it.
  if (written.folio === null) return { paid: await markPaid(trx, orderId, figures), table };
  return { paid: written, table };
}

/** markPaidReleasingTable in turn: the folio, the order's UPDATE, then the release in turn (SQLite's way, the rule's reference). */
export async function markPaidReleasingTableInTurn(trx: Trx, { orderId, tableId, now, figures }: PaidRelease): Promise<PaidReleased> {
  const paid = await markPaid(trx, orderId, figures);
  return { paid, table: await releaseTableLinkInTurn(trx, tableId, orderId, now) };
}

/** The order leaving its table paid: its figures, and the table it leaves at `now`. */
interface PaidRelease {
  orderId: string;
  tableId: string;
  now: number;
  figures: PaidFigures;
}

/** The paid row as written, and the table's live card as the release left it (null: left alone). */
type PaidReleased = { paid: OrderRow; table: TableLiveCard | null };

/** The next folio, inside the caller's transaction (the counter row's lock orders concurrent closes). */
async function nextFolio(trx: Trx): Promise<number> {
  const row = await trx
    .updateTable('counters')
    .set({ value: sql<number>`value + 1` })
    .where('name', '=', 'folio')
    .returning('value')
    .executeTakeFirst();
  if (row) return Number(row.value);
  await trx.insertInto('counters').values({ name: 'folio', value: 1 }).execute();
  return 1;
}

export function cashFigures(
  input: Pick<CloseOrderInput, 'method' | 'receivedAmount'>,
  total: number,
): { received: number | null; change: number | null } {
  if (input.method !== 'efectivo') return { received: null, change: null };
  if (input.receivedAmount === null) throw new AppError(422, 'cash_missing', CHECKOUT_MESSAGES.cashMissing);
  const received = cents(input.receivedAmount);
  if (!isCashSufficient(received, cents(total))) throw new AppError(422, 'cash_short', CHECKOUT_MESSAGES.cashShort);
  return { received, change: changeDue(received, cents(total)) };
}

type PaymentInput = Pick<CloseOrderInput, 'orderId' | 'paymentId' | 'method' | 'receivedAmount' | 'cashier' | 'providerPaymentId'> & {
  figures: { tipBps: number; tip: number; total: number };
  reference: string | null;
  now: number;
};

/**
 * The payment row of a close or of one part of a mixed payment: the charge's figures, the
 * cash handed over and its change (refused when short), and who took the money.
 */
export async function insertPayment(trx: Trx, p: PaymentInput): Promise<PaymentRow> {
  const payment = paymentRow(p);
  await paymentStatement(trx, payment);
  return payment;
}

const insertPaymentRow = (db: Kysely<Database>, row: PaymentRow) => db.insertInto('payments').values(row);
// Every column a slot of its own: the statement is one text whatever the payment.
const paymentStatement = compiledOnce((db, a: PaymentRow) =>
  insertPaymentRow(db, {
    id: a.id,
    order_id: a.order_id,
    method: a.method,
    amount: a.amount,
    received_amount: a.received_amount,
    change_amount: a.change_amount,
    tip_amount: a.tip_amount,
    tip_bps: a.tip_bps,
    cashier_id: a.cashier_id,
    cashier_name: a.cashier_name,
    provider_payment_id: a.provider_payment_id,
    created_at: a.created_at,
    reference: a.reference,
  }),
);

/** The payment's INSERT, not yet run: the close sends it along with its last statement (finishPaidOrder's riders). */
function paymentInsert(trx: Trx, payment: PaymentRow): Rider {
  return insertRider(trx, payment, insertPaymentRow, paymentStatement);
}

/** The payment row (insertPayment's), refused with its Spanish message when the cash is short. */
function paymentRow(p: PaymentInput): PaymentRow {
  const cash = cashFigures(p, p.figures.total);
  const payment: PaymentRow = {
    id: p.paymentId ?? newId(),
    order_id: p.orderId,
    method: p.method,
    amount: p.figures.total,
    received_amount: cash.received,
    change_amount: cash.change,
    tip_amount: p.figures.tip,
    tip_bps: p.figures.tipBps,
    cashier_id: p.cashier.id,
    cashier_name: p.cashier.name,
    provider_payment_id: p.providerPaymentId,
    created_at: p.now,
    reference: p.reference,
  };
  return payment;
}

export async function notOpen(trx: Trx, orderId: string): Promise<AppError> {
  const row = await trx.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirst();
  if (!row) return notFound(ORDER_NOT_FOUND);
  return row.status === 'pagado' ? conflict(CHECKOUT_MESSAGES.alreadyPaid, 'order_paid') : conflict(ORDER_CLOSED, 'order_closed');
}
