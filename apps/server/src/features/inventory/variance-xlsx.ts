import type { VarianceResponse } from '@comanda/contract';
import { centsToPesoNumber, formatQuantity } from '@comanda/domain';
import { headedSheet, safeText } from '../../model/xlsx.ts';

/** The variance as a real .xlsx, like the reports' export: a bold header, pesos as numbers in MXN format. */
export async function varianceXlsx(report: VarianceResponse, title: string): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.creator = 'Comanda';
  book.title = title;
  const headers = ['Insumo', 'Inicial', 'Entradas', 'Salidas', 'Final', 'Teórico', 'Real', 'Diferencia', 'Tragos', 'Pesos'];
  const ws = headedSheet(
    book,
    'Diferencias',
    headers.map((header, i) => ({ header, width: i === 0 ? 30 : 14, money: i === 9 })),
  );
  for (const r of report.rows) {
    const q = (n: number) => formatQuantity(n, r.unit);
    ws.addRow([
      safeText(r.name),
      q(r.opening),
      q(r.received),
      q(r.removed),
      q(r.closing),
      q(r.theoretical),
      q(r.real),
      q(r.variance),
      r.pourTenths === null ? '' : r.pourTenths / 10,
      r.costCents === null ? '' : centsToPesoNumber(r.costCents),
    ]);
  }
  // Real per station: its own warehouse's counts against what its lines sold.
  const stations = headedSheet(book, 'Por estación (real)', [
    { header: 'Estación', width: 14 },
    { header: 'Almacén', width: 18 },
    { header: 'Insumo', width: 30 },
    { header: 'Teórico', width: 14 },
    { header: 'Real', width: 14 },
    { header: 'Diferencia', width: 14 },
    { header: 'Tragos', width: 10 },
    { header: 'Pesos', width: 14, money: true },
  ]);
  for (const st of report.byStation) {
    for (const r of st.rows) {
      const q = (n: number) => formatQuantity(n, r.unit);
      stations.addRow([
        st.station,
        safeText(st.warehouseName),
        safeText(r.name),
        q(r.theoretical),
        q(r.real),
        q(r.variance),
        r.pourTenths === null ? '' : r.pourTenths / 10,
        r.costCents === null ? '' : centsToPesoNumber(r.costCents),
      ]);
    }
  }
  // Per waiter only the theory: no count belongs to one person.
  const waiters = headedSheet(book, 'Por mesero (teórico)', [
    { header: 'Mesero', width: 28 },
    { header: 'Estación', width: 12 },
    { header: 'Insumo', width: 30 },
    { header: 'Consumo teórico', width: 16 },
    { header: 'Tragos teóricos', width: 14 },
    { header: 'Teórico a costo', width: 16, money: true },
  ]);
  for (const w of report.byWaiter) {
    waiters.addRow([safeText(w.waiterName), w.station, 'Total', '', w.pourTenths / 10, centsToPesoNumber(w.costCents)]);
    for (const i of w.items)
      waiters.addRow([safeText(w.waiterName), w.station, safeText(i.name), formatQuantity(i.theoretical, i.unit), '', '']);
  }
  // Per preparer the same theory, of the lines each one marked listo.
  const preparers = headedSheet(book, 'Por bartender (teórico)', [
    { header: 'Preparó', width: 28 },
    { header: 'Estación', width: 12 },
    { header: 'Insumo', width: 30 },
    { header: 'Consumo teórico', width: 16 },
    { header: 'Tragos teóricos', width: 14 },
    { header: 'Teórico a costo', width: 16, money: true },
  ]);
  for (const p of report.byPreparer) {
    preparers.addRow([safeText(p.preparerName), p.station, 'Total', '', p.pourTenths / 10, centsToPesoNumber(p.costCents)]);
    for (const i of p.items)
      preparers.addRow([safeText(p.preparerName), p.station, safeText(i.name), formatQuantity(i.theoretical, i.unit), '', '']);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
