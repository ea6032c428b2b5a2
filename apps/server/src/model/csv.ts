/** Spreadsheets read a BOM as "this is UTF-8", so accents survive a double click in Excel. */
export const CSV_BOM = '\uFEFF';

/**
 * One CSV cell: quoted when needed, and text a spreadsheet would run as a formula is defused
 * (names and notes are typed by staff). Null is an empty cell.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows as one CSV document with CRLF line ends and a BOM. */
export function csvDocument(rows: readonly (readonly (string | number | null)[])[]): string {
  return CSV_BOM + rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
