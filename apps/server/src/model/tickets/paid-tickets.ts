import { sql } from 'kysely';
import type { TicketSummary } from '@comanda/contract';
import { businessDate, ticketNumber } from '@comanda/domain';
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
  payment_id: string | null;
  payment_method: 'efectivo' | 'tarjeta' | 'transferencia' | null;
  payment_amount: number | null;
}

/** Paid orders with their one payment; callers add filters and the order. */
export function paidTickets(db: Trx) {
  return db
    .selectFrom('orders as o')
    .leftJoin('payments as p', 'p.order_id', 'o.id')
    .select([
      'o.id',
      'o.table_number',
      'o.table_name',
      'o.waiter_name',
      'o.subtotal',
      'o.tip',
      'o.total',
      'p.id as payment_id',
      'p.method as payment_method',
      'p.amount as payment_amount',
    ])
    .select(sql<number>`o.completed_at`.as('completed_at'))
    .where('o.status', '=', 'pagado')
    .where('o.completed_at', 'is not', null);
}

export function presentTicket(row: TicketRow, timezone: string): TicketSummary {
  const completedAt = Number(row.completed_at);
  return {
    id: row.id,
    ticketNumber: ticketNumber(row.id),
    tableNumber: row.table_number,
    tableName: row.table_name,
    waiterName: row.waiter_name,
    subtotal: Number(row.subtotal),
    tip: Number(row.tip),
    total: Number(row.total),
    completedAt,
    businessDate: businessDate(new Date(completedAt), timezone),
    payment:
      row.payment_id && row.payment_method
        ? { id: row.payment_id, method: row.payment_method, amount: Number(row.payment_amount ?? 0) }
        : null,
  };
}
