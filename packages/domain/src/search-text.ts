/**
 * The accent folding shared by the ticket-search index (migration 0006, in SQL) and the search
 * term (in TypeScript), so both sides agree: lower case, and the accented Latin letters of
 * Spanish (and their neighbours) without their marks. 'Piña' and 'PIÑA' are stored as 'pina';
 * typing 'piña', 'Pina' or 'pina' finds them. Changing this list needs a new migration that
 * rebuilds the index.
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
