import { sql } from 'kysely';
import type { Order } from '@comanda/contract';
import {
  changeDue,
  clampGuests,
  clampTipBps,
  cents,
  formatMXN,
  isCashSufficient,
  orderSubtotal,
  orderTotal,
  paymentGate,
  tipAmount,
  type PaymentMethod,
} from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import type { Emit, Trx } from '../../http/transaction.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { audit } from '../../http/audit.ts';
import { newId } from '../../http/ids.ts';
import { enqueueReceipt } from '../printing/enqueue.ts';
import { loadOrder, ORDER_CLOSED, ORDER_NOT_FOUND } from '../orders/order-repository.ts';
import { presentItem } from '../orders/order-presenter.ts';
import { emitOrderChanged } from '../orders/order-events.ts';

export const CHECKOUT_MESSAGES = {
  alreadyPaid: 'La orden ya fue pagada',
  cashShort: 'El monto recibido es menor al total',
  cashMissing: 'Ingresa el monto recibido',
} as const;

export interface CloseOrderInput {
  orderId: string;
  method: PaymentMethod;
  tipBps: number;
  peopleCount: number;
  /** Cash only: centavos handed over; null for card and transfer. */
  receivedAmount: number | null;
  /** Who took the money: the PIN user, or the card terminal ('mp-terminal'). */
  cashier: { id: string; name: string | null };
  providerPaymentId: string | null;
  /** The signed-in user who asked for the close; null when the server closes by itself (card). */
  actor: { id: string; displayName: string } | null;
  emit: Emit;
  /**
   * Card only: what the terminal already charged. The order's total becomes exactly that (the
   * tip is what it holds beyond the items), so the recorded payment is the money taken.
   */
  chargedTotal?: number;
  /** Card only: the money is already taken, so an item moved back on a board does not refuse it. */
  allowUndelivered?: boolean;
}

export const CHARGE_SHORT = (charged: number, subtotal: number) =>
  `El cobro aprobado (${formatMXN(cents(charged))}) no cubre los productos de la orden (${formatMXN(cents(subtotal))}).`;

/**
 * The one close of an order, for cash and card alike, inside the caller's transaction.
 * It claims the order with a conditional update first, so of two concurrent closes exactly one
 * sees it activo; the other waits for the row lock (PostgreSQL) or the write lock (SQLite) and
 * then gets 'La orden ya fue pagada'. Every amount is recomputed here from the item rows.
 */
export async function closeOrderInTx(ctx: AppContext, trx: Trx, input: CloseOrderInput): Promise<Order> {
  const now = ctx.clock.now();
  const claimed = await trx
    .updateTable('orders')
    .set({ version: sql<number>`version + 1`, updated_at: now })
    .where('id', '=', input.orderId)
    .where('status', '=', 'activo')
    .returning(['id', 'table_id', 'version', 'waiter_id'])
    .executeTakeFirst();
  if (!claimed) throw await notOpen(trx, input.orderId);

  const items = (await trx.selectFrom('order_items').selectAll().where('order_id', '=', input.orderId).execute()).map(presentItem);
  const gate = paymentGate(items);
  if (!gate.ok && !(gate.reason === 'undelivered' && input.allowUndelivered))
    throw conflict(gate.message, gate.reason === 'empty' ? 'order_empty' : 'items_undelivered');

  const tipBps = clampTipBps(input.tipBps);
  const subtotal = orderSubtotal(items.map((i) => ({ ...i, productPrice: cents(i.productPrice) })));
  if (input.chargedTotal !== undefined && input.chargedTotal < subtotal)
    throw conflict(CHARGE_SHORT(input.chargedTotal, subtotal), 'charge_short');
  const tip = input.chargedTotal !== undefined ? cents(input.chargedTotal - subtotal) : tipAmount(subtotal, tipBps);
  const total = orderTotal(subtotal, tip);
  const cash = cashFigures(input, total);

  await trx
    .updateTable('orders')
    .set({
      status: 'pagado',
      active_table_id: null,
      payment_method: input.method,
      people_count: clampGuests(input.peopleCount),
      subtotal,
      tip,
      total,
      completed_at: now,
      updated_at: now,
    })
    .where('id', '=', input.orderId)
    .execute();
  await trx
    .insertInto('payments')
    .values({
      id: newId(),
      order_id: input.orderId,
      method: input.method,
      amount: total,
      received_amount: cash.received,
      change_amount: cash.change,
      tip_amount: tip,
      tip_bps: tipBps,
      cashier_id: input.cashier.id,
      cashier_name: input.cashier.name,
      provider_payment_id: input.providerPaymentId,
      created_at: now,
    })
    .execute();
  // Only a table that still points at this order is freed; one reopened meanwhile is left alone.
  await trx
    .updateTable('tables')
    .set({ status: 'libre', waiter_id: null, waiter_name: null, current_order_id: null, updated_at: now })
    .where('id', '=', claimed.table_id)
    .where('current_order_id', '=', input.orderId)
    .execute();
  await audit(trx, now, {
    actor: input.actor,
    action: 'order.closed',
    entity: 'order',
    entityId: input.orderId,
    authorizedBy: input.cashier.id,
    data: {
      method: input.method,
      subtotal,
      tip,
      tipBps,
      total,
      receivedAmount: cash.received,
      change: cash.change,
      cashierName: input.cashier.name,
      providerPaymentId: input.providerPaymentId,
    },
  });

  await enqueueReceipt(trx, { orderId: input.orderId, now });
  const version = Number(claimed.version);
  emitOrderChanged(input.emit, input.orderId, version, { owner: claimed.waiter_id, board: true });
  input.emit({ topic: 'tables', type: 'table.updated', id: claimed.table_id, version });
  input.emit({ topic: 'tickets', type: 'ticket.created', id: input.orderId, version });
  return loadOrder(trx, input.orderId);
}

function cashFigures(input: CloseOrderInput, total: number): { received: number | null; change: number | null } {
  if (input.method !== 'efectivo') return { received: null, change: null };
  if (input.receivedAmount === null) throw new AppError(422, 'cash_missing', CHECKOUT_MESSAGES.cashMissing);
  const received = cents(input.receivedAmount);
  if (!isCashSufficient(received, cents(total))) throw new AppError(422, 'cash_short', CHECKOUT_MESSAGES.cashShort);
  return { received, change: changeDue(received, cents(total)) };
}

async function notOpen(trx: Trx, orderId: string): Promise<AppError> {
  const row = await trx.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirst();
  if (!row) return notFound(ORDER_NOT_FOUND);
  return row.status === 'pagado' ? conflict(CHECKOUT_MESSAGES.alreadyPaid, 'order_paid') : conflict(ORDER_CLOSED, 'order_closed');
}
