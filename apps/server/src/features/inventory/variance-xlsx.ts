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
  // Real per station: its own warehouse's counts against what its lines sold.
  const stations = book.addWorksheet('Por estación (real)');
  stations.columns = [
    { header: 'Estación', key: 'a', width: 14 },
    { header: 'Almacén', key: 'b', width: 18 },
    { header: 'Insumo', key: 'c', width: 30 },
    { header: 'Teórico', key: 'd', width: 14 },
    { header: 'Real', key: 'e', width: 14 },
    { header: 'Diferencia', key: 'f', width: 14 },
    { header: 'Tragos', key: 'g', width: 10 },
    { header: 'Pesos', key: 'h', width: 14, style: { numFmt: MXN_FORMAT } },
  ];
  stations.getRow(1).font = { bold: true };
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
  const waiters = book.addWorksheet('Por mesero (teórico)');
  waiters.columns = [
    { header: 'Mesero', key: 'a', width: 28 },
    { header: 'Estación', key: 'b', width: 12 },
    { header: 'Insumo', key: 'c', width: 30 },
    { header: 'Consumo teórico', key: 'd', width: 16 },
    { header: 'Tragos teóricos', key: 'e', width: 14 },
    { header: 'Teórico a costo', key: 'f', width: 16, style: { numFmt: MXN_FORMAT } },
  ];
  waiters.getRow(1).font = { bold: true };
  for (const w of report.byWaiter) {
    waiters.addRow([safeText(w.waiterName), w.station, 'Total', '', w.pourTenths / 10, centsToPesoNumber(w.costCents)]);
    for (const i of w.items)
      waiters.addRow([safeText(w.waiterName), w.station, safeText(i.name), formatQuantity(i.theoretical, i.unit), '', '']);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
