import type { AppContext } from '../../http/context.ts';
import { postSales } from './sales-posting.ts';
import { refreshAutoAgotado } from './auto-agotado.ts';
import { publishEvents } from '../../http/transaction.ts';

/** The inventory's long-lived part: the worker that posts sales into the ledger, once a second. */
const SERVICE = 'inventory';
const POLL_MS = 1000;

export class InventoryWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly ctx: AppContext) {}

  start(): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), POLL_MS);
    this.timer.unref();
  }

  /** Posts every changed line now (the next tick would); one run at a time per process. */
  async flush(): Promise<void> {
    if (this.running) await this.running.catch(() => undefined);
    const run = (async () => {
      let posted = 0;
      for (;;) {
        const looked = await postSales(this.ctx.db, this.ctx.clock.now());
        posted += looked;
        if (looked < 500) break;
      }
      if (posted > 0) {
        publishEvents(this.ctx, [{ topic: 'inventory', type: 'inventory.changed' }]);
        await refreshAutoAgotado(this.ctx);
      }
    })();
    this.running = run;
    try {
      await run;
    } finally {
      if (this.running === run) this.running = null;
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}

export function inventoryWorker(ctx: AppContext): InventoryWorker | null {
  return (ctx.services.get(SERVICE) as InventoryWorker | undefined) ?? null;
}

export async function startInventory(ctx: AppContext): Promise<void> {
  const worker = new InventoryWorker(ctx);
  ctx.services.set(SERVICE, worker);
  worker.start();
  return Promise.resolve();
}

export async function stopInventory(ctx: AppContext): Promise<void> {
  await inventoryWorker(ctx)?.stop();
  ctx.services.delete(SERVICE);
}
