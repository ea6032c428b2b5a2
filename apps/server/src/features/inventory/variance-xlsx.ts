import type { VarianceReportRow, VarianceResponse } from '@comanda/contract';
import { centsToPesoNumber, formatQuantity } from '@comanda/domain';
import type { Workbook } from 'exceljs';
import { headedSheet, safeText } from '../../model/xlsx.ts';

type TheoryGroup = Pick<VarianceResponse['byWaiter'][number], 'station' | 'pourTenths' | 'costCents' | 'items'> & { person: string };

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
      ...pourAndCost(r),
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
        ...pourAndCost(r),
      ]);
    }
  }
  // Per waiter only the theory: no count belongs to one person.
  theorySheet(
    book,
    'Por mesero (teórico)',
    'Mesero',
    report.byWaiter.map((w) => ({ ...w, person: w.waiterName })),
  );
  // Per preparer the same theory, of the lines each one marked listo.
  theorySheet(
    book,
    'Por bartender (teórico)',
    'Preparó',
    report.byPreparer.map((p) => ({ ...p, person: p.preparerName })),
  );
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A row's pours and pesos; blank where the insumo has no pour size or no cost. */
const pourAndCost = (r: VarianceReportRow) => [
  r.pourTenths === null ? '' : r.pourTenths / 10,
  r.costCents === null ? '' : centsToPesoNumber(r.costCents),
];

/** A theory-only sheet (per waiter, per preparer): each person and station's total row, then one row per insumo. */
function theorySheet(book: Workbook, title: string, personHeader: string, groups: readonly TheoryGroup[]) {
  const ws = headedSheet(book, title, [
    { header: personHeader, width: 28 },
    { header: 'Estación', width: 12 },
    { header: 'Insumo', width: 30 },
    { header: 'Consumo teórico', width: 16 },
    { header: 'Tragos teóricos', width: 14 },
    { header: 'Teórico a costo', width: 16, money: true },
  ]);
  for (const g of groups) {
    const person = safeText(g.person);
    ws.addRow([person, g.station, 'Total', '', g.pourTenths / 10, centsToPesoNumber(g.costCents)]);
    for (const i of g.items) ws.addRow([person, g.station, safeText(i.name), formatQuantity(i.theoretical, i.unit), '', '']);
  }
}
