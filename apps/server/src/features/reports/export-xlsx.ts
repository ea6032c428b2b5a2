import type { ReportsResponse } from '@comanda/contract';
import { centsToPesoNumber } from '@comanda/domain';
import type { ReportSheet } from './report-sheets.ts';

/** Excel's format for pesos: '$1,234.56', negatives in parentheses-free minus. */
export const MXN_FORMAT = '"$"#,##0.00';

/** Text a spreadsheet would run as a formula is kept as text with a leading apostrophe, as in the CSV. */
const safeText = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

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
    const ws = book.addWorksheet(sheet.title.slice(0, 31));
    ws.columns = sheet.columns.map((c, i) => ({
      header: c.header,
      key: `c${i}`,
      width: Math.max(12, c.header.length + 4, i === 0 || i === 1 ? 28 : 0),
      style: c.money ? { numFmt: MXN_FORMAT } : {},
    }));
    ws.getRow(1).font = { bold: true };
    ws.views = [{ state: 'frozen', ySplit: 1 }];
    for (const row of sheet.rows)
      ws.addRow(row.map((v, i) => (sheet.columns[i]?.money ? centsToPesoNumber(Number(v)) : typeof v === 'string' ? safeText(v) : v)));
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
