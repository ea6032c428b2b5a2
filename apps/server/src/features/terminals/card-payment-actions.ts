import type { CardPayment, SessionUser } from '@comanda/contract';
import { cardStatesFor } from '@comanda/domain';
import { audit } from '../../http/audit.ts';
import { notFound } from '../../http/errors.ts';
import { answeredWithoutWrite, mutate } from '../../http/transaction.ts';
import { assertMayWorkOrder } from '../../model/orders/order-access.ts';
import { findOrderRow } from '../../model/orders/order-repository.ts';
import { cardGateway } from '../../model/card-payments/card-gateway.ts';
import { reviewsOfOrder } from './card-review.ts';
import {
  CARD_MESSAGES,
  emitCardPayment,
  findCardPayment,
  isLive,
  presentCardPayment,
} from '../../model/card-payments/card-payment-store.ts';
import type { AppContext } from '../../http/context.ts';
import type { WriteContext } from '../../http/request-context.ts';

async function visibleRow(ctx: AppContext, user: SessionUser, id: string) {
  const row = await findCardPayment(ctx.db.db, id);
  if (!row) throw notFound(CARD_MESSAGES.notFound);
  const order = await findOrderRow(ctx.db.db, row.order_id);
  if (!order) throw notFound(CARD_MESSAGES.notFound);
  assertMayWorkOrder(user, order);
  return row;
}

export async function getCardPayment(ctx: AppContext, user: SessionUser, id: string): Promise<CardPayment> {
  return presentCardPayment(await visibleRow(ctx, user, id), cardGateway(ctx).poll.maxAttempts);
}

/**
 * The attempt a reloaded checkout should resume (the newest one still live, if any), and the
 * order's approved charges waiting for review, so a reload never hides money already taken.
 */
export async function activeCardPayment(
  ctx: AppContext,
  user: SessionUser,
  orderId: string,
): Promise<{ payment: CardPayment | null; needsReview: CardPayment[] }> {
  const order = await findOrderRow(ctx.db.db, orderId);
  if (!order) return { payment: null, needsReview: [] };
  assertMayWorkOrder(user, order);
  const row = await ctx.db.db
    .selectFrom('card_payments')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('state', 'in', cardStatesFor('progressed'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const maxAttempts = cardGateway(ctx).poll.maxAttempts;
  return {
    payment: row ? presentCardPayment(row, maxAttempts) : null,
    needsReview: await reviewsOfOrder(ctx.db.db, orderId, maxAttempts),
  };
}

/**
 * Staff closed the dialog: take the payment off the terminal. The provider refuses once the
 * customer has it in hand; then polling goes on and a late approval still closes the order.
 */
export async function cancelCardPayment(ctx: WriteContext, user: SessionUser, id: string): Promise<CardPayment> {
  const gw = cardGateway(ctx);
  const row = await visibleRow(ctx, user, id);
  if (isLive(row.state)) {
    if (row.provider_id) {
      // The audit row claims the request's key before the call to the provider.
      await mutate(ctx, (trx) =>
        audit(trx, ctx.clock.now(), {
          actor: { id: user.id, displayName: user.displayName },
          action: 'card_payment.cancel_requested',
          entity: 'card_payment',
          entityId: id,
          data: { orderId: row.order_id },
        }),
      );
      // On the terminal already, or the provider is down: the background poll decides.
      await gw.driver.cancelAtProvider(row.terminal_id, row.provider_id, row.id).catch(() => undefined);
      await gw.driver.reconcile(row.id).catch(() => undefined);
    } else {
      // Not at the provider yet: the driver takes it back if its create call lands later.
      await mutate(ctx, async (trx, emit) => {
        const now = ctx.clock.now();
        const res = await trx
          .updateTable('card_payments')
          .set({ state: 'cancelled', updated_at: now })
          .where('id', '=', id)
          .where('state', 'in', cardStatesFor('cancelledBeforeCreate'))
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) return;
        await audit(trx, now, {
          actor: { id: user.id, displayName: user.displayName },
          action: 'card_payment.cancelled',
          entity: 'card_payment',
          entityId: id,
          data: { orderId: row.order_id },
        });
        emitCardPayment(emit, id);
      });
    }
  } else {
    answeredWithoutWrite(ctx); // over already: nothing to take back
  }
  const current = (await findCardPayment(ctx.db.db, id)) ?? row;
  return presentCardPayment(current, gw.poll.maxAttempts);
}
