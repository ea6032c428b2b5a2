import type { PrintAlert, Printer, PrinterBody, SessionUser } from '@comanda/contract';
import { mutate, type Trx } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { PRINTER_HOST_NOT_LOCAL, printerAddressProblem } from '@comanda/domain';
import { newId } from '../../http/ids.ts';
import type { PrintersTable } from '../../db/schema.ts';
import type { ComandaDocument, PrintDocument } from '../../model/printing/documents.ts';
import { enqueueReprint, insertJob } from '../../model/printing/enqueue.ts';
import { newPrinterRow, printingService } from './service.ts';
import { PRINTERS_TOPIC } from './worker.ts';
import { findOrderRow, ORDER_NOT_FOUND } from '../../model/orders/order-repository.ts';
import { assertMayWorkOrder } from '../../model/orders/order-access.ts';
import type { AppContext } from '../../http/context.ts';
import { STILL_TO_PRINT } from '../../model/printing/still-to-print.ts';
import type { WriteContext } from '../../http/request-context.ts';

export const PRINTER_NOT_FOUND = 'Impresora no encontrada';

function present(row: PrintersTable, pendingJobs: number): Printer {
  return {
    id: row.id,
    name: row.name,
    host: row.host,
    port: row.port,
    role: row.role,
    width: row.width === 58 ? 58 : 80,
    enabled: row.enabled === 1,
    emulated: row.emulated === 1,
    status: row.status,
    lastError: row.last_error,
    lastErrorAt: row.last_error_at === null ? null : Number(row.last_error_at),
    pendingJobs,
  };
}

export async function listPrinters(db: Trx): Promise<Printer[]> {
  const rows = await db.selectFrom('printers').selectAll().orderBy('role').orderBy('name').execute();
  const pending = await db
    .selectFrom('print_jobs')
    .select(['printer_id', db.fn.countAll<number>().as('n')])
    .where(STILL_TO_PRINT)
    .groupBy('printer_id')
    .execute();
  const byPrinter = new Map(pending.map((p) => [p.printer_id, Number(p.n)]));
  return rows.map((r) => present(r, byPrinter.get(r.id) ?? 0));
}

async function loadPrinter(db: Trx, id: string): Promise<Printer> {
  const printer = (await listPrinters(db)).find((p) => p.id === id);
  if (!printer) throw notFound(PRINTER_NOT_FOUND);
  return printer;
}

/**
 * An admin may point a printer only at a printing port on the bar's private network
 * (printerAddressProblem, docs/security.md); anything else is refused with a Spanish 422.
 */
function assertPrinterAddress(host: string, port: number): void {
  const problem = printerAddressProblem(host, port);
  if (problem) throw new AppError(422, problem === PRINTER_HOST_NOT_LOCAL ? 'printer_host_not_local' : 'printer_port_not_allowed', problem);
}

export async function createPrinter(ctx: WriteContext, user: SessionUser, body: Required<PrinterBody>): Promise<Printer> {
  assertPrinterAddress(body.host, body.port);
  const id = newId();
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    await trx
      .insertInto('printers')
      .values(newPrinterRow(id, body, now))
      .execute();
    await audit(trx, now, { actor: user, action: 'printer.created', entity: 'printer', entityId: id, data: body });
    emit({ topic: PRINTERS_TOPIC, type: 'printer.changed', id });
  });
  return loadPrinter(ctx.db.db, id);
}

export async function updatePrinter(ctx: WriteContext, user: SessionUser, id: string, patch: Partial<PrinterBody>): Promise<Printer> {
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const existing = await trx.selectFrom('printers').select(['id', 'host', 'port']).where('id', '=', id).executeTakeFirst();
    if (!existing) throw notFound(PRINTER_NOT_FOUND);
    // A new address is checked; the one the printer has is kept as is (an emulator's loopback port, set by the server).
    const host = patch.host ?? existing.host;
    const port = patch.port ?? Number(existing.port);
    if (host !== existing.host || port !== Number(existing.port)) assertPrinterAddress(host, port);
    const { enabled, ...rest } = patch;
    await trx
      .updateTable('printers')
      .set({ ...rest, ...(enabled === undefined ? {} : { enabled: enabled ? 1 : 0 }), updated_at: now })
      .where('id', '=', id)
      .execute();
    await audit(trx, now, { actor: user, action: 'printer.updated', entity: 'printer', entityId: id, data: patch });
    emit({ topic: PRINTERS_TOPIC, type: 'jobs', id });
  });
  return loadPrinter(ctx.db.db, id);
}

/** Removing a printer drops its unprinted jobs with it (they belonged to that device). */
export async function deletePrinter(ctx: WriteContext, user: SessionUser, id: string): Promise<void> {
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const existing = await trx.selectFrom('printers').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
    if (!existing) throw notFound(PRINTER_NOT_FOUND);
    await trx.deleteFrom('print_jobs').where('printer_id', '=', id).execute();
    await trx.deleteFrom('printers').where('id', '=', id).execute();
    await audit(trx, now, { actor: user, action: 'printer.deleted', entity: 'printer', entityId: id, data: { name: existing.name } });
    emit({ topic: PRINTERS_TOPIC, type: 'printer.changed', id });
  });
}

export async function printTest(ctx: WriteContext, user: SessionUser, id: string): Promise<void> {
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const printer = await trx.selectFrom('printers').select(['id', 'name', 'role']).where('id', '=', id).executeTakeFirst();
    if (!printer) throw notFound(PRINTER_NOT_FOUND);
    const document: PrintDocument = { type: 'prueba', printerName: printer.name, role: printer.role, at: now };
    await insertJob(trx, { printerId: id, role: printer.role, orderId: null, kind: 'prueba', document, now });
    await audit(trx, now, { actor: user, action: 'printer.test', entity: 'printer', entityId: id, data: {} });
    emit({ topic: PRINTERS_TOPIC, type: 'jobs', id });
  });
}

/** Prints the order's comandas again, marked REIMPRESIÓN (admin, or the waiter of the order). */
export async function reprintOrder(ctx: WriteContext, user: SessionUser, orderId: string): Promise<number> {
  const row = await findOrderRow(ctx.db.db, orderId);
  if (!row) throw notFound(ORDER_NOT_FOUND);
  assertMayWorkOrder(user, row);
  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const jobs = await enqueueReprint(trx, { orderId, now });
    await audit(trx, now, { actor: user, action: 'order.reprinted', entity: 'order', entityId: orderId, data: { jobs } });
    emit({ topic: PRINTERS_TOPIC, type: 'jobs', id: orderId });
    return jobs;
  });
}

/** Printers with jobs unprinted for longer than the alert time, with the items on them; a station sees its own. */
export async function listAlerts(ctx: AppContext, user: SessionUser): Promise<PrintAlert[]> {
  const cutoff = ctx.clock.now() - ctx.config.PRINT_ALERT_MS;
  let query = ctx.db.db
    .selectFrom('print_jobs')
    .innerJoin('printers', 'printers.id', 'print_jobs.printer_id')
    .select([
      'print_jobs.printer_id as printerId',
      'printers.name as printerName',
      'printers.role as role',
      'printers.status as status',
      'printers.last_error as lastError',
      'print_jobs.created_at as createdAt',
      'print_jobs.document as document',
      'print_jobs.seq as seq',
    ])
    .where(STILL_TO_PRINT)
    .where('print_jobs.created_at', '<=', cutoff);
  if (user.role === 'kitchen') query = query.where('printers.role', '=', 'cocina');
  if (user.role === 'barra') query = query.where('printers.role', '=', 'barra');
  // The oldest first, sorted here: the few waiting jobs come from print_jobs_live (see STILL_TO_PRINT).
  const rows = (await query.execute()).sort((a, b) => Number(a.seq) - Number(b.seq));
  const alerts = new Map<string, PrintAlert>();
  for (const r of rows) {
    const alert = alerts.get(r.printerId) ?? {
      printerId: r.printerId,
      printerName: r.printerName,
      role: r.role,
      status: r.status,
      lastError: r.lastError,
      since: Number(r.createdAt),
      items: [],
    };
    const doc = JSON.parse(r.document) as PrintDocument;
    if (doc.type === 'comanda') {
      const c: ComandaDocument = doc;
      for (const l of c.lines)
        alert.items.push({ table: c.table, quantity: l.quantity, name: c.cancel ? `CANCELAR ${l.name}` : l.name, notes: l.notes });
    }
    alerts.set(r.printerId, alert);
  }
  return [...alerts.values()];
}

export function emulatorView(ctx: AppContext) {
  const service = printingService(ctx);
  if (!service) return [];
  return Promise.all(
    [...service.emulators.entries()].map(async ([printerId, e]) => {
      const row = await ctx.db.db.selectFrom('printers').select(['role']).where('id', '=', printerId).executeTakeFirst();
      return {
        printerId,
        name: e.name,
        role: row?.role ?? 'cocina',
        state: e.listening ? e.state : ('off' as const),
        tickets: e
          .list()
          .slice(-10)
          .reverse()
          .map((t) => ({ n: t.n, text: t.text, complete: t.complete, at: t.at })),
      };
    }),
  );
}

/** Demo mode: switches an emulated printer off or on, or takes its paper away. */
export async function setEmulatorState(ctx: WriteContext, user: SessionUser, printerId: string, state: 'online' | 'paper-out' | 'off') {
  const emulator = printingService(ctx)?.emulators.get(printerId);
  if (!emulator) throw notFound(PRINTER_NOT_FOUND);
  if (state === 'off') await emulator.stop();
  else {
    emulator.state = state;
    await emulator.start();
  }
  await mutate(ctx, async (trx, emit) => {
    await audit(trx, ctx.clock.now(), { actor: user, action: 'printer.emulator', entity: 'printer', entityId: printerId, data: { state } });
    emit({ topic: PRINTERS_TOPIC, type: 'jobs', id: printerId });
  });
}
