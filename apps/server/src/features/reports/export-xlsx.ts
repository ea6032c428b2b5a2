import type { ReportsResponse } from '@comanda/contract';
import { centsToPesoNumber } from '@comanda/domain';
import { headedSheet, safeText } from '../../model/xlsx.ts';
import type { ReportSheet } from './report-sheets.ts';

export { MXN_FORMAT } from '../../model/xlsx.ts';

/**
 * A real .xlsx (exceljs): one sheet per report, a bold header row, amounts as numbers in pesos
 * with the MXN format, so Excel and LibreOffice add them up as money.
 */
export async function reportsXlsx(report: ReportsResponse, sheets: ReportSheet[]): Promise<Buffer> {
  // Loaded on the first export: the library is large and most servers never export.
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.creator = 'Comanda';
  book.title = `Reportes del ${report.from} al ${report.to}`;
  for (const sheet of sheets) {
    const ws = headedSheet(
      book,
      sheet.title,
      sheet.columns.map((c, i) => ({ ...c, width: Math.max(12, c.header.length + 4, i === 0 || i === 1 ? 28 : 0) })),
    );
    for (const row of sheet.rows)
      ws.addRow(row.map((v, i) => (sheet.columns[i]?.money ? centsToPesoNumber(Number(v)) : typeof v === 'string' ? safeText(v) : v)));
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
