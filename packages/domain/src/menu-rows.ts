import type { Cents } from './money.ts';
import { cents } from './money.ts';
import { parseDecimal, scaleDecimal } from './decimal.ts';
import type { Category } from './stations.ts';
import { CATEGORIES } from './stations.ts';
import { tabNameKey } from './checks.ts';
import { FISCAL_MESSAGES } from './fiscal.ts';
import { MAX_IEPS_RATE_BP, TAX_TREATMENT_LABELS, TAX_TREATMENTS, type TaxTreatment } from './tax.ts';

/**
 * The menu as a spreadsheet: one row per product, so an owner can load a 150-item menu without
 * typing it. Headers are matched without case or accents; prices are pesos ("45", "45.50",
 * "$1,234.50", never finer than a centavo); availability reads sí/no (empty is sí); Modificadores
 * names the modifier groups attached to the product itself, separated by "|" ("||" is a "|" inside
 * a name; groups are defined in the app; a sheet without that column leaves each product's groups
 * as they are). Names and descriptions are kept as typed, trimmed (as the product form keeps them).
 * The taxes: Tratamiento fiscal ("IVA 16 %", "IVA 8 %", "IVA tasa 0 %", "Exento de IVA"), Clave SAT
 * producto (8 digits), Clave unidad (E48, H87…) and IEPS (a percent, empty: none); an empty cell
 * of the first three, or a sheet without the column, leaves the product's (a new one: the defaults).
 */
export const MENU_COLUMNS = [
  'Categoría',
  'Nombre',
  'Descripción',
  'Precio',
  'Disponible',
  'Modificadores',
  'Tratamiento fiscal',
  'Clave SAT producto',
  'Clave unidad',
  'IEPS',
] as const;
export type MenuColumn = (typeof MENU_COLUMNS)[number];
export const MENU_GROUP_SEPARATOR = ' | ';
export const MENU_LIMITS = { rows: 2000, name: 120, description: 500, maxPrice: 100_000_000_00, errorsShown: 50 } as const;

export interface MenuRow {
  line: number;
  category: Category;
  name: string;
  description: string;
  price: Cents;
  available: boolean;
  /** The names in the Modificadores column; null when the sheet has no such column. */
  modifierGroups: string[] | null;
  /** The tax columns; absent when the sheet has no such column or leaves the cell empty (IEPS: empty is none). */
  taxTreatment?: TaxTreatment;
  satProductKey?: string;
  satUnitKey?: string;
  iepsRateBp?: number | null;
}
export interface MenuRowError {
  line: number;
  message: string;
}

export const MENU_MESSAGES = {
  empty: 'El archivo está vacío.',
  missingColumn: (column: string) => `Falta la columna "${column}" en la primera fila.`,
  tooManyRows: `El archivo tiene más de ${MENU_LIMITS.rows} productos.`,
  category: (value: string) => `Categoría desconocida "${value}". Usa una de: ${CATEGORIES.join(', ')}.`,
  name: 'Falta el nombre.',
  nameLong: `El nombre pasa de ${MENU_LIMITS.name} caracteres.`,
  descriptionLong: `La descripción pasa de ${MENU_LIMITS.description} caracteres.`,
  price: (value: string) => `Precio inválido "${value}": escribe pesos, por ejemplo 45.00.`,
  priceDecimals: (value: string) => `El precio "${value}" tiene más de dos decimales: escribe pesos y centavos, por ejemplo 45.99.`,
  available: (value: string) => `Disponible debe ser "sí" o "no", no "${value}".`,
  duplicate: (line: number) => `El producto ya aparece en la línea ${line}.`,
  unreadable: 'No se pudo leer el archivo como CSV: revisa las comillas de esta línea.',
  unknownGroup: (name: string) => `Grupo de modificadores desconocido "${name}": créalo en Productos › Modificadores antes de importar.`,
  ambiguous: (name: string) => `Hay más de un producto llamado "${name}" en el catálogo: renombra uno antes de importar.`,
  treatment: (value: string) =>
    `Tratamiento fiscal desconocido "${value}". Usa uno de: ${TAX_TREATMENTS.map((t) => TAX_TREATMENT_LABELS[t]).join(', ')}.`,
} as const;

const TREATMENT_BY_KEY = new Map<string, TaxTreatment>(
  TAX_TREATMENTS.flatMap((t) => [[tabNameKey(TAX_TREATMENT_LABELS[t]), t] as const, [tabNameKey(t), t] as const]),
);

/** The IEPS cell of a rate in basis points: "26.5" for 26.5 %; empty for none. */
export function iepsCell(rateBp: number | null | undefined): string {
  return rateBp ? String(rateBp / 100) : '';
}

/** Case, accents and spacing aside: the key the checks already use for tab names (tabNameKey). */
export const foldText = tabNameKey;

/** The key that says two names are the same product. */
export const menuNameKey = tabNameKey;

const YES = new Set(['', 'si', 's', 'yes', 'y', '1', 'true', 'verdadero', 'x', 'disponible']);
const NO = new Set(['no', 'n', '0', 'false', 'falso', 'agotado']);
const CATEGORY_BY_KEY = new Map<string, Category>(CATEGORIES.map((c) => [foldText(c), c]));

export type MenuParse = { ok: true; rows: MenuRow[] } | { ok: false; errors: MenuRowError[] };

/**
 * Validates the cells of a menu sheet (first row: headers). Lines are numbered as a spreadsheet
 * shows them (the header is line 1). Every error is listed, not just the first.
 */
export function parseMenuTable(table: readonly (readonly string[])[]): MenuParse {
  const nonEmpty = table.map((cells, i) => ({ cells, line: i + 1 })).filter(({ cells }) => cells.some((c) => c.trim() !== ''));
  const header = nonEmpty[0];
  if (!header) return { ok: false, errors: [{ line: 1, message: MENU_MESSAGES.empty }] };
  const keys = header.cells.map(foldText);
  const index = Object.fromEntries(MENU_COLUMNS.map((c) => [c, keys.indexOf(foldText(c))])) as Record<
    (typeof MENU_COLUMNS)[number],
    number
  >;
  const missing = (['Categoría', 'Nombre', 'Precio'] as const).filter((c) => index[c] < 0);
  if (missing.length > 0)
    return { ok: false, errors: missing.map((c) => ({ line: header.line, message: MENU_MESSAGES.missingColumn(c) })) };
  const body = nonEmpty.slice(1);
  if (body.length > MENU_LIMITS.rows) return { ok: false, errors: [{ line: header.line, message: MENU_MESSAGES.tooManyRows }] };

  const cell = (cells: readonly string[], column: (typeof MENU_COLUMNS)[number]) =>
    index[column] < 0 ? '' : (cells[index[column]] ?? '').trim();
  const rows: MenuRow[] = [];
  const errors: MenuRowError[] = [];
  const seen = new Map<string, number>();
  for (const { cells, line } of body) {
    const fail = (message: string) => errors.push({ line, message });
    const rawCategory = cell(cells, 'Categoría');
    const category = CATEGORY_BY_KEY.get(foldText(rawCategory));
    if (!category) fail(MENU_MESSAGES.category(rawCategory));
    const name = cell(cells, 'Nombre');
    if (name === '') fail(MENU_MESSAGES.name);
    else if (name.length > MENU_LIMITS.name) fail(MENU_MESSAGES.nameLong);
    const description = cell(cells, 'Descripción');
    if (description.length > MENU_LIMITS.description) fail(MENU_MESSAGES.descriptionLong);
    const rawPrice = cell(cells, 'Precio');
    const price = sheetPrice(rawPrice);
    if (price === 'finer') fail(MENU_MESSAGES.priceDecimals(rawPrice));
    else if (price === null || price < 1 || price > MENU_LIMITS.maxPrice) fail(MENU_MESSAGES.price(rawPrice));
    const rawAvailable = foldText(cell(cells, 'Disponible'));
    const available = YES.has(rawAvailable) ? true : NO.has(rawAvailable) ? false : null;
    if (available === null) fail(MENU_MESSAGES.available(cell(cells, 'Disponible')));
    if (name !== '') {
      const earlier = seen.get(menuNameKey(name));
      if (earlier !== undefined) fail(MENU_MESSAGES.duplicate(earlier));
      else seen.set(menuNameKey(name), line);
    }
    const modifierGroups = index['Modificadores'] < 0 ? null : splitGroupNames(cell(cells, 'Modificadores'));
    const taxes = taxCells((column) => (index[column] < 0 ? null : cell(cells, column)), fail);
    if (category && name !== '' && typeof price === 'number' && available !== null && errors.every((e) => e.line !== line)) {
      rows.push({ line, category, name, description, price, available, modifierGroups, ...taxes });
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rows };
}

/** The tax columns of a row: each present only when its column is there and says something. */
function taxCells(
  cellOf: (column: 'Tratamiento fiscal' | 'Clave SAT producto' | 'Clave unidad' | 'IEPS') => string | null,
  fail: (message: string) => void,
): Pick<MenuRow, 'taxTreatment' | 'satProductKey' | 'satUnitKey' | 'iepsRateBp'> {
  const out: Pick<MenuRow, 'taxTreatment' | 'satProductKey' | 'satUnitKey' | 'iepsRateBp'> = {};
  const treatment = cellOf('Tratamiento fiscal');
  if (treatment) {
    const t = TREATMENT_BY_KEY.get(tabNameKey(treatment));
    if (t) out.taxTreatment = t;
    else fail(MENU_MESSAGES.treatment(treatment));
  }
  const productKey = cellOf('Clave SAT producto');
  if (productKey) {
    if (/^\d{8}$/.test(productKey)) out.satProductKey = productKey;
    else fail(FISCAL_MESSAGES.productKey);
  }
  const unitKey = cellOf('Clave unidad')?.toUpperCase();
  if (unitKey) {
    if (/^[A-Z0-9]{2,3}$/.test(unitKey)) out.satUnitKey = unitKey;
    else fail(FISCAL_MESSAGES.unitKey);
  }
  const ieps = cellOf('IEPS');
  if (ieps !== null) {
    const parsed = ieps === '' ? null : parseDecimal(ieps.replace(/%$/, '').trim());
    const bp = parsed && !parsed.negative ? scaleDecimal(parsed, 2) : null;
    if (ieps === '') out.iepsRateBp = null;
    else if (bp !== null && bp >= 1 && bp <= MAX_IEPS_RATE_BP && !/[1-9]/.test(parsed!.fraction.slice(2))) out.iepsRateBp = bp;
    else fail(FISCAL_MESSAGES.iepsRate);
  }
  return out;
}

/**
 * A price cell in centavos; 'finer' when it has digits past the centavo that are not zeros
 * (0.005, 45.999), which would otherwise be rounded without anyone seeing it.
 */
function sheetPrice(raw: string): Cents | 'finer' | null {
  const parsed = raw === '' ? null : parseDecimal(raw);
  if (parsed === null || parsed.negative) return null;
  if (/[1-9]/.test(parsed.fraction.slice(2))) return 'finer';
  const value = scaleDecimal(parsed, 2);
  return value === null ? null : cents(value);
}

/** The Modificadores cell for these group names: a "|" inside a name is doubled, so the cell splits back exactly. */
export function joinGroupNames(names: readonly string[]): string {
  return names.map((n) => n.replaceAll('|', '||')).join(MENU_GROUP_SEPARATOR);
}

/** "Preparación | Sin" → the distinct names, in order (case and accents aside for the duplicates); "||" is a "|" of a name. */
export function splitGroupNames(cell: string): string[] {
  const seen = new Set<string>();
  return cell
    .split(/(?<!\|)\|(?!\|)/)
    .map((n) => n.replaceAll('||', '|').trim().replace(/\s+/g, ' '))
    .filter((n) => n !== '' && !seen.has(foldText(n)) && seen.add(foldText(n)));
}
