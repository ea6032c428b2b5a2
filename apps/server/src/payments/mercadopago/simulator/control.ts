import type { SimAction, SimPayment, SimStore } from './store.ts';

export interface SimFault {
  /** Answer this status instead of serving the call (429, 500, 503…). */
  status?: number;
  /** Wait this long before answering (or before the fault status). */
  delayMs?: number;
  /** Only calls whose path starts with this. */
  path?: string;
  remaining: number;
}

export interface SimRequestRecord {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/**
 * What tests and demo mode steer: injected faults, scripted outcomes per terminal,
 * auto-approval, and a log of the calls received (to check headers).
 */
export class SimControl {
  readonly faults: SimFault[] = [];
  readonly requests: SimRequestRecord[] = [];
  private readonly scripts = new Map<string, SimAction[]>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: SimStore,
    /** Demo mode: each payment finishes by itself after this long; null leaves it to the control API. */
    public autoFinishMs: number | null,
  ) {}

  addFault(fault: Omit<SimFault, 'remaining'> & { count?: number }): void {
    this.faults.push({ status: fault.status, delayMs: fault.delayMs, path: fault.path, remaining: fault.count ?? 1 });
  }

  takeFault(path: string): SimFault | null {
    const fault = this.faults.find((f) => f.remaining > 0 && (!f.path || path.startsWith(f.path)));
    if (!fault) return null;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.faults.splice(this.faults.indexOf(fault), 1);
    return fault;
  }

  record(entry: SimRequestRecord): void {
    this.requests.push(entry);
    if (this.requests.length > 500) this.requests.shift();
  }

  /** The next payments on this terminal end this way, one outcome each. */
  script(terminalId: string, outcomes: SimAction[]): void {
    this.scripts.set(terminalId, [...(this.scripts.get(terminalId) ?? []), ...outcomes]);
  }

  /** A new payment: in demo mode or with a script it is tapped, then finished, by itself. */
  created(payment: SimPayment): void {
    const queue = this.scripts.get(payment.terminalId);
    const scripted = queue?.shift();
    const outcome = scripted ?? (this.autoFinishMs !== null ? 'approve' : null);
    if (!outcome) return;
    const total = this.autoFinishMs ?? 50;
    this.later(Math.min(1000, Math.round(total / 3)), () => this.store.apply(payment.id, 'tap'));
    this.later(total, () => this.store.apply(payment.id, outcome));
  }

  reset(): void {
    this.faults.length = 0;
    this.requests.length = 0;
    this.scripts.clear();
    this.stop();
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private later(ms: number, work: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      try {
        work();
      } catch {
        // Someone (the control API, a cancel) finished it first: nothing left to do.
      }
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }
}
