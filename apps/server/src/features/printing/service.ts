import type { Insertable } from 'kysely';
import type { AppContext } from '../../http/context.ts';
import type { PrintersTable } from '../../db/schema.ts';
import { newId } from '../../http/ids.ts';
import type { PrinterRole } from '../../model/printing/documents.ts';
import { PrinterEmulator } from './emulator/emulator.ts';
import { PrintWorker } from './worker.ts';
import { parsePrintersEnv } from './address.ts';

/**
 * The printing feature's long-lived parts: the delivery worker, the printers provisioned from
 * PRINTERS, and in demo mode three loopback printer emulators registered as printers.
 */
const SERVICE = 'printing';

export interface PrintingService {
  worker: PrintWorker;
  /** Emulated printers by printer id (demo mode). */
  emulators: Map<string, PrinterEmulator>;
}

export function printingService(ctx: AppContext): PrintingService | null {
  return (ctx.services.get(SERVICE) as PrintingService | undefined) ?? null;
}

export const ROLE_NAMES: Record<PrinterRole, string> = { cocina: 'Cocina', barra: 'Barra', caja: 'Caja' };

async function upsertPrinter(
  ctx: AppContext,
  p: { role: PrinterRole; host: string; port: number; emulated: boolean; name: string },
): Promise<string> {
  const db = ctx.db.db;
  const now = ctx.clock.now();
  const existing = p.emulated
    ? await db.selectFrom('printers').select('id').where('emulated', '=', 1).where('role', '=', p.role).executeTakeFirst()
    : await db
        .selectFrom('printers')
        .select('id')
        .where('role', '=', p.role)
        .where('host', '=', p.host)
        .where('port', '=', p.port)
        .executeTakeFirst();
  if (existing) {
    // An emulator's port changes with every start.
    if (p.emulated)
      await db.updateTable('printers').set({ host: p.host, port: p.port, updated_at: now }).where('id', '=', existing.id).execute();
    return existing.id;
  }
  const id = newId();
  await db
    .insertInto('printers')
    .values(newPrinterRow(id, { ...p, width: 80, enabled: true }, now))
    .execute();
  return id;
}

/** A new printer, ready (listo) with no error yet: one added in Configuración, by PRINTERS or an emulator. */
export function newPrinterRow(
  id: string,
  p: { name: string; host: string; port: number; role: PrinterRole; width: 80 | 58; enabled: boolean; emulated?: boolean },
  now: number,
) {
  return {
    id,
    name: p.name,
    host: p.host,
    port: p.port,
    role: p.role,
    width: p.width,
    enabled: p.enabled ? 1 : 0,
    emulated: p.emulated ? 1 : 0,
    status: 'listo',
    last_error: null,
    last_error_at: null,
    created_at: now,
    updated_at: now,
  } satisfies Insertable<PrintersTable>;
}

export async function startPrinting(ctx: AppContext, log: (line: string) => void): Promise<void> {
  const { config } = ctx;
  const emulators = new Map<string, PrinterEmulator>();
  if (config.PRINTERS) {
    for (const p of parsePrintersEnv(config.PRINTERS)) {
      await upsertPrinter(ctx, { ...p, emulated: false, name: ROLE_NAMES[p.role] });
    }
  } else if (config.PRINTER_EMULATOR === 'on' || (config.PRINTER_EMULATOR === undefined && config.DEMO_DATA === 'auto')) {
    for (const role of ['cocina', 'barra', 'caja'] as const) {
      const emulator = new PrinterEmulator({ name: `${ROLE_NAMES[role]} (simulador)` });
      await emulator.start();
      const id = await upsertPrinter(ctx, { role, host: '127.0.0.1', port: emulator.port, emulated: true, name: emulator.name });
      emulators.set(id, emulator);
    }
    log(`Impresoras simuladas (cocina, barra, caja) en ${[...emulators.values()].map((e) => e.url).join(', ')}`);
  }
  if (!emulators.size) {
    // Emulators of an earlier demo run are not listening now: keep them, switched off, so no job waits on them.
    await ctx.db.db.updateTable('printers').set({ enabled: 0, updated_at: ctx.clock.now() }).where('emulated', '=', 1).execute();
  }
  const worker = new PrintWorker(
    ctx,
    {
      retryMs: config.PRINT_RETRY_MS,
      retryMaxMs: config.PRINT_RETRY_MAX_MS,
      timeoutMs: config.PRINT_TIMEOUT_MS,
      alertMs: config.PRINT_ALERT_MS,
      pollMs: Math.min(1000, config.PRINT_RETRY_MS),
    },
    log,
  );
  ctx.services.set(SERVICE, { worker, emulators } satisfies PrintingService);
  worker.start();
}

export async function stopPrinting(ctx: AppContext): Promise<void> {
  const service = printingService(ctx);
  if (!service) return;
  ctx.services.delete(SERVICE);
  await service.worker.stop();
  for (const e of service.emulators.values()) await e.stop();
}
