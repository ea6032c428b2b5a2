import type { AppContext } from '../../http/context.ts';
import { facturapiPac, FACTURAPI_BASE_URL } from '../../invoicing/facturapi.ts';
import type { Pac } from '../../invoicing/pac.ts';
import { loadPacKey } from '../../invoicing/pac-key.ts';
import { startInvoicingSimulator, type InvoicingSimulator } from '../../invoicing/simulator/server.ts';
import { getFiscalSettings } from '../fiscal-store.ts';
import { queueNewChecks, sendDue, type QueueTiming } from './receipt-queue.ts';
import { publishInvoicingChanged } from './invoicing-events.ts';

/**
 * Invoicing's long-lived parts: the PAC client (Facturapi with FACTURAPI_KEY or DATA_DIR/facturapi.key;
 * otherwise the loopback simulator in demo mode) and the receipts' worker, woken by every close
 * (the 'ticket.created' event after its commit, other processes' too through the relay), by the
 * end of a back-off, and by a slow poll.
 */
const SERVICE = 'invoicing';
/** Closes and retries wake the worker; this slow poll only catches what no event told (a lost relay). */
const POLL_MS = 30_000;
/** A close's wake-up waits this long: the close's answer leaves first, and a burst of closes makes one round. */
const GATHER_MS = 20;

export interface InvoicingService {
  pac: Pac;
  mode: 'demo' | 'live';
  simulator: InvoicingSimulator | null;
  worker: ReceiptWorker;
}

export function invoicingService(ctx: AppContext): InvoicingService | null {
  return (ctx.services.get(SERVICE) as InvoicingService | undefined) ?? null;
}

export class ReceiptWorker {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private unlisten: (() => void) | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly pac: Pac,
    readonly timing: QueueTiming,
  ) {}

  start(): void {
    this.unlisten = this.ctx.live.onEvent((e) => {
      if (e.topic === 'tickets' && e.type === 'ticket.created') setTimeout(() => this.wake(), GATHER_MS).unref();
    });
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  /** Runs a round now, or once more right after the one under way. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.round().catch(() => undefined);
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = null;
    });
  }

  /** Resolves when no round is running (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async round(): Promise<void> {
    const now = () => this.ctx.clock.now();
    const queued = await queueNewChecks(this.ctx.db, now());
    const result = await sendDue(this.ctx.db, this.pac, this.timing, now);
    if (queued + result.sent + result.failed > 0) publishInvoicingChanged(this.ctx);
    if (result.nextAt !== null && !this.stopped) {
      // Wake when the earliest back-off ends.
      if (this.retry) clearTimeout(this.retry);
      this.retry = setTimeout(() => this.wake(), Math.max(5, result.nextAt - now() + 5));
      this.retry.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    if (this.timer) clearInterval(this.timer);
    if (this.retry) clearTimeout(this.retry);
    await this.running;
  }
}

export async function startInvoicing(ctx: AppContext, log: (line: string) => void): Promise<void> {
  const key = loadPacKey({ envValue: ctx.config.FACTURAPI_KEY, dataDir: ctx.config.DATA_DIR });
  let simulator: InvoicingSimulator | null = null;
  let pac: Pac;
  if (key) {
    pac = facturapiPac({
      apiKey: key,
      baseUrl: ctx.config.FACTURAPI_BASE_URL ?? FACTURAPI_BASE_URL,
      timeoutMs: ctx.config.INVOICING_TIMEOUT_MS,
    });
  } else {
    const fiscal = await getFiscalSettings(ctx.db.db);
    simulator = await startInvoicingSimulator({
      port: ctx.config.FACTURAPI_SIMULATOR_PORT,
      issuer: {
        ...(fiscal.rfc ? { rfc: fiscal.rfc } : {}),
        ...(fiscal.razonSocial ? { legalName: fiscal.razonSocial } : {}),
        ...(fiscal.regimenFiscal ? { taxSystem: fiscal.regimenFiscal } : {}),
        ...(fiscal.lugarExpedicion ? { zip: fiscal.lugarExpedicion } : {}),
      },
    });
    pac = facturapiPac({ apiKey: simulator.apiKey, baseUrl: simulator.apiUrl, timeoutMs: ctx.config.INVOICING_TIMEOUT_MS });
    log(`Facturación: sin FACTURAPI_KEY, se usa el simulador de Facturapi (${simulator.url}).`);
  }
  const timing: QueueTiming = {
    retryMs: ctx.config.INVOICING_RETRY_MS,
    retryMaxMs: ctx.config.INVOICING_RETRY_MAX_MS,
    // A claim outlives the call it covers: a sender killed mid-call gives its rows back after this.
    leaseMs: ctx.config.INVOICING_TIMEOUT_MS * 3,
  };
  const worker = new ReceiptWorker(ctx, pac, timing);
  ctx.services.set(SERVICE, { pac, mode: simulator ? 'demo' : 'live', simulator, worker } satisfies InvoicingService);
  worker.start();
}

export async function stopInvoicing(ctx: AppContext): Promise<void> {
  const service = invoicingService(ctx);
  if (!service) return;
  ctx.services.delete(SERVICE);
  await service.worker.stop();
  await service.simulator?.close();
}
