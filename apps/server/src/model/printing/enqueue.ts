import {
  cents,
  clampGuests,
  modifierLabel,
  perPersonAmount,
  splitDiffers,
  shortOrderId,
  tableLabel,
  ticketNumber,
  type SelfInvoiceLine,
  type TaxBreakdown,
} from '@comanda/domain';
import { readModifiers } from '../modifiers/modifier-store.ts';
import { getGeneralConfig } from '../config-store.ts';
import type { Trx } from '../../http/transaction.ts';
import type { Database, OrderItemRow, OrderRow, PaymentRow, PrintJobsTable } from '../../db/schema.ts';
import { sql, type Kysely, type Selectable } from 'kysely';
import { compiledOnce, insertRider, type Rider } from '../../db/compiled.ts';
import { newId } from '../../http/ids.ts';
import { afterCommit } from '../../db/transact.ts';
import type {
  ComandaDocument,
  ComandaLine,
  CorteDocument,
  JobKind,
  MovementDocument,
  PrintDocument,
  PrinterRole,
  ReceiptDocument,
} from './documents.ts';

/**
 * Print jobs are rows written in the transaction of the change that causes them: the comanda
 * exists exactly when the item does (docs/decisions/0012-print-jobs-exactly-once.md). The worker
 * delivers them after commit; nothing here talks to a printer.
 */

async function enabledPrinters(trx: Trx, role: PrinterRole) {
  return trx.selectFrom('printers').select(['id', 'role']).where('role', '=', role).where('enabled', '=', 1).orderBy('id').execute();
}

// Built once: the add's and the delete's statements carry them on the hot path.
const STATION_PRINTERS_JSON = {
  postgres: sql<unknown>`(SELECT json_agg(json_build_object('id', id, 'role', role)) FROM printers WHERE role IN ('cocina', 'barra') AND enabled = 1)`,
  sqlite: sql<unknown>`(SELECT json_group_array(json_object('id', id, 'role', role)) FROM printers WHERE role IN ('cocina', 'barra') AND enabled = 1)`,
};

/** The enabled station printers (cocina, barra) as one JSON column of a statement run anyway: a read fewer. */
export function stationPrintersColumn(postgres: boolean) {
  return postgres ? STATION_PRINTERS_JSON.postgres : STATION_PRINTERS_JSON.sqlite;
}

/** The printers of `stationPrintersColumn` as it came back (PostgreSQL: parsed, or null for none; SQLite: text). */
export function stationPrintersOf(value: unknown): { id: string; role: string }[] {
  const list = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(list) ? (list as { id: string; role: string }[]) : [];
}

type NewJob = { printerId: string; role: PrinterRole; orderId: string | null; kind: JobKind; document: PrintDocument; now: number };

export async function insertJob(trx: Trx, job: NewJob): Promise<string> {
  const { id, insert } = jobInsert(trx, job);
  await insert.execute();
  return id;
}

/** Told, after commit, that a transaction wrote print jobs, and for which printer roles: the print workers of this process. */
const jobsWritten = new Set<(roles: ReadonlySet<string>) => void>();

/** Calls `listener` after every commit that wrote print jobs, with the roles of their printers; returns the unsubscribe. */
export function onPrintJobsCommitted(listener: (roles: ReadonlySet<string>) => void): () => void {
  jobsWritten.add(listener);
  return () => jobsWritten.delete(listener);
}

/** Wakes the print workers for the printers of `roles`: call only once the jobs' rows are committed (a write that made them outside `jobInsert`). */
export const tellPrintWorkers = (roles: Iterable<string>) => {
  const woken = new Set(roles);
  for (const listener of jobsWritten) listener(woken);
};

/** The printer roles a transaction wrote jobs for, told to the workers once at its commit. */
const rolesByTransaction = new WeakMap<object, Set<string>>();

function wakeAtCommit(trx: Trx, role: string): void {
  let roles = rolesByTransaction.get(trx);
  if (!roles) {
    const written = (roles = new Set<string>());
    rolesByTransaction.set(trx, written);
    afterCommit(trx, () => {
      rolesByTransaction.delete(trx);
      tellPrintWorkers(written);
    });
  }
  roles.add(role);
}

/** What a new job's row carries; its state and delivery columns start the same for every job. */
type JobRow = Pick<Selectable<PrintJobsTable>, 'id' | 'printer_id' | 'role' | 'order_id' | 'kind' | 'document' | 'created_at'>;

const insertJobRow = (db: Kysely<Database>, row: JobRow) =>
  db.insertInto('print_jobs').values({
    ...row,
    state: 'pending',
    attempts: 0,
    next_attempt_at: row.created_at,
    lease_until: null,
    claim: null,
    maybe_printed: 0,
    last_error: null,
    printed_at: null,
  });
const jobStatement = compiledOnce((db, a: JobRow) =>
  insertJobRow(db, {
    id: a.id,
    printer_id: a.printer_id,
    role: a.role,
    order_id: a.order_id,
    kind: a.kind,
    document: a.document,
    created_at: a.created_at,
  }),
);

/** A print job's INSERT, not yet run, and the job's id. Its commit wakes the print workers. */
export function jobInsert(trx: Trx, job: NewJob): { id: string; insert: Rider } {
  const id = newId();
  wakeAtCommit(trx, job.role);
  const row: JobRow = {
    id,
    printer_id: job.printerId,
    role: job.role,
    order_id: job.orderId,
    kind: job.kind,
    document: JSON.stringify(job.document),
    created_at: job.now,
  };
  return { id, insert: insertRider(trx, row, insertJobRow, jobStatement) };
}

async function orderHeader(trx: Trx, orderId: string) {
  const order = await trx
    .selectFrom('orders')
    .select(['id', 'table_number', 'table_name', 'waiter_name', 'people_count'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return headerOf(order);
}

function headerOf(order: KnownForComanda['order'] & {}) {
  return {
    table: order.table_name ?? tableLabel(order.table_number),
    waiter: order.waiter_name,
    guests: order.people_count,
    orderShortId: shortOrderId(order.id),
  };
}

/**
 * What the caller of a comanda already holds in its transaction (an add: the enabled station
 * printers read with the product, its new row, the locked order): each one given is a read fewer.
 * The items must be exactly the rows of `itemIds`.
 */
export interface KnownForComanda {
  printers?: readonly { id: string; role: string }[];
  items?: readonly Pick<OrderItemRow, 'id' | 'station' | 'quantity' | 'product_name' | 'notes' | 'modifiers' | 'created_at'>[];
  order?: Pick<OrderRow, 'id' | 'table_number' | 'table_name' | 'waiter_name' | 'people_count'>;
  /** Takes each job's INSERT instead of running it: the caller sends them with its next statement (an add's touchOrderRow). */
  defer?: (insert: Rider) => void;
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byCreation = (a: { created_at: number; id: string }, b: { created_at: number; id: string }) =>
  Number(a.created_at) - Number(b.created_at) || byId(a, b);

async function enqueueStationDocs(
  trx: Trx,
  input: { orderId: string; itemIds: readonly string[]; now: number; known?: KnownForComanda | undefined },
  kind: JobKind,
  extra: Pick<ComandaDocument, 'cancel' | 'reprint'>,
): Promise<number> {
  if (!input.itemIds.length) return 0;
  const known = input.known ?? {};
  // The stations' printers first: with none enabled there is nothing to read or write.
  const printers = known.printers
    ? [...known.printers].filter((p) => p.role === 'cocina' || p.role === 'barra').sort(byId)
    : await trx
        .selectFrom('printers')
        .select(['id', 'role'])
        .where('role', 'in', ['cocina', 'barra'])
        .where('enabled', '=', 1)
        .orderBy('id')
        .execute();
  if (!printers.length) return 0;
  const items = known.items
    ? [...known.items].sort(byCreation)
    : await trx
        .selectFrom('order_items')
        .select(['id', 'station', 'quantity', 'product_name', 'notes', 'modifiers'])
        .where('order_id', '=', input.orderId)
        .where('id', 'in', [...input.itemIds])
        .orderBy('created_at')
        .orderBy('id')
        .execute();
  const stations = (['cocina', 'barra'] as const).filter((station) => items.some((i) => i.station === station));
  // The order's header only when some printer will print.
  if (!printers.some((p) => stations.some((station) => station === p.role))) return 0;
  const header = known.order ? headerOf(known.order) : await orderHeader(trx, input.orderId);
  let jobs = 0;
  for (const station of stations) {
    const lines: ComandaLine[] = items
      .filter((i) => i.station === station)
      .map((i) => ({ itemId: i.id, quantity: i.quantity, name: i.product_name, notes: i.notes, ...printedModifiers(i.modifiers) }));
    for (const printer of printers.filter((p) => p.role === station)) {
      const document: ComandaDocument = { type: 'comanda', station, ...extra, ...header, at: input.now, lines };
      const job = { printerId: printer.id, role: station, orderId: input.orderId, kind, document, now: input.now };
      if (known.defer) known.defer(jobInsert(trx, job).insert);
      else await insertJob(trx, job);
      jobs++;
    }
  }
  return jobs;
}

/** New items (an add or "+ unidad"): one comanda per station with an enabled printer, with that station's items only. */
export async function enqueueComandas(
  trx: Trx,
  input: { orderId: string; itemIds: readonly string[]; now: number; known?: KnownForComanda | undefined },
): Promise<number> {
  return enqueueStationDocs(trx, input, 'comanda', {});
}

/**
 * 1 when a comanda (or a reprint) carrying the line was enqueued, else 0: a column a delete's
 * UPDATE of the line returns (no read of its own), or read alone by enqueueCancelation.
 */
export function comandaPrintedFor(orderId: string, itemId: string) {
  return sql<number>`CASE WHEN EXISTS (SELECT 1 FROM print_jobs WHERE order_id = ${orderId} AND kind IN ('comanda', 'reimpresion') AND document LIKE ${`%"itemId":"${itemId}"%`}) THEN 1 ELSE 0 END`;
}

/**
 * A deleted item that already had a comanda gets a cancelation slip at the same station.
 * `printedItemId`: the row whose comanda was printed, when the cancelled units are a row split
 * off it (a partial void): the slip then lists only the split row, i.e. exactly the voided units.
 */
export async function enqueueCancelation(
  trx: Trx,
  input: { orderId: string; itemId: string; printedItemId?: string; now: number },
): Promise<number> {
  const { printed } = await trx
    .selectNoFrom(comandaPrintedFor(input.orderId, input.printedItemId ?? input.itemId).as('printed'))
    .executeTakeFirstOrThrow();
  if (!Number(printed)) return 0;
  return enqueuePrintedCancelation(trx, input);
}

/**
 * enqueueCancelation when the caller already knows the line's comanda was printed (comandaPrintedFor).
 * `known`: what the caller holds (a delete: the line's row from its UPDATE, the locked order, the
 * printers read with the line, and its next statement to carry the job): each one a read fewer.
 */
export function enqueuePrintedCancelation(
  trx: Trx,
  input: { orderId: string; itemId: string; now: number; known?: KnownForComanda },
): Promise<number> {
  return enqueueStationDocs(trx, { orderId: input.orderId, itemIds: [input.itemId], now: input.now, known: input.known }, 'cancelacion', {
    cancel: true,
  });
}

/** Staff asked for the order's comandas again: every live item, per station, marked REIMPRESIÓN. */
export async function enqueueReprint(trx: Trx, input: { orderId: string; now: number }): Promise<number> {
  const items = await trx
    .selectFrom('order_items')
    .select('id')
    .where('order_id', '=', input.orderId)
    .where('is_deleted', '=', 0)
    .execute();
  return enqueueStationDocs(trx, { orderId: input.orderId, itemIds: items.map((i) => i.id), now: input.now }, 'reimpresion', {
    reprint: true,
  });
}

const METHOD_LABELS = { efectivo: 'Efectivo', tarjeta: 'Tarjeta', transferencia: 'Transferencia' } as const;

/** A paid order as its close holds it: the row as written, every line (deleted ones too), the payments by creation. */
export interface ReceiptRows {
  row: Pick<
    OrderRow,
    | 'id'
    | 'table_number'
    | 'table_name'
    | 'waiter_name'
    | 'people_count'
    | 'split_count'
    | 'subtotal'
    | 'discount'
    | 'comp'
    | 'shared_out'
    | 'share_amount'
    | 'tip'
    | 'total'
    | 'payment_method'
    | 'folio'
    | 'tax_breakdown'
  >;
  items: readonly Pick<OrderItemRow, 'quantity' | 'product_name' | 'product_price' | 'promotion_name' | 'modifiers' | 'is_deleted'>[];
  payments: readonly Pick<PaymentRow, 'method' | 'amount' | 'received_amount' | 'change_amount' | 'reference'>[];
}

/**
 * A closed order: the PASE DE SALIDA on each enabled caja printer, written with the payment;
 * a cash payment also opens the drawer (the pulse travels in the same ticket). The close hands
 * over the rows it holds under the order's lock, so nothing of the order is read again.
 */
export async function enqueueReceipt(
  trx: Trx,
  input: {
    orderId: string;
    now: number;
    paid: ReceiptRows;
    /** The enabled caja printers, when the close read them already (checkoutRows on PostgreSQL). */
    printers?: readonly { id: string; role: string }[] | undefined;
    /** Takes each job's INSERT instead of running it: the close sends them with its rollups' statement. */
    defer?: (insert: Rider) => void;
    /** A reprint from Tickets: its self-invoice as the receipt stands now (the close: queued when it charged). */
    reprint?: { selfInvoice: SelfInvoiceLine | null; paidAt: number };
  },
): Promise<number> {
  const printers = input.printers ?? (await enabledPrinters(trx, 'caja'));
  if (!printers.length) return 0;
  const { row: order, payments } = input.paid;
  // Mixed payments: every part is listed; the last one (the one that settled it) gives received/change.
  const payment = payments.at(-1);
  const items = input.paid.items.filter((i) => Number(i.is_deleted) === 0);
  const general = await getGeneralConfig(trx);
  const method = payment?.method ?? order.payment_method ?? 'efectivo';
  const total = Number(order.total);
  const guests = clampGuests(order.people_count);
  const split = splitDiffers(guests, order.split_count);
  const document: ReceiptDocument = {
    type: 'ticket',
    business: { name: general.name, address: general.address, phone: general.phone },
    ticketNumber: ticketNumber(order.id),
    orderShortId: shortOrderId(order.id),
    table: tableLabel(order.table_number),
    tableName: order.table_name,
    waiter: order.waiter_name,
    guests,
    perGuest: perPersonAmount(cents(total), guests),
    ...(split === null ? {} : { split: { count: split, each: perPersonAmount(cents(total), split) } }),
    at: input.now,
    lines: items.map((i) => ({
      quantity: i.quantity,
      name: i.product_name,
      amount: Number(i.product_price) * i.quantity,
      promo: i.promotion_name,
      ...printedModifiers(i.modifiers),
    })),
    subtotal: Number(order.subtotal),
    discount: Number(order.discount),
    comp: Number(order.comp),
    sharedOut: Number(order.shared_out),
    shareAmount: Number(order.share_amount),
    tip: Number(order.tip),
    total,
    method: METHOD_LABELS[method],
    received: payment?.received_amount == null ? null : Number(payment.received_amount),
    change: payment?.change_amount == null ? null : Number(payment.change_amount),
    openDrawer: method === 'efectivo',
    folio: order.folio === null ? null : Number(order.folio),
    payments: payments.map((p) => ({ method: METHOD_LABELS[p.method], amount: Number(p.amount), reference: p.reference })),
    taxes: order.tax_breakdown ? (JSON.parse(order.tax_breakdown) as TaxBreakdown) : null,
  };
  selfInvoiceOf(document, input.reprint);
  for (const p of printers) {
    const { insert } = jobInsert(trx, { printerId: p.id, role: 'caja', orderId: input.orderId, kind: 'ticket', document, now: input.now });
    if (input.defer) input.defer(insert);
    else await insert.execute();
  }
  return printers.length;
}

/**
 * The receipt's self-invoice block. At the close the PAC's receipt is made after the commit (its
 * outbox), so a check that charged something prints that its code comes with a reprint; a reprint
 * prints the receipt as it stands, and never opens the drawer.
 */
function selfInvoiceOf(document: ReceiptDocument, reprint: { selfInvoice: SelfInvoiceLine | null; paidAt: number } | undefined): void {
  if (reprint) {
    document.at = reprint.paidAt;
    document.reprint = true;
    document.openDrawer = false;
    document.selfInvoice = reprint.selfInvoice;
    return;
  }
  const charged = document.taxes ? Number(document.taxes.amount) : document.total - document.tip;
  if (charged > 0) document.selfInvoice = { state: 'queued' };
}

/**
 * A cash movement slip or a corte on each enabled caja printer, written in the transaction of
 * the movement or corte Z (a corte X on request). Returns how many jobs were written: 0 means no
 * caja printer, and the screen falls back to the browser's print dialog.
 */
export async function enqueueCajaSlip(trx: Trx, input: { document: MovementDocument | CorteDocument; now: number }): Promise<number> {
  const printers = await enabledPrinters(trx, 'caja');
  const kind: JobKind = input.document.type === 'movimiento' ? 'movimiento' : 'corte';
  for (const p of printers)
    await insertJob(trx, { printerId: p.id, role: 'caja', orderId: null, kind, document: input.document, now: input.now });
  return printers.length;
}

/** A line's chosen options as they print; nothing when it has none, so older documents read the same. */
function printedModifiers(json: string | null): { modifiers?: string[] } {
  const chosen = readModifiers(json);
  return chosen.length === 0 ? {} : { modifiers: chosen.map(modifierLabel) };
}
