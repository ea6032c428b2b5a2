/**
 * The accent folding of the ticket search: the search term (in TypeScript), PostgreSQL's index
 * (migration 0006, translate()) and SQLite's walk (a GLOB of each letter's forms, tickets search;
 * its FTS5 index folds accents itself): lower case, and the accented Latin letters of Spanish
 * (and their neighbours) without their marks. 'Piña' and 'PIÑA' are found by 'piña', 'Pina' or
 * 'pina'. Changing this list needs a new migration that rebuilds PostgreSQL's index.
 */
export const ACCENTED = 'áàâäãåéèêëíìîïóòôöõúùûüñçÁÀÂÄÃÅÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇ';
export const UNACCENTED = 'aaaaaaeeeeiiiiooooouuuuncaaaaaaeeeeiiiiooooouuuunc';

const FOLD = new Map([...ACCENTED].map((c, i) => [c, UNACCENTED[i]!]));

/** Lower case, accents of ACCENTED removed (what the index stores). */
export function foldSearchText(text: string): string {
  return [...text.toLowerCase()].map((c) => FOLD.get(c) ?? c).join('');
}

/** Table name and waiter name on separate lines: a search term never holds a line break. */
export const SEPARATOR = '\n';
