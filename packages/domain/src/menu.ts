import { foldSearchText } from './search-text.ts';
import { CATEGORIES, type Category, mayMoveStationItems, stationOf } from './stations.ts';

/** How many products the picker's "Más vendidos" row shows, and over how many days they are counted. */
export const TOP_SELLERS_LIMIT = 8;
export const TOP_SELLERS_DAYS = 7;

/**
 * The picker's search: accents and case ignored on both sides ('pina' finds 'Piña', 'PIÑA' finds
 * 'piña'), every word of the query must appear somewhere in the texts.
 */
export function matchesMenuSearch(query: string, ...texts: string[]): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = fold(texts.join(' '));
  return words.every((w) => haystack.includes(w));
}

function fold(text: string): string {
  // The shared folding first, then any other combining mark (a decomposed 'ñ' typed on some keyboards).
  return foldSearchText(text.normalize('NFC')).normalize('NFD').replace(/\p{M}/gu, '');
}

/** True when the list names every catalogue category exactly once (the admin's menu order). */
export function isCategoryOrder(list: readonly string[]): list is Category[] {
  return (
    list.length === CATEGORIES.length &&
    new Set(list).size === list.length &&
    list.every((c) => (CATEGORIES as readonly string[]).includes(c))
  );
}

/**
 * The picker's chips: the admin's order (or the catalogue's when none is set), only categories a
 * product uses, then any category typed by hand in alphabetical order.
 */
export function pickerCategories(order: readonly string[] | null | undefined, used: Iterable<string>): string[] {
  const present = new Set(used);
  const base = order && isCategoryOrder(order) ? order : CATEGORIES;
  const known = base.filter((c) => present.has(c));
  const typed = [...present].filter((c) => !(CATEGORIES as readonly string[]).includes(c)).sort((a, b) => a.localeCompare(b, 'es'));
  return [...known, ...typed];
}

/**
 * Who may mark a product agotado (or back): an admin any product, the kitchen only products whose
 * category goes to the kitchen, the bar only the bar's (the station comes from the category).
 */
export function mayMarkAvailability(role: string | null | undefined, category: string): boolean {
  return mayMoveStationItems(role, stationOf(category));
}
