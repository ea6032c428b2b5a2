import { cents, centsToPesos } from '@comanda/domain';
import type { SimPayment, SimStatus, SimTerminal } from './store.ts';

const POINT_STATE: Record<SimStatus, string> = {
  queued: 'OPEN',
  on_terminal: 'ON_TERMINAL',
  processing: 'PROCESSING',
  approved: 'FINISHED',
  rejected: 'FINISHED',
  cancelled: 'CANCELED',
  abandoned: 'ABANDONED',
  expired: 'ABANDONED',
  error: 'ERROR',
  confirmation_required: 'CONFIRMATION_REQUIRED',
  refunded: 'FINISHED',
};

const POINT_PAYMENT: Partial<Record<SimStatus, { status: string; detail: string }>> = {
  approved: { status: 'approved', detail: 'accredited' },
  rejected: { status: 'rejected', detail: 'cc_rejected_other_reason' },
  refunded: { status: 'refunded', detail: 'refunded' },
  confirmation_required: { status: 'in_process', detail: 'pending_review' },
};

/** A payment intent as GET /point/integration-api/payment-intents/{id} shows it. */
export function pointIntent(p: SimPayment): Record<string, unknown> {
  const pay = POINT_PAYMENT[p.status];
  const state = p.raw?.state ?? POINT_STATE[p.status];
  const status = p.raw ? p.raw.paymentStatus : pay?.status;
  const detail = p.raw ? p.raw.statusDetail : pay?.detail;
  return {
    id: p.id,
    device_id: p.terminalId,
    amount: p.amountCents,
    description: p.description,
    state,
    payment:
      p.paymentId || status
        ? { id: p.paymentId ? Number(p.paymentId) : undefined, type: p.cardType, installments: 1, status, status_detail: detail }
        : undefined,
    additional_info: { external_reference: p.externalReference, print_on_terminal: p.printOnTerminal ?? true },
  };
}

const ORDER_STATUS: Record<SimStatus, [string, string]> = {
  queued: ['created', 'created'],
  on_terminal: ['at_terminal', 'at_terminal'],
  processing: ['processing', 'processing'],
  approved: ['processed', 'accredited'],
  rejected: ['failed', 'rejected'],
  cancelled: ['canceled', 'canceled'],
  abandoned: ['canceled', 'canceled'],
  expired: ['expired', 'expired'],
  error: ['failed', 'processing_error'],
  confirmation_required: ['action_required', 'action_required'],
  refunded: ['refunded', 'refunded'],
};

/** An order as GET /v1/orders/{id} shows it. */
export function mpOrder(p: SimPayment): Record<string, unknown> {
  const [status, detail] = p.raw ? [p.raw.state, p.raw.statusDetail ?? p.raw.state] : ORDER_STATUS[p.status];
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    id: p.id,
    type: 'point',
    processing_mode: 'automatic',
    external_reference: p.externalReference,
    description: p.description,
    expiration_time: 'PT16M',
    country_code: 'MEX',
    status,
    status_detail: detail,
    currency: 'MXN',
    created_date: iso(p.createdAt),
    last_updated_date: iso(p.updatedAt),
    transactions: {
      payments: [
        {
          id: p.transactionId,
          amount: centsToPesos(cents(p.amountCents)),
          status,
          status_detail: detail,
          reference_id: p.paymentId ?? undefined,
          payment_method: p.paymentId
            ? { id: p.cardType === 'debit_card' ? 'debvisa' : 'visa', type: p.cardType, installments: 1 }
            : undefined,
        },
      ],
    },
    config: { point: { terminal_id: p.terminalId, print_on_terminal: 'seller_ticket' } },
  };
}

export function pointDevice(t: SimTerminal): Record<string, unknown> {
  return { id: t.id, pos_id: t.posId, store_id: t.storeId, external_pos_id: t.externalPosId, operating_mode: t.operatingMode };
}
