import type { AppContext } from '../http/context.ts';
import { startCardPayments, stopCardPayments } from '../model/card-payments/card-gateway.ts';
import { startHousekeeping, stopHousekeeping } from './maintenance/housekeeping.ts';
import { startBackups, stopBackups } from '../ops/backup-schedule.ts';
import { startPrinting, stopPrinting } from './printing/service.ts';
import { startInvoicing, stopInvoicing } from '../model/invoicing/invoicing-service.ts';
import { startInventory, stopInventory } from './inventory/service.ts';
import { startInvoicingSchedule, stopInvoicingSchedule } from './invoicing/scheduler.ts';
import { startQrWarmup, stopQrWarmup } from '../net/qr-svg.ts';

/**
 * Long-lived work that features own (resuming card payment sessions, the terminal simulator).
 * Features add their hooks here; each must be safe to run on every start.
 */
type StartHook = (ctx: AppContext, log: (line: string) => void) => Promise<void>;
type StopHook = (ctx: AppContext) => Promise<void>;

const startHooks: StartHook[] = [
  startHousekeeping,
  startCardPayments,
  startBackups,
  startPrinting,
  startInventory,
  startInvoicing,
  startInvoicingSchedule,
  startQrWarmup,
];
const stopHooks: StopHook[] = [
  stopHousekeeping,
  stopCardPayments,
  stopBackups,
  stopPrinting,
  stopInventory,
  stopInvoicing,
  stopInvoicingSchedule,
  stopQrWarmup,
];

export async function onServerStart(ctx: AppContext, log: (line: string) => void): Promise<void> {
  for (const hook of startHooks) await hook(ctx, log);
}

export async function onServerStop(ctx: AppContext): Promise<void> {
  for (const hook of [...stopHooks].reverse()) await hook(ctx).catch(() => undefined);
}
