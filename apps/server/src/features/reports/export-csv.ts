import type { ReportsResponse } from '@comanda/contract';
import { cents, centsToPesos } from '@comanda/domain';
import type { ReportSheet } from './report-sheets.ts';
import { CSV_BOM, csvCell } from '../../model/csv.ts';

/**
 * The chosen reports as one es-MX CSV: a BOM (Excel then reads UTF-8), the period, and each
 * report as a titled block with its header; money in pesos with two decimals.
 */
export function reportsCsv(report: ReportsResponse, sheets: ReportSheet[]): string {
  const lines: string[] = [[`Reportes del ${report.from} al ${report.to}`].map(csvCell).join(',')];
  for (const sheet of sheets) {
    lines.push('', csvCell(sheet.title), sheet.columns.map((c) => csvCell(c.header)).join(','));
    for (const row of sheet.rows)
      lines.push(row.map((v, i) => csvCell(sheet.columns[i]?.money ? centsToPesos(cents(Number(v))) : v)).join(','));
  }
  return CSV_BOM + lines.join('\r\n') + '\r\n';
}
