import { sql } from 'kysely';
import type { TicketPayment, TicketSummary } from '@comanda/contract';
import { businessDate, ticketNumber, cents } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';

export interface TicketRow {
  id: string;
  table_number: number;
  table_name: string | null;
  waiter_name: string | null;
  subtotal: number;
  tip: number;
  total: number;
  completed_at: number;
  folio: number | null;
}

/** Paid orders (one row each); callers add filters and the order, then withPayments. */
export function paidTickets(db: Trx) {
  return db
    .selectFrom('orders as o')
    .select(['o.id', 'o.table_number', 'o.table_name', 'o.waiter_name', 'o.subtotal', 'o.tip', 'o.total', 'o.folio'])
    .select(sql<number>`o.completed_at`.as('completed_at'))
    .where('o.status', '=', 'pagado')
    .where('o.completed_at', 'is not', null);
}

/**
 * The payments of a page of tickets, oldest first, in one query by the order_id index: an
 * order paid in parts (cash, card, transfer) has several.
 */
export async function ticketPayments(db: Trx, orderIds: readonly string[]): Promise<Map<string, TicketPayment[]>> {
  const byOrder = new Map<string, TicketPayment[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db
    .selectFrom('payments')
    .select(['id', 'order_id', 'method', 'amount'])
    .where('order_id', 'in', [...orderIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = byOrder.get(row.order_id) ?? [];
    list.push({ id: row.id, method: row.method, amount: cents(Number(row.amount)) });
    byOrder.set(row.order_id, list);
  }
  return byOrder;
}

/**
 * Cancelled orders, shaped like paid tickets for the history's CANCELADO filter:
 * completed_at is when they were cancelled; they have no payment and are never sales.
 */
export function cancelledTickets(db: Trx) {
  return db
    .selectFrom('orders as o')
    .select(['o.id', 'o.table_number', 'o.table_name', 'o.waiter_name', 'o.subtotal', 'o.tip', 'o.total', 'o.folio', 'o.cancel_reason'])
    .select(sql<number>`o.completed_at`.as('completed_at'))
    .where('o.status', '=', 'cancelado')
    .where('o.completed_at', 'is not', null);
}

export function presentTicket(
  row: TicketRow & { cancel_reason?: string | null },
  timezone: string,
  payments: readonly TicketPayment[] = [],
): TicketSummary {
  const completedAt = Number(row.completed_at);
  return {
    id: row.id,
    ticketNumber: ticketNumber(row.id),
    tableNumber: row.table_number,
    tableName: row.table_name,
    waiterName: row.waiter_name,
    subtotal: cents(Number(row.subtotal)),
    tip: cents(Number(row.tip)),
    total: cents(Number(row.total)),
    completedAt,
    businessDate: businessDate(new Date(completedAt), timezone),
    payment: payments[0] ?? null,
    folio: row.folio === null ? null : Number(row.folio),
    payments: [...payments],
    ...('cancel_reason' in row ? { status: 'cancelado' as const, cancelReason: row.cancel_reason ?? null } : {}),
  };
}
