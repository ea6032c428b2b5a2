import { paymentBalance, type Cents, type PaymentPart } from '@comanda/domain';
import type { OrderRow, PaymentRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { amountOwed } from './amount-owed.ts';

/** The payments already recorded on an order, oldest first. */
export async function orderPayments(db: Trx, orderId: string): Promise<PaymentRow[]> {
  return db.selectFrom('payments').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute();
}

export function asParts(rows: readonly Pick<PaymentRow, 'amount' | 'tip_amount'>[]): PaymentPart[] {
  return rows.map((p) => ({ amount: Number(p.amount), tipAmount: Number(p.tip_amount) }));
}

/** What is still owed on the order: amountOwed minus the parts already paid. */
export function balanceOf(
  row: Pick<OrderRow, 'subtotal'> & Partial<Pick<OrderRow, 'discount' | 'comp'>>,
  payments: readonly Pick<PaymentRow, 'amount' | 'tip_amount'>[],
): Cents {
  return paymentBalance(amountOwed(row), asParts(payments));
}
