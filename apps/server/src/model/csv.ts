/** Spreadsheets read a BOM as "this is UTF-8", so accents survive a double click in Excel. */
export const CSV_BOM = '\uFEFF';

// A cell a spreadsheet would run as a formula starts with one of these; a leading apostrophe makes
// it text. Apostrophes already before such a character get one more, so the escape can be undone.
const FORMULA_START = /^'*[=+\-@\t\r]/;
const ESCAPED_FORMULA = /^'+[=+\-@\t\r]/;

/** Text a spreadsheet would run as a formula, defused with a leading apostrophe (names and notes are typed by staff). */
export function escapeCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The exact inverse of escapeCell: unescapeCell(escapeCell(t)) === t for every text. */
export function unescapeCell(text: string): string {
  return ESCAPED_FORMULA.test(text) ? text.slice(1) : text;
}

/** One CSV cell: defused (escapeCell) and quoted when needed. Null is an empty cell. */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  const text = typeof value === 'string' ? escapeCell(value) : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows as one CSV document with CRLF line ends and a BOM. */
export function csvDocument(rows: readonly (readonly (string | number | null)[])[]): string {
  return CSV_BOM + rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
