import type { ReportKind, ReportLossKind, ReportsResponse } from '@comanda/contract';
import { TAX_TEXT, taxSummary, WEEKDAYS_ES } from '@comanda/domain';

/** One exported report: a sheet of the .xlsx, a block of the CSV. Money cells hold centavos. */
export interface ReportSheet {
  kind: Exclude<ReportKind, 'todos'>;
  title: string;
  columns: { header: string; money?: boolean }[];
  rows: (string | number)[][];
}

export const METHOD_LABELS: Record<string, string> = { efectivo: 'Efectivo', tarjeta: 'Tarjeta', transferencia: 'Transferencia' };
export const LOSS_LABELS: Record<ReportLossKind, string> = {
  void: 'Cancelación de productos',
  cancel: 'Orden cancelada',
  discount: 'Descuento',
  comp: 'Cortesía',
};
const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;
const money = (header: string) => ({ header, money: true });

/** Every report of the response as sheets, in the screen's order; `kind` picks one ('todos': all). */
export function reportSheets(report: ReportsResponse, kind: ReportKind = 'todos'): ReportSheet[] {
  const sheets: ReportSheet[] = [
    {
      kind: 'horas',
      title: 'Ventas por hora',
      columns: [{ header: 'Hora' }, { header: 'Tickets' }, money('Ventas'), money('Propinas')],
      rows: report.byHour.map((h) => [hourLabel(h.hour), h.orders, h.total, h.tips]),
    },
    {
      kind: 'dias',
      title: 'Ventas por día',
      columns: [{ header: 'Día' }, { header: 'Días con ventas' }, { header: 'Tickets' }, money('Ventas'), money('Propinas')],
      rows: report.byWeekday.map((d) => [WEEKDAYS_ES[d.weekday] ?? '', d.days, d.orders, d.total, d.tips]),
    },
    {
      kind: 'productos',
      title: 'Productos',
      columns: [{ header: 'Producto' }, { header: 'Categoría' }, { header: 'Unidades' }, money('Importe')],
      rows: report.products.map((p) => [p.productName, p.category, p.units, p.amount]),
    },
    {
      kind: 'categorias',
      title: 'Categorías',
      columns: [{ header: 'Categoría' }, { header: 'Unidades' }, money('Importe')],
      rows: report.categories.map((c) => [c.category, c.units, c.amount]),
    },
    {
      kind: 'meseros',
      title: 'Meseros',
      columns: [{ header: 'Mesero' }, { header: 'Tickets' }, money('Ventas'), money('Ticket promedio'), money('Propinas')],
      rows: report.waiters.map((w) => [w.waiterName, w.tickets, w.sales, w.averageTicket, w.tips]),
    },
    {
      kind: 'cancelaciones',
      title: 'Cancelaciones y descuentos',
      columns: [{ header: 'Tipo' }, { header: 'Motivo o usuario' }, { header: 'Veces' }, { header: 'Unidades' }, money('Importe')],
      rows: [
        ...report.losses.byReason.map((r) => [LOSS_LABELS[r.kind], `Motivo: ${r.reason}`, r.count, r.units, r.amount]),
        ...report.losses.byUser.map((u) => [LOSS_LABELS[u.kind], `Usuario: ${u.userName}`, u.count, u.units, u.amount]),
      ],
    },
    {
      kind: 'metodos',
      title: 'Métodos de pago',
      columns: [{ header: 'Método' }, { header: 'Pagos' }, money('Importe'), money('Propinas')],
      rows: report.methods.map((m) => [METHOD_LABELS[m.method] ?? m.method, m.payments, m.amount, m.tips]),
    },
    taxSheet(report),
  ];
  return kind === 'todos' ? sheets : sheets.filter((s) => s.kind === kind);
}

/** Ventas netas, the IVA (and IEPS) by rate from the frozen breakdowns, and the tips apart (not taxed). */
function taxSheet(report: ReportsResponse): ReportSheet {
  const summary = taxSummary(report.taxes);
  return {
    kind: 'impuestos',
    title: TAX_TEXT.sheet,
    columns: [{ header: 'Concepto' }, money('Importe')],
    rows: [
      [TAX_TEXT.netSales, summary.subtotal],
      ...summary.rates.map((r) => [r.label, r.amount]),
      [TAX_TEXT.withTaxes, summary.total],
      [TAX_TEXT.tips, report.totals.tips],
      [TAX_TEXT.charged, report.totals.total],
    ],
  };
}

/** 'reportes-2026-11-01-a-2026-11-30' (+ the report's kind when one). */
export function exportName(report: ReportsResponse, kind: ReportKind): string {
  return `reportes-${report.from}-a-${report.to}${kind === 'todos' ? '' : `-${kind}`}`;
}
