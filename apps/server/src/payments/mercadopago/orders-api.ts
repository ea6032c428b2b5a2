import { cents, centsToPesos, mapOrdersApiState, pesosToCents } from '@comanda/domain';
import { MpError, type MpHttp } from './http.ts';
import { cardTypeOf, str, type CardProvider, type CreatePaymentInput, type ProviderPayment, type TerminalDevice } from './provider.ts';

interface OrdersTerminal {
  id: string;
  operating_mode?: string;
  store_id?: string | number;
  pos_id?: string | number;
  external_pos_id?: string;
}

export interface MpOrder {
  id: string;
  type?: string;
  status?: string;
  status_detail?: string;
  external_reference?: string;
  transactions?: {
    payments?: {
      id?: string;
      amount?: string;
      status?: string;
      status_detail?: string;
      reference_id?: string;
      payment_method?: { id?: string; type?: string };
    }[];
  };
  config?: { point?: { terminal_id?: string } };
}

/** The Orders API that Mercado Pago recommends for new integrations: amounts as decimal strings. */
export class OrdersApi implements CardProvider {
  readonly api = 'orders' as const;
  constructor(private readonly http: MpHttp) {}

  async listTerminals(): Promise<TerminalDevice[]> {
    const res = await this.http.request<{ data?: { terminals?: OrdersTerminal[] } }>('GET', '/terminals/v1/list', {
      query: { limit: 50, offset: 0 },
    });
    return (res?.data?.terminals ?? []).map((t) => ({
      id: t.id,
      operatingMode: str(t.operating_mode),
      storeId: str(t.store_id),
      posId: str(t.pos_id),
      externalPosId: str(t.external_pos_id),
    }));
  }

  async createPayment(input: CreatePaymentInput): Promise<{ providerId: string }> {
    const res = await this.http.request<MpOrder>('POST', '/v1/orders', {
      idempotencyKey: input.idempotencyKey,
      body: {
        type: 'point',
        external_reference: input.externalReference,
        description: input.description,
        transactions: { payments: [{ amount: centsToPesos(cents(input.amountCents)) }] },
        config: { point: { terminal_id: input.terminalId, print_on_terminal: 'seller_ticket' } },
      },
    });
    const id = str(res?.id);
    if (!id) throw new MpError(502, 'no_order_id', 'no order id in the answer', res);
    return { providerId: id };
  }

  async getPayment(providerId: string): Promise<ProviderPayment> {
    const res = await this.http.request<MpOrder>('GET', `/v1/orders/${encodeURIComponent(providerId)}`);
    const rawState = str(res?.status) ?? '';
    const detail = str(res?.status_detail);
    const payment = res?.transactions?.payments?.[0];
    const amount = payment?.amount ? pesosToCents(payment.amount) : null;
    return {
      providerId,
      state: mapOrdersApiState(rawState, detail),
      rawState: detail ? `${rawState}/${detail}` : rawState,
      statusDetail: detail,
      // The card payment's own id, as the ticket shows it; the transaction id when there is none.
      paymentId: str(payment?.reference_id) ?? str(payment?.id),
      amountCents: amount,
      cardType: cardTypeOf(payment?.payment_method?.type),
    };
  }

  async cancelPayment(input: { terminalId: string; providerId: string; idempotencyKey: string }): Promise<void> {
    await this.http.request('POST', `/v1/orders/${encodeURIComponent(input.providerId)}/cancel`, { idempotencyKey: input.idempotencyKey });
  }

  async setOperatingMode(input: { terminalId: string; mode: 'PDV' | 'STANDALONE'; idempotencyKey: string }): Promise<void> {
    await this.http.request('PATCH', '/terminals/v1/setup', {
      idempotencyKey: input.idempotencyKey,
      body: { terminals: [{ id: input.terminalId, operating_mode: input.mode }] },
    });
  }
}
