import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Database, PrintersTable } from '../../db/schema.ts';
import type { AppContext } from '../../http/context.ts';
import type { PrintDocument } from '../../model/printing/documents.ts';
import { getGeneralConfig } from '../../model/config-store.ts';
import { onPrintJobsCommitted } from '../../model/printing/enqueue.ts';
import { STILL_TO_PRINT } from '../../model/printing/still-to-print.ts';
import { durably } from '../../db/transact.ts';
import { renderDocument } from './render.ts';
import { LogoCache } from './logo.ts';

const LOGO_KINDS = new Set<string>(['ticket', 'movimiento', 'corte']);
import { PrintError, sendJob } from './transport.ts';
import { mayConnect, PRINTER_ADDRESS_REFUSED } from './address.ts';

/**
 * Delivers print jobs after commit: one drain loop per printer, oldest job first (by seq), the
 * next job only after the previous one printed, so a printer's tickets come out in order. A
 * failure leaves the job pending with exponential back-off; a job is claimed with a lease so a
 * crashed worker's job is taken up again after a restart (at-least-once, see
 * docs/decisions/0012-print-jobs-exactly-once.md).
 */
export const PRINTERS_TOPIC = 'printers';
/** Jobs sent in one connection when several are waiting (a burst of adds). */
const BATCH = 10;
const PRINTED_KEPT_MS = 7 * 24 * 3_600_000;
/** How long a wake-up waits for the rest of its burst before scanning. */
const GATHER_MS = 8;

export interface WorkerTiming {
  retryMs: number;
  retryMaxMs: number;
  timeoutMs: number;
  alertMs: number;
  pollMs: number;
}

export function backoff(attempts: number, t: Pick<WorkerTiming, 'retryMs' | 'retryMaxMs'>): number {
  return Math.min(t.retryMaxMs, t.retryMs * 2 ** Math.max(0, Math.min(attempts - 1, 20)));
}

/** A printer's row as the worker read it, with the count of its own status writes before the read. */
interface SeenPrinter {
  row: Selectable<PrintersTable>;
  statusWrites: number;
}

export class PrintWorker {
  private readonly busy = new Set<string>();
  /** Status writes this worker made, per printer (see readPrinters). */
  private readonly statusWrites = new Map<string, number>();
  /** Printers a scan found busy draining: the scan's fresh read of each, for the drain's next round. */
  private readonly again = new Map<string, SeenPrinter>();
  private timer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private unlisten: (() => void) | null = null;
  private alertKey = '';
  private alertCheckedAt = -Infinity;
  private readonly inflight = new Set<Promise<void>>();
  private readonly logo: LogoCache;

  constructor(
    private readonly ctx: AppContext,
    readonly timing: WorkerTiming,
    log: (line: string) => void = () => undefined,
  ) {
    this.logo = new LogoCache(log);
  }

  /** Lease of a claimed job: longer than a whole delivery can take (connect, status, job, ack, close). */
  private get leaseMs(): number {
    return this.timing.timeoutMs * 5 + 1000;
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), this.timing.pollMs);
    this.pruneTimer = setInterval(() => void this.prune().catch(() => undefined), 3_600_000);
    this.pruneTimer.unref();
    void this.prune().catch(() => undefined);
    // New jobs commit with the change that causes them; that commit wakes this process's worker at
    // once. Nothing else does: a board's status change prints nothing, and jobs another process
    // wrote are its own worker's (the poll above takes them up if that process is gone).
    this.unlisten = onPrintJobsCommitted((roles) => this.tick(roles));
    this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.unlisten?.();
    await Promise.allSettled([...this.inflight]);
  }

  /**
   * Scans for jobs now, or once more right after the scan under way: a burst of events (one per
   * item add) costs one scan at a time instead of one each. A commit names the roles of the
   * printers it wrote jobs for, and only those are drained; the poll and a back-off drain them all.
   */
  tick(roles?: ReadonlySet<string>): void {
    if (this.stopped) return;
    if (!roles) this.woken = 'all';
    else if (this.woken !== 'all') for (const role of roles) this.woken.add(role);
    if (this.scanning) {
      this.rescan = true;
      return;
    }
    this.scanning = true;
    const run = (async () => {
      // Adds come in bursts (a round for a table, several phones at once): gathered for a few
      // milliseconds they make one scan and one delivery per printer, not one each.
      await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
      do {
        this.rescan = false;
        await this.scan().catch(() => undefined);
      } while (this.rescan && !this.stopped);
    })().finally(() => {
      this.scanning = false;
    });
    this.inflight.add(run);
    void run.finally(() => this.inflight.delete(run));
  }
  private scanning = false;
  private rescan = false;
  /** The printer roles woken since the last scan began, or all of them. */
  private woken: Set<string> | 'all' = new Set();

  private async scan(): Promise<void> {
    const woken = this.woken;
    this.woken = new Set();
    const printers = await this.readPrinters();
    for (const p of printers) {
      if (woken !== 'all' && !woken.has(p.row.role)) continue;
      if (this.busy.has(p.row.id)) {
        this.again.set(p.row.id, p);
        continue;
      }
      const run = this.drain(p).catch(() => undefined);
      this.inflight.add(run);
      void run.finally(() => this.inflight.delete(run));
    }
    await this.checkAlerts();
  }

  /**
   * The enabled printers (or one of them), each with the count of this worker's status writes
   * taken before the read: a row read before one of them is stale in its status.
   */
  private async readPrinters(id?: string): Promise<SeenPrinter[]> {
    const gens = new Map(this.statusWrites);
    let read = this.ctx.db.db.selectFrom('printers').selectAll().where('enabled', '=', 1);
    if (id !== undefined) read = read.where('id', '=', id);
    return (await read.execute()).map((row) => ({ row, statusWrites: gens.get(row.id) ?? 0 }));
  }

  /**
   * Delivers a printer's jobs batch after batch while it has due ones. The scan's read of the
   * printer serves the first batch; each later batch reads the printer again, so an edit or a
   * disable takes effect at the next batch. After a batch that emptied the head of the queue no
   * read is made to find nothing: a job written since wakes the worker (this process's commit, or
   * the poll for another's), and the scan then finds this printer busy and asks for one more round.
   */
  private async drain(first: SeenPrinter): Promise<void> {
    const printerId = first.row.id;
    this.busy.add(printerId);
    try {
      let printer: SeenPrinter | undefined = first;
      do {
        // A scan that found this printer busy read it meanwhile: that read serves the next batch.
        printer ??= this.again.get(printerId);
        this.again.delete(printerId);
        while (!this.stopped) {
          printer ??= (await this.readPrinters(printerId))[0];
          if (!printer) break;
          const more = await this.deliverNext(printer);
          printer = undefined;
          if (!more) break;
        }
      } while (!this.stopped && this.again.has(printerId));
    } finally {
      this.busy.delete(printerId);
    }
  }

  /**
   * Delivers the printer's oldest unprinted jobs, up to BATCH of them in one connection (each
   * ticket with its own cut); true when they printed and a full batch was read, so more may wait.
   */
  private async deliverNext(seen: SeenPrinter): Promise<boolean> {
    const db = this.ctx.db.db;
    const now = this.ctx.clock.now();
    const printer = seen.row;
    const printerId = printer.id;
    // Only what picks the due run: the documents come back with the claim.
    const head = await db
      .selectFrom('print_jobs')
      .select(['seq', 'state', 'lease_until', 'next_attempt_at'])
      .where('printer_id', '=', printerId)
      // From the index of the waiting jobs, in order: the read stops at BATCH.
      .where(STILL_TO_PRINT)
      .orderBy('seq')
      .limit(BATCH)
      .execute();
    // In order: the batch is the run of due jobs at the head (stopping at one not due or held by a live claim).
    const due: typeof head = [];
    for (const job of head) {
      if (job.state === 'printing' && (job.lease_until ?? 0) > now) break;
      if (job.next_attempt_at > now) break;
      due.push(job);
    }
    if (!due.length) return false;
    // One conditional update claims them all; a job another process took meanwhile is left out.
    const token = randomUUID();
    // Durable before a byte is sent: on SQLite the claim shares the open group's commit.
    const claimed = await durably(this.ctx.db, (db) =>
      db
        .updateTable('print_jobs')
        .set({
          state: 'printing',
          attempts: sql<number>`attempts + 1`,
          lease_until: now + this.leaseMs,
          claim: token,
          // A claim that expired was cut short by a crash: its bytes may have reached the printer.
          maybe_printed: sql<number>`case when state = 'printing' then 1 else maybe_printed end`,
        })
        .where(
          'seq',
          'in',
          due.map((j) => j.seq),
        )
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
            eb.and([eb('state', '=', 'printing'), eb('lease_until', '<=', now)]),
          ]),
        )
        .returningAll()
        .execute(),
    );
    claimed.sort((a, b) => Number(a.seq) - Number(b.seq));
    // This claim's rows, found by their seq (the primary key) and still under its token.
    const seqs = claimed.map((j) => j.seq);
    const mine = (eb: ExpressionBuilder<Database, 'print_jobs'>) => eb.and([eb('seq', 'in', seqs), eb('claim', '=', token)]);
    // Only an unbroken run from the head keeps the printer's order; otherwise give the claims back.
    const prefix = claimed.every((job, i) => String(job.seq) === String(due[i]?.seq));
    if (!prefix) {
      await durably(this.ctx.db, (db) =>
        db.updateTable('print_jobs').set({ state: 'pending', lease_until: null, claim: null }).where(mine).execute(),
      );
      return false;
    }
    const batch = claimed.map((job) => ({ job, resend: job.maybe_printed === 1 }));
    if (!batch.length) return false;
    // The caja's papers (receipts, cash movement slips, cortes) carry the business logo when it is
    // printable (read at delivery: the logo of today); comandas never do.
    const logo = batch.some(({ job }) => LOGO_KINDS.has(job.kind)) ? this.logo.get((await getGeneralConfig(db)).logoUrl) : null;
    const parts = batch.map(({ job, resend }) =>
      renderDocument(JSON.parse(job.document) as PrintDocument, {
        width: printer.width,
        jobNumber: Number(job.seq),
        resend,
        timeZone: this.ctx.config.BUSINESS_TIMEZONE,
        logo,
      }),
    );
    const bytes = Buffer.concat(parts);
    try {
      if (!mayConnect(printer, this.ctx.config.PRINTERS)) throw new PrintError(PRINTER_ADDRESS_REFUSED, 'error', false);
      await sendJob({ host: printer.host, port: printer.port, timeoutMs: this.timing.timeoutMs }, bytes);
    } catch (error) {
      const e = error instanceof PrintError ? error : new PrintError(String(error), 'error', true);
      const at = this.ctx.clock.now();
      const attempts = Math.max(...batch.map((b) => b.job.attempts));
      const wait = backoff(attempts, this.timing);
      await durably(this.ctx.db, (db) =>
        db
          .updateTable('print_jobs')
          .set({
            state: 'pending',
            lease_until: null,
            next_attempt_at: at + wait,
            last_error: e.message,
            maybe_printed: e.maybeDelivered ? 1 : sql<number>`maybe_printed`,
            claim: null,
          })
          .where(mine)
          .execute(),
      );
      await this.setStatus(seen, e.status, e.message, at);
      // Try again when the back-off ends.
      const retry = setTimeout(() => this.tick(), wait + 5);
      retry.unref();
      return false;
    }
    const done = this.ctx.clock.now();
    await durably(this.ctx.db, (db) =>
      db
        .updateTable('print_jobs')
        .set({ state: 'printed', printed_at: done, lease_until: null, last_error: null, claim: null })
        .where(mine)
        .execute(),
    );
    await this.setStatus(seen, 'listo', null, done);
    return head.length === BATCH;
  }

  /** Printed jobs are kept a week (to answer "did it print?"), then dropped. */
  private async prune(): Promise<void> {
    await this.ctx.db.db
      .deleteFrom('print_jobs')
      .where('state', '=', 'printed')
      .where('printed_at', '<', this.ctx.clock.now() - PRINTED_KEPT_MS)
      .execute();
  }

  /**
   * Writes the printer's status when it changed. The batch's printer row tells, unless this worker
   * wrote the status since that row was read (then it is read again): a printing printer costs no
   * read and no write per batch.
   */
  private async setStatus(seen: SeenPrinter, status: 'listo' | 'sin_conexion' | 'error', error: string | null, now: number): Promise<void> {
    const db = this.ctx.db.db;
    const printerId = seen.row.id;
    const writes = this.statusWrites.get(printerId) ?? 0;
    const current =
      seen.statusWrites === writes
        ? seen.row
        : await db.selectFrom('printers').select(['status', 'last_error']).where('id', '=', printerId).executeTakeFirst();
    if (!current) return;
    if (current.status === status && (status === 'listo' || current.last_error === error)) return;
    this.statusWrites.set(printerId, writes + 1);
    await durably(this.ctx.db, (db) =>
      db
        .updateTable('printers')
        .set(status === 'listo' ? { status, updated_at: now } : { status, last_error: error, last_error_at: now, updated_at: now })
        .where('id', '=', printerId)
        .execute(),
    );
    this.ctx.live.publish({ topic: PRINTERS_TOPIC, type: 'printer.status', id: printerId, at: this.ctx.clock.now() });
  }

  /**
   * Publishes when the set of printers with jobs stuck past the alert time changes. It reads every
   * job still waiting, so it runs at most once a second (a quarter of the alert time when that is
   * shorter), not on every scan: with a printer off, or a rush ahead of the printers, hundreds of
   * waiting jobs were read again at each delivery. The poll brings the skipped check within a second.
   */
  private async checkAlerts(): Promise<void> {
    // Real time, not the clock of the business (a test may hold that one still).
    const checking = performance.now();
    if (checking - this.alertCheckedAt < Math.min(1000, this.timing.alertMs / 4)) return;
    this.alertCheckedAt = checking;
    const cutoff = this.ctx.clock.now() - this.timing.alertMs;
    const rows = await this.ctx.db.db
      .selectFrom('print_jobs')
      .select(['printer_id', 'seq'])
      .where(STILL_TO_PRINT)
      .where('created_at', '<=', cutoff)
      .execute();
    // In seq order, sorted here: asked of the database, SQLite would walk every job in seq order
    // rather than read the few waiting ones from print_jobs_live and sort them.
    const key = rows
      .sort((a, b) => Number(a.seq) - Number(b.seq))
      .map((r) => `${r.printer_id}:${r.seq}`)
      .join(',');
    if (key === this.alertKey) return;
    this.alertKey = key;
    this.ctx.live.publish({ topic: PRINTERS_TOPIC, type: 'printers.alert', at: this.ctx.clock.now() });
  }
}
