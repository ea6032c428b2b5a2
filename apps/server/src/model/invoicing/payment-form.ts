import { formaPagoOf, type PaymentMethod } from '@comanda/domain';
import type { Db } from '../../db/connect.ts';

/**
 * The forma de pago of each of these paid checks, from their payments (the domain's rule: the
 * largest part, before tips; a terminal's debit card 28): what the receipt, the cashier's
 * "Facturar" and so the factura global's receipts carry.
 */
export async function paymentForms(db: Db['db'], orderIds: readonly string[]): Promise<Map<string, string>> {
  if (!orderIds.length) return new Map();
  const rows = await db
    .selectFrom('payments')
    .select(['order_id', 'method', 'amount', 'tip_amount', 'card_type'])
    .where('order_id', 'in', [...orderIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const parts = new Map<string, { method: PaymentMethod; amount: number; cardType: string | null }[]>();
  for (const r of rows) {
    const list = parts.get(r.order_id) ?? [];
    list.push({ method: r.method as PaymentMethod, amount: Number(r.amount) - Number(r.tip_amount), cardType: r.card_type ?? null });
    parts.set(r.order_id, list);
  }
  return new Map(orderIds.map((id) => [id, formaPagoOf(parts.get(id) ?? [])]));
}

/** One check's forma de pago. */
export async function paymentFormOf(db: Db['db'], orderId: string): Promise<string> {
  return (await paymentForms(db, [orderId])).get(orderId)!;
}
