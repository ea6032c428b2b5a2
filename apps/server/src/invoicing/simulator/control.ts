/**
 * What tests and demo mode steer in the PAC simulator: faults on demand (an error status, a slow
 * answer, no answer at all, or the call served and then its connection dropped so the answer is
 * lost) and a log of the calls received.
 */
export interface SimFault {
  status?: number;
  delayMs?: number;
  /** Never answer (the client's timeout ends the call). */
  hang?: boolean;
  /** Serve the call (a receipt is made, an invoice stamped), then drop the connection unanswered. */
  dropAfter?: boolean;
  /** Only calls whose method and path start so ("POST /v2/receipts"). */
  path?: string;
  method?: string;
  /** How many calls it takes; Infinity until cleared. */
  remaining: number;
}

export interface SimCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
  at: number;
}

export class SimControl {
  readonly faults: SimFault[] = [];
  readonly calls: SimCall[] = [];

  addFault(fault: Omit<SimFault, 'remaining'> & { count?: number | null }): void {
    const { count, ...rest } = fault;
    this.faults.push({ ...rest, remaining: count === null || count === undefined ? 1 : count <= 0 ? Infinity : count });
  }

  takeFault(method: string, path: string): SimFault | null {
    const fault = this.faults.find((f) => f.remaining > 0 && (!f.method || f.method === method) && (!f.path || path.startsWith(f.path)));
    if (!fault) return null;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.faults.splice(this.faults.indexOf(fault), 1);
    return fault;
  }

  record(call: SimCall): void {
    this.calls.push(call);
    if (this.calls.length > 5000) this.calls.shift();
  }

  reset(): void {
    this.faults.length = 0;
    this.calls.length = 0;
  }
}
