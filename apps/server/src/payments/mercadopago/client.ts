import { MpHttp, type MpHttpOptions } from './http.ts';
import { OrdersApi } from './orders-api.ts';
import { PointApi } from './point-api.ts';
import type { CardProvider, ProviderApi } from './provider.ts';

export const MP_BASE_URL = 'https://api.mercadopago.com';

/** Our own small client (the official SDK hard-codes its base URL): base URL, fetch injectable. */
export function createCardProvider(opts: MpHttpOptions & { api: ProviderApi }): CardProvider {
  const http = new MpHttp(opts);
  return opts.api === 'orders' ? new OrdersApi(http) : new PointApi(http);
}

export { MpError, MpHttp, type FetchLike } from './http.ts';
export type { CardProvider, ProviderApi, ProviderPayment, TerminalDevice, CreatePaymentInput } from './provider.ts';
export { pollPayment, pollSettings, realSleep, DEFAULT_POLL, type PollOutcome, type PollSettings, type Sleep } from './poller.ts';
