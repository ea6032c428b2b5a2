import { mapPointIntentState } from '@comanda/domain';
import { MpError, type MpHttp } from './http.ts';
import { cardTypeOf, str, type CardProvider, type CreatePaymentInput, type ProviderPayment, type TerminalDevice } from './provider.ts';

interface PointDevice {
  id: string;
  operating_mode?: string;
  store_id?: string | number;
  pos_id?: string | number;
  external_pos_id?: string;
}

export interface PointIntent {
  id: string;
  device_id?: string;
  amount?: number;
  description?: string;
  state?: string;
  payment?: { id?: string | number; type?: string; status?: string; status_detail?: string };
  additional_info?: { external_reference?: string; print_on_terminal?: boolean };
}

/** The legacy Point Integration API of SPEC §7: amounts in cents, device id in the path. */
export class PointApi implements CardProvider {
  readonly api = 'point' as const;
  constructor(private readonly http: MpHttp) {}

  async listTerminals(): Promise<TerminalDevice[]> {
    const res = await this.http.request<{ devices?: PointDevice[] }>('GET', '/point/integration-api/devices', {
      query: { offset: 0, limit: 50 },
    });
    return (res?.devices ?? []).map((d) => ({
      id: d.id,
      operatingMode: str(d.operating_mode),
      storeId: str(d.store_id),
      posId: str(d.pos_id),
      externalPosId: str(d.external_pos_id),
    }));
  }

  async createPayment(input: CreatePaymentInput): Promise<{ providerId: string }> {
    const res = await this.http.request<PointIntent>(
      'POST',
      `/point/integration-api/devices/${encodeURIComponent(input.terminalId)}/payment-intents`,
      {
        idempotencyKey: input.idempotencyKey,
        body: {
          amount: input.amountCents,
          description: input.description,
          additional_info: { external_reference: input.externalReference, print_on_terminal: true },
        },
      },
    );
    const id = str(res?.id);
    if (!id) throw new MpError(502, 'no_intent_id', 'no payment intent id in the answer', res);
    return { providerId: id };
  }

  async getPayment(providerId: string): Promise<ProviderPayment> {
    const res = await this.http.request<PointIntent>('GET', `/point/integration-api/payment-intents/${encodeURIComponent(providerId)}`);
    const rawState = str(res?.state) ?? '';
    const paymentStatus = str(res?.payment?.status);
    return {
      providerId,
      state: mapPointIntentState(rawState, paymentStatus),
      rawState: paymentStatus ? `${rawState}/${paymentStatus}` : rawState,
      statusDetail: str(res?.payment?.status_detail),
      paymentId: str(res?.payment?.id),
      amountCents: typeof res?.amount === 'number' ? res.amount : null,
      cardType: cardTypeOf(res?.payment?.type),
    };
  }

  async cancelPayment(input: { terminalId: string; providerId: string; idempotencyKey: string }): Promise<void> {
    const path = `/point/integration-api/devices/${encodeURIComponent(input.terminalId)}/payment-intents/${encodeURIComponent(input.providerId)}`;
    await this.http.request('DELETE', path, { idempotencyKey: input.idempotencyKey });
  }

  async setOperatingMode(input: { terminalId: string; mode: 'PDV' | 'STANDALONE'; idempotencyKey: string }): Promise<void> {
    await this.http.request('PATCH', `/point/integration-api/devices/${encodeURIComponent(input.terminalId)}`, {
      idempotencyKey: input.idempotencyKey,
      body: { operating_mode: input.mode },
    });
  }
}
