import type { AppContext } from '../http/context.ts';
import { startCardPayments, stopCardPayments } from './terminals/card-gateway.ts';
import { startHousekeeping, stopHousekeeping } from './maintenance/housekeeping.ts';
import { startPrinting, stopPrinting } from './printing/service.ts';

/**
 * Long-lived work that features own (resuming card payment sessions, the terminal simulator).
 * Features add their hooks here; each must be safe to run on every start.
 */
type StartHook = (ctx: AppContext, log: (line: string) => void) => Promise<void>;
type StopHook = (ctx: AppContext) => Promise<void>;

const startHooks: StartHook[] = [startHousekeeping, startCardPayments, startPrinting];
const stopHooks: StopHook[] = [stopHousekeeping, stopCardPayments, stopPrinting];

export async function onServerStart(ctx: AppContext, log: (line: string) => void): Promise<void> {
  for (const hook of startHooks) await hook(ctx, log);
}

export async function onServerStop(ctx: AppContext): Promise<void> {
  for (const hook of [...stopHooks].reverse()) await hook(ctx).catch(() => undefined);
}
