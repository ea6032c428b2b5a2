import type { AddPaymentBody, AddPaymentResponse, SessionUser } from '@comanda/contract';
import { newId } from '../../http/ids.ts';
import { mutate } from '../../http/transaction.ts';
import { cashierFor } from './cashier.ts';
import { presentPayment } from '../../model/orders/order-presenter.ts';
import { recordPaymentInTx } from '../../model/checkout/record-payment.ts';
import { attachToDrawer } from '../../model/drawer/drawer-store.ts';
import type { WriteContext } from '../../http/request-context.ts';

export interface AddPaymentRequest {
  orderId: string;
  body: AddPaymentBody;
  user: SessionUser;
  ip: string;
  sessionHash?: string | null;
}

/**
 * POST /api/orders/:orderId/payments: one part of a mixed payment, cash or transfer (a transfer
 * is only recorded, with its optional reference: nothing goes to the card terminal). The PIN
 * names the cashier as in the cash close. One transaction records the payment row and, when it
 * settles the balance, closes the order; the generic Idempotency-Key layer answers a repeat.
 */
export async function addPayment(ctx: WriteContext, req: AddPaymentRequest): Promise<AddPaymentResponse> {
  const { cashier } = await cashierFor(ctx, { ...req, pin: req.body.pin });
  const { method, amount, tipBps, tipAmount, peopleCount, splitCount, receivedAmount, reference } = req.body;

  return mutate(ctx, async (trx, emit) => {
    const paymentId = newId();
    const recorded = await recordPaymentInTx(ctx, trx, {
      orderId: req.orderId,
      paymentId,
      method,
      part: amount,
      tip: tipAmount !== undefined ? { amount: tipAmount } : { bps: tipBps ?? 0 },
      receivedAmount: method === 'efectivo' ? (receivedAmount ?? null) : null,
      reference: method === 'transferencia' ? (reference ?? null) : null,
      cashier: { id: cashier.id, name: cashier.displayName },
      providerPaymentId: null,
      actor: { id: req.user.id, displayName: req.user.displayName },
      peopleCount: peopleCount ?? null,
      splitCount: splitCount ?? null,
      emit,
      // No card charge may be on its way or awaiting review: the customer would pay twice.
      refuseCardCharges: true,
    });
    // Cash goes into the open drawer session, one payment at a time.
    if (method === 'efectivo') await attachToDrawer(trx, { orderId: req.orderId, paymentId, now: ctx.clock.now(), emit });
    return { order: recorded.order, payment: presentPayment(recorded.payment), closed: recorded.closed };
  });
}
