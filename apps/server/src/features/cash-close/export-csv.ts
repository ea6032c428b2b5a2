import { sql } from 'kysely';
import { centsToPesos, cents, tableLabel, ticketNumber } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';
import type { Interval } from '../../model/shift-windows.ts';
import { CSV_BOM, csvCell } from '../../model/csv.ts';

const HEADER = [
  'Ticket',
  'Fecha',
  'Hora',
  'Mesa',
  'Nombre de mesa',
  'Mesero',
  'Personas',
  'Artículos',
  'Método',
  'Subtotal',
  'Propina',
  'Total',
  'Recibido',
  'Cambio',
  'ID de pago',
  'Cajero',
];
const METHOD_LABEL: Record<string, string> = { efectivo: 'Efectivo', tarjeta: 'Tarjeta', transferencia: 'Transferencia' };

interface ExportRow {
  id: string;
  table_number: number;
  table_name: string | null;
  waiter_name: string | null;
  people_count: number;
  payment_method: string | null;
  subtotal: number | string;
  tip: number | string;
  total: number | string;
  completed_at: number | string;
  items: number | string | null;
  received_amount: number | string | null;
  change_amount: number | string | null;
  payment_id: string | null;
  cashier_name: string | null;
}

const pesos = (v: number | string | null): string | null => (v === null ? null : centsToPesos(cents(Number(v))));

/** The shift's paid orders, oldest first, as an es-MX CSV (comma separated, dates dd/mm/aaaa). */
export async function shiftCsv(db: Trx, window: Interval, timezone: string): Promise<string> {
  const { rows } = await sql<ExportRow>`
    SELECT o.id, o.table_number, o.table_name, o.waiter_name, o.people_count, o.payment_method, o.subtotal, o.tip, o.total, o.completed_at,
      (SELECT SUM(i.quantity) FROM order_items i WHERE i.order_id = o.id AND i.is_deleted = 0) AS items,
      p.received_amount, p.change_amount, p.id AS payment_id, p.cashier_name
    FROM orders o
    -- One line per order: an order paid in parts shows the payment that settled it.
    LEFT JOIN payments p ON p.id = (SELECT q.id FROM payments q WHERE q.order_id = o.id ORDER BY q.created_at DESC, q.id DESC LIMIT 1)
    WHERE o.status = 'pagado' AND o.completed_at >= ${window.start} AND o.completed_at < ${window.end}
    ORDER BY o.completed_at, o.id
  `.execute(db);
  const date = new Intl.DateTimeFormat('es-MX', { timeZone: timezone, day: '2-digit', month: '2-digit', year: 'numeric' });
  const time = new Intl.DateTimeFormat('es-MX', { timeZone: timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const lines = rows.map((r) => {
    const at = new Date(Number(r.completed_at));
    return [
      ticketNumber(r.id),
      date.format(at),
      time.format(at),
      tableLabel(r.table_number),
      r.table_name,
      r.waiter_name,
      r.people_count,
      Number(r.items ?? 0),
      r.payment_method ? (METHOD_LABEL[r.payment_method] ?? r.payment_method) : null,
      pesos(r.subtotal),
      pesos(r.tip),
      pesos(r.total),
      pesos(r.received_amount),
      pesos(r.change_amount),
      r.payment_id,
      r.cashier_name,
    ]
      .map(csvCell)
      .join(',');
  });
  return CSV_BOM + [HEADER.join(','), ...lines].join('\r\n') + '\r\n';
}
