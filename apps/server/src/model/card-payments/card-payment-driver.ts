import { cardStatesFor, TERMINAL_MESSAGES, isFinalPaymentState, tableLabel } from '@comanda/domain';
import type { CardPaymentRow } from '../../db/schema.ts';
import { audit } from '../../http/audit.ts';
import { mutate } from '../../http/transaction.ts';
import { MpError } from '../../payments/mercadopago/http.ts';
import { pollPayment, type PollSettings, type Sleep } from '../../payments/mercadopago/poller.ts';
import type { CardProvider, ProviderPayment } from '../../payments/mercadopago/provider.ts';
import { emitCardPayment, findCardPayment } from './card-payment-store.ts';
import { settleCardPayment } from './settle-card-payment.ts';
import type { WriteContext } from '../../http/request-context.ts';

export interface DriverDeps {
  provider: CardProvider;
  poll: PollSettings;
  sleep: Sleep;
}

// After the dialog gives up, a payment still on the terminal is watched slowly for a while,
// so a late approval closes the order even without webhooks.
const LATE_WATCH_FACTOR = 6;
const LATE_WATCH_ATTEMPTS = 40;
const RESUME_TIMEOUTS_WITHIN_MS = 2 * 60 * 60 * 1000;

/** The provider's idempotency keys of an attempt: the same on every retry and after a restart. */
export const providerKeys = (id: string) => ({ create: `comanda-${id}`, cancel: `comanda-cancel-${id}` });

/** What a failed create means for the person at the till (SPEC §8). */
function createFailure(error: MpError): string {
  if (error.status === 404) return TERMINAL_MESSAGES.notFound;
  if (error.code === 'no_intent_id' || error.code === 'no_order_id') return TERMINAL_MESSAGES.noIntentId;
  return TERMINAL_MESSAGES.createFailed;
}

/**
 * Drives each payment session in the background: creates it at the provider (retrying with the
 * same idempotency key), polls it, and settles it. One loop per session per process.
 */
export class CardPaymentDriver {
  private readonly running = new Map<string, AbortController>();
  private readonly loops = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly ctx: WriteContext,
    private readonly deps: DriverDeps,
  ) {}

  /** Picks up every session a previous process left unfinished. */
  async resume(): Promise<void> {
    const since = this.ctx.clock.now() - RESUME_TIMEOUTS_WITHIN_MS;
    const rows = await this.ctx.db.db
      .selectFrom('card_payments')
      .select('id')
      .where((eb) =>
        eb.or([eb('state', 'in', cardStatesFor('progressed')), eb.and([eb('state', '=', 'timeout'), eb('updated_at', '>=', since)])]),
      )
      .execute();
    for (const row of rows) this.drive(row.id);
  }

  drive(id: string): void {
    this.launch(id, (signal) => this.run(id, signal));
  }

  /**
   * A new attempt, already committed as 'creating': created at the provider now, then followed
   * like any other. The request that started it does not wait for it: the
   * provider's latency is the terminal's, not the waiter's screen's.
   */
  start(row: CardPaymentRow, description: string): void {
    this.launch(row.id, async (signal) => {
      if ((await this.create(row, description)) === 'failed' || signal.aborted) return;
      await this.run(row.id, signal);
    });
  }

  private launch(id: string, work: (signal: AbortSignal) => Promise<void>): void {
    if (this.stopped || this.running.has(id)) return;
    const abort = new AbortController();
    this.running.set(id, abort);
    const loop = work(abort.signal)
      .catch((error: unknown) => console.error(`card payment ${id}:`, error))
      .finally(() => {
        this.running.delete(id);
        this.loops.delete(loop);
      });
    this.loops.add(loop);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const abort of this.running.values()) abort.abort();
    await Promise.allSettled([...this.loops]);
  }

  /** Creates the attempt at the provider once; transient failures leave it 'creating' for a retry. */
  async create(row: CardPaymentRow, description: string): Promise<'created' | 'failed' | 'retry'> {
    let providerId: string;
    try {
      ({ providerId } = await this.deps.provider.createPayment({
        terminalId: row.terminal_id,
        amountCents: Number(row.amount),
        externalReference: row.id,
        description,
        idempotencyKey: providerKeys(row.id).create,
      }));
    } catch (error) {
      const mp = error instanceof MpError ? error : new MpError(0, 'unknown', String(error));
      if (mp.transient) return 'retry';
      await this.fail(row.id, createFailure(mp), { status: mp.status, code: mp.code });
      return 'failed';
    }
    const stored = await mutate(this.ctx, async (trx, emit) => {
      const res = await trx
        .updateTable('card_payments')
        .set({ provider_id: providerId, state: 'pending', updated_at: this.ctx.clock.now() })
        .where('id', '=', row.id)
        .where('state', 'in', cardStatesFor('created'))
        .executeTakeFirst();
      emitCardPayment(emit, row.id);
      return Number(res.numUpdatedRows) === 1;
    });
    // Cancelled while the call was in flight: take it back off the terminal.
    if (!stored) await this.cancelAtProvider(row.terminal_id, providerId, row.id).catch(() => undefined);
    return stored ? 'created' : 'failed';
  }

  /** One read of the provider, applied; used by webhooks and before a retry. */
  async reconcile(id: string): Promise<void> {
    const row = await findCardPayment(this.ctx.db.db, id);
    if (!row?.provider_id) return;
    let payment: ProviderPayment;
    try {
      payment = await this.deps.provider.getPayment(row.provider_id);
    } catch (error) {
      // A payment the provider no longer knows cannot charge anyone: it is over.
      if (!(error instanceof MpError && error.status === 404)) throw error;
      payment = {
        providerId: row.provider_id,
        state: 'cancelled',
        rawState: 'NOT_FOUND',
        statusDetail: null,
        paymentId: null,
        amountCents: null,
        cardType: null,
      };
    }
    await settleCardPayment(this.ctx, id, payment);
  }

  async cancelAtProvider(terminalId: string, providerId: string, id: string): Promise<void> {
    await this.deps.provider.cancelPayment({ terminalId, providerId, idempotencyKey: providerKeys(id).cancel });
  }

  private async run(id: string, signal: AbortSignal): Promise<void> {
    let row = await findCardPayment(this.ctx.db.db, id);
    if (row?.state === 'creating') row = await this.retryCreate(row, signal);
    if (!row || signal.aborted) return;
    if (row.state === 'pending' || row.state === 'processing') await this.poll(row, signal);
    else if (row.state === 'timeout') await this.watchLate(row, signal);
  }

  private async retryCreate(row: CardPaymentRow, signal: AbortSignal): Promise<CardPaymentRow | undefined> {
    const order = await this.ctx.db.db.selectFrom('orders').select(['table_number']).where('id', '=', row.order_id).executeTakeFirst();
    const description = order ? tableLabel(order.table_number) : 'Mesa';
    let attempts = row.attempts;
    while (attempts < this.deps.poll.maxAttempts) {
      await this.deps.sleep(this.deps.poll.intervalMs, signal);
      if (signal.aborted) return undefined;
      attempts += 1;
      await this.ctx.db.db.updateTable('card_payments').set({ attempts }).where('id', '=', row.id).execute();
      const current = await findCardPayment(this.ctx.db.db, row.id);
      if (current?.state !== 'creating') return current;
      if ((await this.create(current, description)) !== 'retry') return findCardPayment(this.ctx.db.db, row.id);
    }
    await this.fail(row.id, TERMINAL_MESSAGES.createFailed, { reason: 'create_retries_exhausted' });
    return undefined;
  }

  private async poll(row: CardPaymentRow, signal: AbortSignal): Promise<void> {
    const providerId = row.provider_id;
    if (!providerId) return;
    const outcome = await pollPayment({
      read: () => this.deps.provider.getPayment(providerId),
      settings: this.deps.poll,
      sleep: this.deps.sleep,
      signal,
      startAttempt: row.attempts,
      onAttempt: async (attempt, result) => {
        await this.ctx.db.db.updateTable('card_payments').set({ attempts: attempt }).where('id', '=', row.id).execute();
        if (result.payment) await settleCardPayment(this.ctx, row.id, result.payment);
      },
    });
    if (outcome.kind !== 'timeout') return;
    // The terminal asked for a confirmation only a person can give: say so instead of 'time-out'.
    const needsCheck = /^(CONFIRMATION_REQUIRED|action_required)/.test(outcome.last?.rawState ?? '');
    const message = !outcome.last ? TERMINAL_MESSAGES.statusFailed : needsCheck ? TERMINAL_MESSAGES.unexpected : TERMINAL_MESSAGES.timeout;
    await this.giveUp(row, providerId, message, signal);
  }

  /** The customer did not finish in time: take the payment off the terminal if it is still queued. */
  private async giveUp(row: CardPaymentRow, providerId: string, message: string, signal: AbortSignal): Promise<void> {
    const timedOut = await mutate(this.ctx, async (trx, emit) => {
      const now = this.ctx.clock.now();
      const res = await trx
        .updateTable('card_payments')
        .set({ state: 'timeout', error: message, updated_at: now })
        .where('id', '=', row.id)
        .where('state', 'in', cardStatesFor('timedOut'))
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await audit(trx, now, {
        actor: null,
        action: 'card_payment.timeout',
        entity: 'card_payment',
        entityId: row.id,
        data: { orderId: row.order_id },
      });
      emitCardPayment(emit, row.id);
      return true;
    });
    if (!timedOut) return;
    try {
      await this.cancelAtProvider(row.terminal_id, providerId, row.id);
      await this.reconcile(row.id);
    } catch {
      // Already on the terminal (or the provider is down): watch it for a late answer.
      const current = await findCardPayment(this.ctx.db.db, row.id);
      if (current?.state === 'timeout') await this.watchLate(current, signal);
    }
  }

  private async watchLate(row: CardPaymentRow, signal: AbortSignal): Promise<void> {
    const providerId = row.provider_id;
    if (!providerId) return;
    const { intervalMs, rateLimitWaitMs } = this.deps.poll;
    await pollPayment({
      read: () => this.deps.provider.getPayment(providerId),
      settings: { intervalMs: intervalMs * LATE_WATCH_FACTOR, rateLimitWaitMs, maxAttempts: LATE_WATCH_ATTEMPTS },
      sleep: this.deps.sleep,
      signal,
      onAttempt: async (_attempt, result) => {
        if (result.payment && isFinalPaymentState(result.payment.state)) await settleCardPayment(this.ctx, row.id, result.payment);
      },
    });
  }

  private async fail(id: string, message: string, data: Record<string, unknown>): Promise<void> {
    await mutate(this.ctx, async (trx, emit) => {
      const now = this.ctx.clock.now();
      const res = await trx
        .updateTable('card_payments')
        .set({ state: 'error', error: message, updated_at: now })
        .where('id', '=', id)
        .where('state', 'in', cardStatesFor('createFailed'))
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return;
      await audit(trx, now, {
        actor: null,
        action: 'card_payment.error',
        entity: 'card_payment',
        entityId: id,
        data: { message, ...data },
      });
      emitCardPayment(emit, id);
    });
  }
}
