import type { Insertable, Kysely } from 'kysely';
import { stationOf } from '@comanda/domain';
import { randomUUID } from 'node:crypto';
import type {
  CardPaymentsTable,
  PaymentsTable,
  Database,
  DrawerSessionsTable,
  OrderItemsTable,
  OrdersTable,
  PrintersTable,
  PrintJobsTable,
  ProductsTable,
  TablesTable,
} from '../db/schema.ts';
import { newOrderRow } from '../model/orders/new-order.ts';
import { newTableRow } from '../model/tables/new-table.ts';
import { newId } from '../http/ids.ts';
import { DRAWER_ID, OPEN_SESSION_FIELDS } from '../model/drawer/drawer-store.ts';

/**
 * Test data written straight to the database, for tests that must not depend on the routes that
 * normally write it (a close tested on its own, a row "stored before" a rule existed). The one
 * place in the tests that knows the shape of a table, order and order-item row: defaults are what
 * the tables and orders commands write (a free table; an activo order of one person with nothing
 * charged; a live, delivered item that copies the product's name, price and station), and each
 * caller overrides only what its test is about. Tests that can go through HTTP should.
 */

type Writer = Pick<Kysely<Database>, 'insertInto'>;

export interface ProductLike {
  id: string;
  name: string;
  price: number;
  category: string;
}

export interface WaiterLike {
  id: string;
  displayName: string;
}

/** A table row: free and unassigned unless told otherwise. */
export function tableRow(fields: Pick<Insertable<TablesTable>, 'number' | 'created_at'> & Partial<Insertable<TablesTable>>) {
  return { ...newTableRow(fields.number, fields.created_at), ...fields } satisfies Insertable<TablesTable>;
}

/**
 * An order row on a table, by a waiter: the table's one activo order (active_table_id set), one
 * person, nothing charged yet, unless told otherwise.
 */
export function orderRow(
  table: { id: string; number: number },
  waiter: WaiterLike | null,
  fields: Pick<Insertable<OrdersTable>, 'created_at'> & Partial<Insertable<OrdersTable>>,
) {
  const status = fields.status ?? 'activo';
  const waiterRef = { id: waiter?.id ?? null, name: waiter?.displayName ?? null };
  return {
    ...newOrderRow({ id: newId(), table, waiter: waiterRef, linked: status === 'activo', now: fields.created_at }),
    status,
    ...fields,
  } satisfies Insertable<OrdersTable>;
}

/**
 * An order item copying a product as the add-item command does (name, price, category and the
 * category's station): one unit, delivered and live unless told otherwise. `is_deleted: 1` also
 * stamps deleted_at, as a delete does.
 */
export function orderItemRow(
  orderId: string,
  product: ProductLike,
  fields: Pick<Insertable<OrderItemsTable>, 'created_at'> & Partial<Insertable<OrderItemsTable>>,
) {
  const deleted = fields.is_deleted ?? 0;
  return {
    id: newId(),
    order_id: orderId,
    product_id: product.id,
    product_name: product.name,
    product_price: product.price,
    quantity: 1,
    status: 'entregado' as const,
    category: product.category,
    station: stationOf(product.category),
    notes: null,
    is_deleted: deleted,
    deleted_by: null,
    deleted_by_name: null,
    deleted_at: deleted ? fields.created_at : null,
    updated_at: fields.created_at,
    ...fields,
  } satisfies Insertable<OrderItemsTable>;
}

/**
 * A card payment of an order as the card-payments command starts one: on a test terminal, no tip,
 * one person, not yet sent to the provider ('pending', no attempts), unless told otherwise. Tests
 * write one directly to stand for "a charge is on the terminal" without a terminal.
 */
export function cardPaymentRow(
  orderId: string,
  fields: Pick<Insertable<CardPaymentsTable>, 'amount' | 'created_by' | 'created_at'> & Partial<Insertable<CardPaymentsTable>>,
) {
  return {
    id: newId(),
    order_id: orderId,
    terminal_id: 'terminal-test',
    method: 'tarjeta' as const,
    tip_amount: 0,
    tip_bps: 0,
    people_count: 1,
    idempotency_key: randomUUID(),
    provider_id: null,
    provider_payment_id: null,
    state: 'pending',
    status_detail: null,
    attempts: 0,
    error: null,
    updated_at: fields.created_at,
    approved_amount: null,
    ...fields,
  } satisfies Insertable<CardPaymentsTable>;
}

/** Inserts a card payment row (see cardPaymentRow) and returns it. */
export async function insertCardPayment(db: Writer, ...args: Parameters<typeof cardPaymentRow>) {
  const row = cardPaymentRow(...args);
  await db.insertInto('card_payments').values(row).execute();
  return row;
}

/** A cash part paid on an order, taken by `cashier`, exact (no change, no tip) unless told otherwise. */
export async function insertCashPayment(
  db: Writer,
  orderId: string,
  cashier: { id: string; name: string },
  fields: Pick<Insertable<PaymentsTable>, 'amount' | 'created_at'> & Partial<Insertable<PaymentsTable>>,
) {
  const row = {
    id: newId(),
    order_id: orderId,
    method: 'efectivo' as const,
    tip_amount: 0,
    tip_bps: 0,
    reference: null,
    received_amount: fields.amount,
    change_amount: 0,
    cashier_id: cashier.id,
    cashier_name: cashier.name,
    provider_payment_id: null,
    ...fields,
  } satisfies Insertable<PaymentsTable>;
  await db.insertInto('payments').values(row).execute();
  return row;
}

/** Inserts a table row (see tableRow) and returns it. */
export async function insertTable(db: Writer, fields: Parameters<typeof tableRow>[0]) {
  const row = tableRow(fields);
  await db.insertInto('tables').values(row).execute();
  return row;
}

/** Inserts an order row (see orderRow) and returns it. */
export async function insertOrder(db: Writer, ...args: Parameters<typeof orderRow>) {
  const row = orderRow(...args);
  await db.insertInto('orders').values(row).execute();
  return row;
}

/** Inserts order-item rows (see orderItemRow), 100 to a statement, and returns them. */
export async function insertOrderItems(db: Writer, rows: Insertable<OrderItemsTable>[]) {
  for (let i = 0; i < rows.length; i += 100)
    await db
      .insertInto('order_items')
      .values(rows.slice(i, i + 100))
      .execute();
  return rows;
}

/** A product row as the products command writes one: available, no description nor image, unless told otherwise. */
export function productRow(
  fields: Pick<Insertable<ProductsTable>, 'name' | 'price' | 'category' | 'created_at'> & Partial<Insertable<ProductsTable>>,
) {
  return {
    id: newId(),
    description: '',
    image_url: null,
    available: 1,
    updated_at: fields.created_at,
    ...fields,
  } satisfies Insertable<ProductsTable>;
}

/** Inserts a product row (see productRow) unless one with its id is there already; returns the row. */
export async function insertProduct(db: Writer, fields: Parameters<typeof productRow>[0]) {
  const row = productRow(fields);
  await db
    .insertInto('products')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return row;
}

/**
 * A network printer row as the printers command writes one: enabled, ready, 80 mm, at a loopback
 * port where nothing listens (its jobs wait and retry) unless told otherwise.
 */
export function printerRow(fields: Pick<Insertable<PrintersTable>, 'name' | 'role' | 'created_at'> & Partial<Insertable<PrintersTable>>) {
  return {
    id: newId(),
    host: '127.0.0.1',
    port: 9,
    width: 80,
    enabled: 1,
    emulated: 0,
    status: 'listo',
    last_error: null,
    last_error_at: null,
    updated_at: fields.created_at,
    ...fields,
  } satisfies Insertable<PrintersTable>;
}

/**
 * A print job row as enqueue.ts writes one: a comanda waiting, due at once, never tried, unless told
 * otherwise (a printed one passes its state and printed_at).
 */
export function printJobRow(
  fields: Pick<Insertable<PrintJobsTable>, 'id' | 'printer_id' | 'order_id' | 'created_at'> & Partial<Insertable<PrintJobsTable>>,
) {
  return {
    role: 'cocina' as const,
    kind: 'comanda' as const,
    document: '{}',
    state: 'pending' as const,
    attempts: 0,
    next_attempt_at: fields.created_at,
    lease_until: null,
    claim: null,
    maybe_printed: 0,
    last_error: null,
    printed_at: null,
    ...fields,
  } satisfies Insertable<PrintJobsTable>;
}

/** Inserts a printer row (see printerRow); returns it. */
export async function insertPrinter(db: Writer, fields: Parameters<typeof printerRow>[0]) {
  const row = printerRow(fields);
  await db.insertInto('printers').values(row).execute();
  return row;
}

/**
 * The station printers of the one-statement write tests: two kitchen printers and one bar printer,
 * enabled, and a disabled kitchen one (a comanda or a slip goes to each enabled printer of its station).
 */
export async function insertStationPrinters(db: Writer, now: number) {
  const rows = [];
  for (const [name, role, enabled] of [
    ['Cocina A', 'cocina', 1],
    ['Cocina B', 'cocina', 1],
    ['Barra', 'barra', 1],
    ['Cocina apagada', 'cocina', 0],
  ] as const)
    rows.push(await insertPrinter(db, { name, role, enabled, created_at: now }));
  return rows;
}

/**
 * An open session of the main drawer with a $500 float and no count of it, unless
 * told otherwise. Tests write one directly to stand for "the cashier opened the drawer".
 */
export function drawerSessionRow(
  fields: Pick<Insertable<DrawerSessionsTable>, 'id' | 'opened_by' | 'opened_by_name' | 'opened_at'> &
    Partial<Insertable<DrawerSessionsTable>>,
) {
  return {
    drawer_id: DRAWER_ID,
    open_drawer_id: DRAWER_ID,
    status: 'abierta' as const,
    float_amount: 50_000,
    float_count: '{}',
    ...OPEN_SESSION_FIELDS,
    ...fields,
  } satisfies Insertable<DrawerSessionsTable>;
}

/** Inserts a drawer session row (see drawerSessionRow) and returns it. */
export async function insertDrawerSession(db: Writer, fields: Parameters<typeof drawerSessionRow>[0]) {
  const row = drawerSessionRow(fields);
  await db.insertInto('drawer_sessions').values(row).execute();
  return row;
}
