import { randomUUID } from 'node:crypto';

/** What happens to a payment at the simulated terminal. */
export type SimStatus =
  | 'queued'
  | 'on_terminal'
  | 'processing'
  | 'approved'
  | 'rejected'
  | 'cancelled'
  | 'abandoned'
  | 'expired'
  | 'error'
  | 'confirmation_required'
  | 'refunded';

export const SIM_ACTIONS = [
  'tap',
  'process',
  'approve',
  'approve_debit',
  'reject',
  'cancel',
  'abandon',
  'timeout',
  'error',
  'confirm',
  'refund',
] as const;
export type SimAction = (typeof SIM_ACTIONS)[number];

export interface SimTerminal {
  id: string;
  operatingMode: 'PDV' | 'STANDALONE';
  storeId: string;
  posId: number;
  externalPosId: string;
}

export interface SimPayment {
  id: string;
  surface: 'point' | 'orders';
  terminalId: string;
  amountCents: number;
  description: string;
  externalReference: string;
  /** Point Integration API: whether the terminal prints the ticket (echoed in additional_info). */
  printOnTerminal?: boolean;
  status: SimStatus;
  /** The card payment's id, once the terminal charged (or tried to). */
  paymentId: string | null;
  transactionId: string;
  /** The card the customer paid with, as the provider names its type ('approve_debit' charges a debit card). */
  cardType: 'credit_card' | 'debit_card';
  /** A raw provider state forced through the control API, to exercise every mapping. */
  raw: { state: string; paymentStatus?: string; statusDetail?: string } | null;
  createdAt: number;
  updatedAt: number;
}

/** The terminal still holds these: a second payment for it gets 409. */
export const HOLDING: readonly SimStatus[] = ['queued', 'on_terminal', 'processing'];

const NEXT: Record<SimAction, { from: readonly SimStatus[]; to: SimStatus }> = {
  tap: { from: ['queued'], to: 'on_terminal' },
  process: { from: ['queued', 'on_terminal'], to: 'processing' },
  approve: { from: ['queued', 'on_terminal', 'processing'], to: 'approved' },
  approve_debit: { from: ['queued', 'on_terminal', 'processing'], to: 'approved' },
  reject: { from: ['queued', 'on_terminal', 'processing'], to: 'rejected' },
  cancel: { from: ['queued', 'on_terminal', 'processing'], to: 'cancelled' },
  abandon: { from: ['queued', 'on_terminal', 'processing'], to: 'abandoned' },
  timeout: { from: ['queued', 'on_terminal', 'processing'], to: 'expired' },
  error: { from: ['queued', 'on_terminal', 'processing'], to: 'error' },
  confirm: { from: ['on_terminal', 'processing'], to: 'confirmation_required' },
  refund: { from: ['approved'], to: 'refunded' },
};

export class SimConflict extends Error {}

let seq = 0;
const paymentNumber = () => String(90_000_000_000 + (Date.now() % 1_000_000_000) + ++seq);

/** The simulator's memory: terminals, payments and the state machine between them. */
export class SimStore {
  readonly terminals = new Map<string, SimTerminal>();
  readonly payments = new Map<string, SimPayment>();
  private listeners: ((p: SimPayment) => void)[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  addTerminal(id: string, mode: 'PDV' | 'STANDALONE' = 'PDV'): SimTerminal {
    const n = this.terminals.size + 1;
    const terminal: SimTerminal = {
      id,
      operatingMode: mode,
      storeId: String(47_792_470 + n),
      posId: 23_545_670 + n,
      externalPosId: `SUC01POS${String(n).padStart(2, '0')}`,
    };
    this.terminals.set(id, terminal);
    return terminal;
  }

  onChange(listener: (p: SimPayment) => void): void {
    this.listeners.push(listener);
  }

  holding(terminalId: string): SimPayment | undefined {
    return [...this.payments.values()].find((p) => p.terminalId === terminalId && HOLDING.includes(p.status));
  }

  create(
    input: Pick<SimPayment, 'surface' | 'terminalId' | 'amountCents' | 'description' | 'externalReference' | 'printOnTerminal'>,
  ): SimPayment {
    if (this.holding(input.terminalId)) throw new SimConflict('terminal already has a queued payment');
    const at = this.now();
    const payment: SimPayment = {
      ...input,
      id: input.surface === 'orders' ? `ORD${randomUUID().replaceAll('-', '').slice(0, 26).toUpperCase()}` : randomUUID(),
      status: 'queued',
      paymentId: null,
      transactionId: `PAY${randomUUID().replaceAll('-', '').slice(0, 26).toUpperCase()}`,
      cardType: 'credit_card',
      raw: null,
      createdAt: at,
      updatedAt: at,
    };
    this.payments.set(payment.id, payment);
    this.emit(payment);
    return payment;
  }

  apply(id: string, action: SimAction): SimPayment {
    const payment = this.payments.get(id);
    if (!payment) throw new SimConflict('payment not found');
    const step = NEXT[action];
    if (!step.from.includes(payment.status)) throw new SimConflict(`cannot ${action} a payment in ${payment.status}`);
    payment.status = step.to;
    if (action === 'approve' || action === 'approve_debit') payment.cardType = action === 'approve' ? 'credit_card' : 'debit_card';
    if (['approved', 'rejected', 'confirmation_required'].includes(step.to)) payment.paymentId ??= paymentNumber();
    payment.raw = null;
    payment.updatedAt = this.now();
    this.emit(payment);
    return payment;
  }

  /** Cancel through the provider API: only while the terminal has not picked it up. */
  cancelByApi(id: string): SimPayment {
    const payment = this.payments.get(id);
    if (!payment) throw new SimConflict('payment not found');
    if (payment.status !== 'queued') throw new SimConflict(`cannot cancel a payment in ${payment.status}`);
    return this.apply(id, 'cancel');
  }

  setRaw(id: string, raw: SimPayment['raw']): SimPayment {
    const payment = this.payments.get(id);
    if (!payment) throw new SimConflict('payment not found');
    payment.raw = raw;
    payment.updatedAt = this.now();
    this.emit(payment);
    return payment;
  }

  reset(): void {
    this.payments.clear();
  }

  private emit(p: SimPayment): void {
    for (const l of this.listeners) l(p);
  }
}
