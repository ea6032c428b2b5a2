import type { VarianceResponse } from '@comanda/contract';
import { centsToPesoNumber, formatQuantity } from '@comanda/domain';

const MXN_FORMAT = '"$"#,##0.00';
const safeText = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** The variance as a real .xlsx, like the reports' export: a bold header, pesos as numbers in MXN format. */
export async function varianceXlsx(report: VarianceResponse, title: string): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.creator = 'Comanda';
  book.title = title;
  const ws = book.addWorksheet('Diferencias');
  const headers = ['Insumo', 'Inicial', 'Entradas', 'Salidas', 'Final', 'Teórico', 'Real', 'Diferencia', 'Tragos', 'Pesos'];
  ws.columns = headers.map((header, i) => ({
    header,
    key: `c${i}`,
    width: i === 0 ? 30 : 14,
    style: i === 9 ? { numFmt: MXN_FORMAT } : {},
  }));
  ws.getRow(1).font = { bold: true };
  ws.views = [{ state: 'frozen', ySplit: 1 }];
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
  const waiters = book.addWorksheet('Por mesero');
  waiters.columns = [
    { header: 'Mesero', key: 'a', width: 28 },
    { header: 'Estación', key: 'b', width: 12 },
    { header: 'Vendido a costo', key: 'c', width: 16, style: { numFmt: MXN_FORMAT } },
  ];
  waiters.getRow(1).font = { bold: true };
  for (const w of report.byWaiter) waiters.addRow([safeText(w.waiterName), w.station, centsToPesoNumber(w.costCents)]);
  return Buffer.from(await book.xlsx.writeBuffer());
}
