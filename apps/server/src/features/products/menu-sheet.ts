import { parse } from 'csv-parse/sync';
import type { Category, Cents, MenuColumn, TaxTreatment } from '@comanda/domain';
import {
  CATEGORIES,
  DEFAULT_SAT_PRODUCT_KEY,
  DEFAULT_SAT_UNIT_KEY,
  MENU_COLUMNS,
  TAX_TREATMENT_LABELS,
  centsToPesos,
  iepsCell,
  joinGroupNames,
} from '@comanda/domain';
import { csvDocument, unescapeCell } from '../../model/csv.ts';
import type { Trx } from '../../http/transaction.ts';

/**
 * CSV text to cells. Spreadsheets in Spanish often save with semicolons; the header line says
 * which separator the file uses. A BOM is dropped; quoted cells may hold commas and line breaks.
 * Each cell loses the apostrophe the export put before a formula (unescapeCell), so a sheet
 * exported and imported back reads exactly what was exported.
 */
export function readCsv(text: string): string[][] {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const delimiter =
    firstLine.includes(';') && !firstLine.includes(',') ? ';' : firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  const table = parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: false }) as string[][];
  return table.map((row) => row.map(unescapeCell));
}

export interface MenuProduct {
  name: string;
  description: string;
  price: Cents;
  category: string;
  available: boolean;
  /** Names of the modifier groups attached to the product itself (not through its category). */
  modifierGroups: readonly string[];
  taxTreatment?: TaxTreatment;
  satProductKey?: string;
  satUnitKey?: string;
  iepsRateBp?: number | null;
}

/** What each column of the sheet holds for a product: a column added to MENU_COLUMNS needs its cell here. */
const MENU_CELLS: Record<MenuColumn, (p: MenuProduct) => string> = {
  Categoría: (p) => p.category,
  Nombre: (p) => p.name,
  Descripción: (p) => p.description,
  Precio: (p) => centsToPesos(p.price),
  Disponible: (p) => (p.available ? 'sí' : 'no'),
  Modificadores: (p) => joinGroupNames(p.modifierGroups),
  'Tratamiento fiscal': (p) => TAX_TREATMENT_LABELS[p.taxTreatment ?? 'iva16'],
  'Clave SAT producto': (p) => p.satProductKey ?? DEFAULT_SAT_PRODUCT_KEY,
  'Clave unidad': (p) => p.satUnitKey ?? DEFAULT_SAT_UNIT_KEY,
  IEPS: (p) => iepsCell(p.iepsRateBp),
};

/** The catalogue as the sheet an owner edits: by category in the catalogue's order, then name. */
export function menuCsv(products: readonly MenuProduct[]): string {
  const order = (c: string) => {
    const i = CATEGORIES.indexOf(c as Category);
    return i < 0 ? CATEGORIES.length : i;
  };
  const byName = new Intl.Collator('es', { sensitivity: 'base' });
  const sorted = [...products].sort((a, b) => order(a.category) - order(b.category) || byName.compare(a.name, b.name));
  return csvDocument([[...MENU_COLUMNS], ...sorted.map((p) => MENU_COLUMNS.map((column) => MENU_CELLS[column](p)))]);
}

/** Each product's own modifier groups by name, in the groups' order (for the sheet's last column). */
export async function productGroupNames(db: Trx): Promise<Map<string, string[]>> {
  const rows = await db
    .selectFrom('modifier_links')
    .innerJoin('modifier_groups', 'modifier_groups.id', 'modifier_links.group_id')
    .select(['modifier_links.product_id as productId', 'modifier_groups.name as name'])
    .where('modifier_links.product_id', 'is not', null)
    .orderBy('modifier_groups.position')
    .orderBy('modifier_groups.name')
    .execute();
  const byProduct = new Map<string, string[]>();
  for (const r of rows) if (r.productId) byProduct.set(r.productId, [...(byProduct.get(r.productId) ?? []), r.name]);
  return byProduct;
}
