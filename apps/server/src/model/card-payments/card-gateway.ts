import type { AppContext } from '../../http/context.ts';
import { createCardProvider, MP_BASE_URL } from '../../payments/mercadopago/client.ts';
import { pollSettings, realSleep, type PollSettings, type Sleep } from '../../payments/mercadopago/poller.ts';
import type { CardProvider, ProviderApi } from '../../payments/mercadopago/provider.ts';
import { DEMO_TERMINAL_ID, startSimulator, type Simulator } from '../../payments/mercadopago/simulator/server.ts';
import { CardPaymentDriver } from './card-payment-driver.ts';
import { TestCharges } from './test-charges.ts';
import { withoutKey } from '../../http/request-context.ts';

/** Everything card payments need at run time; one per server process. */
export interface CardGateway {
  provider: CardProvider;
  mode: 'demo' | 'live';
  api: ProviderApi;
  /** What the settings screen may show of the token (SPEC §9). */
  tokenPreview: string | null;
  poll: PollSettings;
  sleep: Sleep;
  simulator: Simulator | null;
  driver: CardPaymentDriver;
  tests: TestCharges;
}

const KEY = 'card-gateway';
const DEMO_APPROVE_MS = 3000;

export function cardGateway(ctx: AppContext): CardGateway {
  const gw = ctx.services.get(KEY) as CardGateway | undefined;
  if (!gw) throw new Error('card payments are not started');
  return gw;
}

/** Only test and application tokens are shown, and only their first 15 characters. */
export function tokenPreview(token: string): string | null {
  return /^(TEST-|APP_USR-)/.test(token) ? token.slice(0, 15) : null;
}

/**
 * Without MP_ACCESS_TOKEN the loopback simulator runs in demo mode with one terminal, so a new
 * user can take a card payment end to end; with it, calls go to Mercado Pago (or MP_BASE_URL).
 */
export async function startCardPayments(ctx: AppContext, log: (line: string) => void): Promise<void> {
  const token = ctx.config.MP_ACCESS_TOKEN?.trim() ?? '';
  let simulator: Simulator | null = null;
  let baseUrl = ctx.config.MP_BASE_URL ?? MP_BASE_URL;
  let accessToken = token;
  if (!token) {
    simulator = await startSimulator({
      autoFinishMs: ctx.config.MP_DEMO_APPROVE_MS ?? DEMO_APPROVE_MS,
      terminals: [DEMO_TERMINAL_ID],
      port: ctx.config.MP_SIMULATOR_PORT,
    });
    baseUrl = simulator.url;
    accessToken = simulator.token;
    log(`Terminal de pago: sin MP_ACCESS_TOKEN, se usa el simulador de demostración (${simulator.url}).`);
  }
  const partial = {
    provider: createCardProvider({ api: ctx.config.MP_API, baseUrl, accessToken }),
    mode: simulator ? ('demo' as const) : ('live' as const),
    api: ctx.config.MP_API,
    tokenPreview: simulator ? 'demo' : tokenPreview(token),
    poll: pollSettings(ctx.config.MP_POLL_MS),
    sleep: realSleep,
    simulator,
  };
  const gw: CardGateway = { ...partial, driver: new CardPaymentDriver(withoutKey(ctx), partial), tests: new TestCharges(ctx, partial) };
  ctx.services.set(KEY, gw);
  await gw.driver.resume();
}

export async function stopCardPayments(ctx: AppContext): Promise<void> {
  const gw = ctx.services.get(KEY) as CardGateway | undefined;
  if (!gw) return;
  ctx.services.delete(KEY);
  await gw.driver.stop();
  gw.tests.stop();
  await gw.simulator?.close();
}
