import type { Workbook, Worksheet } from 'exceljs';

/** Excel's format for pesos: '$1,234.56'. */
export const MXN_FORMAT = '"$"#,##0.00';

/** Text a spreadsheet would run as a formula is kept as text with a leading apostrophe, as in the CSV. */
export const safeText = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

export interface SheetColumn {
  header: string;
  width: number;
  /** Pesos as numbers in MXN format. */
  money?: boolean;
}

/** A sheet of the owner's exports: its columns, a bold header row that stays in view. */
export function headedSheet(book: Workbook, title: string, columns: readonly SheetColumn[]): Worksheet {
  const ws = book.addWorksheet(title.slice(0, 31));
  ws.columns = columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width, style: c.money ? { numFmt: MXN_FORMAT } : {} }));
  ws.getRow(1).font = { bold: true };
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  return ws;
}
