import type { TestCharge } from '@comanda/contract';
import { TERMINAL_MESSAGES, TEST_CHARGE_CENTS } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import { newId } from '../../http/ids.ts';
import { MpError } from '../../payments/mercadopago/http.ts';
import { pollPayment, type PollSettings, type Sleep } from '../../payments/mercadopago/poller.ts';
import type { CardProvider, ProviderPayment } from '../../payments/mercadopago/provider.ts';
import { MESSAGES } from '../../http/messages.ts';

export const TEST_MESSAGES = MESSAGES.testCharge;

function outcomeMessage(p: ProviderPayment): { state: TestCharge['state']; message: string } {
  switch (p.state) {
    case 'approved':
      return { state: 'success', message: TEST_MESSAGES.success };
    case 'cancelled':
      return { state: 'error', message: TEST_MESSAGES.cancelled };
    case 'rejected':
      return { state: 'error', message: TERMINAL_MESSAGES.rejected };
    case 'pending':
    case 'processing':
      return { state: 'testing', message: '' };
  }
}

/**
 * The $5.00 test charge of the settings tab. It belongs to no order, so it lives in memory:
 * a restart forgets it, and the admin simply tries again.
 */
export class TestCharges {
  private readonly charges = new Map<string, TestCharge>();
  private readonly abort = new AbortController();

  constructor(
    private readonly ctx: AppContext,
    private readonly deps: { provider: CardProvider; poll: PollSettings; sleep: Sleep },
  ) {}

  get(id: string): TestCharge | null {
    return this.charges.get(id) ?? null;
  }

  async start(terminalId: string): Promise<TestCharge> {
    const id = newId();
    const charge: TestCharge = {
      id,
      terminalId,
      amount: TEST_CHARGE_CENTS,
      externalReference: `test-${id}`,
      state: 'testing',
      message: null,
    };
    this.charges.set(id, charge);
    // Only recent tests are worth keeping; the oldest go first (a Map keeps insertion order).
    for (const old of this.charges.keys()) {
      if (this.charges.size <= 50) break;
      this.charges.delete(old);
    }
    let providerId: string;
    try {
      ({ providerId } = await this.deps.provider.createPayment({
        terminalId,
        amountCents: TEST_CHARGE_CENTS,
        externalReference: charge.externalReference,
        description: 'Pago de prueba',
        idempotencyKey: `comanda-test-${id}`,
      }));
    } catch (error) {
      const notFound = error instanceof MpError && error.status === 404;
      return this.finish(id, 'error', notFound ? TERMINAL_MESSAGES.notFound : TEST_MESSAGES.processError);
    }
    void this.watch(id, terminalId, providerId);
    return { ...charge };
  }

  stop(): void {
    this.abort.abort();
  }

  private async watch(id: string, terminalId: string, providerId: string): Promise<void> {
    try {
      const outcome = await pollPayment({
        read: () => this.deps.provider.getPayment(providerId),
        settings: this.deps.poll,
        sleep: this.deps.sleep,
        signal: this.abort.signal,
      });
      if (outcome.kind === 'aborted') return;
      if (outcome.kind === 'final') {
        const { state, message } = outcomeMessage(outcome.payment);
        this.finish(id, state, message);
        return;
      }
      await this.deps.provider
        .cancelPayment({ terminalId, providerId, idempotencyKey: `comanda-test-cancel-${id}` })
        .catch(() => undefined);
      this.finish(id, 'error', TERMINAL_MESSAGES.timeout);
    } catch {
      this.finish(id, 'error', TEST_MESSAGES.error);
    }
  }

  private finish(id: string, state: TestCharge['state'], message: string): TestCharge {
    const charge = this.charges.get(id);
    if (!charge) throw new Error('unknown test charge');
    Object.assign(charge, { state, message });
    this.ctx.live.publish({ topic: 'terminals', type: 'terminal.test-charge', id, at: this.ctx.clock.now() });
    return { ...charge };
  }
}
