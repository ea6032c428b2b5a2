import type { AppContext } from '../../http/context.ts';
import { invoicingService } from '../../model/invoicing/invoicing-service.ts';
import { planGlobals, stampDueGlobals } from './global-invoice.ts';
import { stampCustomerInvoice } from './invoice-ticket.command.ts';
import { syncOpenReceipts } from './receipt-sync.ts';
import { publishInvoicingChanged } from '../../model/invoicing/invoicing-events.ts';

/**
 * The invoicing schedule in the server's lifecycle (beside the receipts' worker): every ten
 * seconds it claims the global of each period that has ended, stamps the due globals, retries
 * the customer invoices the PAC did not answer, and reads a few open receipts' states again (a
 * customer's self-invoice seen promptly). Every step claims its rows in the database, so any
 * number of processes may run it at once; what changed is told to the screens live.
 */
const SERVICE = 'invoicing-schedule';
const EVERY_MS = 10_000;

interface Schedule {
  timer: NodeJS.Timeout;
  running: Promise<void> | null;
  stopped: boolean;
}

/** One round: plan the ended periods, stamp what is due (tests call it directly, even twice at once). */
export async function runInvoicingRound(ctx: AppContext): Promise<void> {
  const service = invoicingService(ctx);
  if (!service) return;
  try {
    const planned = await planGlobals(ctx);
    const stamped = await stampDueGlobals(ctx, service.pac);
    const due = await ctx.db.db
      .selectFrom('invoices')
      .select('id')
      .where('kind', '=', 'cliente')
      .where('state', '=', 'solicitando')
      .where('next_attempt_at', '<=', ctx.clock.now())
      .execute();
    for (const { id } of due) await stampCustomerInvoice(ctx, service.pac, id);
    if (planned + stamped + due.length > 0) publishInvoicingChanged(ctx);
  } finally {
    await runReceiptSync(ctx);
  }
}

/** The sync of open receipts (a customer's self-invoice), apart: a failing global never holds it up. */
export async function runReceiptSync(ctx: AppContext): Promise<void> {
  const service = invoicingService(ctx);
  if (!service) return;
  if ((await syncOpenReceipts(ctx, service.pac)).changed > 0) publishInvoicingChanged(ctx);
}

export async function startInvoicingSchedule(ctx: AppContext, log: (line: string) => void): Promise<void> {
  const state: Schedule = { timer: setInterval(() => tick(), EVERY_MS), running: null, stopped: false };
  state.timer.unref();
  function tick() {
    if (state.running || state.stopped) return;
    state.running = runInvoicingRound(ctx)
      .catch((error: unknown) => log(`Facturación: la ronda de facturas globales falló (${(error as Error)?.message ?? String(error)})`))
      .finally(() => {
        state.running = null;
      });
  }
  ctx.services.set(SERVICE, state);
  tick();
}

export async function stopInvoicingSchedule(ctx: AppContext): Promise<void> {
  const state = ctx.services.get(SERVICE) as Schedule | undefined;
  if (!state) return;
  ctx.services.delete(SERVICE);
  state.stopped = true;
  clearInterval(state.timer);
  await state.running;
}
