import { ACCENTED, foldSearchText, pesosToCents, UNACCENTED } from '@comanda/domain';

/**
 * What one search box term can mean. Staff type a ticket number, a table ('5', 'mesa 5',
 * 'barra'), part of a table or waiter name, or an amount ('245.50' exact, '245' any centavos):
 * every reading that fits is tried, and a ticket matching any of them is listed.
 */
export interface TicketSearch {
  /** Lower-case start of the order id (ticket numbers are its first 6 characters). */
  idPrefix: string | null;
  tableNumber: number | null;
  /** The term folded as the index stores names: lower case, no accents ('Piña' → 'pina'). */
  nameText: string;
  /** LIKE pattern over the folded table and waiter names, wildcards escaped with '\'. */
  namePattern: string;
  /**
   * SQLite keeps the names as written: a GLOB whose classes hold each letter's cases and accents
   * (foldingGlob), or null when the term has no such letter and namePattern's LIKE (ASCII case-blind,
   * several times faster on a long walk) is already exact.
   */
  nameGlob: string | null;
  /** [min, max) in centavos. */
  amount: { min: number; max: number } | null;
  /** A numeric term ('57', '#57', 'folio 57') is also read as a folio. */
  folio: number | null;
}

const AMOUNT = /^\$?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/;

export function parseTicketSearch(raw: string): TicketSearch | null {
  const term = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!term) return null;
  const ticket = term.replace(/^#/, '');
  const nameText = foldSearchText(term);
  return {
    idPrefix: /^[0-9a-f]{1,6}$/.test(ticket) ? ticket : null,
    tableNumber: tableNumberOf(term),
    nameText,
    namePattern: `%${nameText.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    nameGlob: [...nameText].some(hasOtherForms) ? foldingGlob(nameText) : null,
    amount: amountOf(term),
    folio: folioOf(term),
  };
}

/** Each folded letter's written forms: 'a' → a, A, á, Á, à… (as ACCENTED folds them). */
const FORMS = new Map<string, string[]>();
for (const [i, accented] of [...ACCENTED].entries()) FORMS.set(UNACCENTED[i]!, [...(FORMS.get(UNACCENTED[i]!) ?? []), accented]);

/** A character LIKE would not match in all its written forms: an accented letter's base, or non-ASCII with a case. */
function hasOtherForms(c: string): boolean {
  return FORMS.has(c) || (c > '\x7f' && c.toUpperCase() !== c);
}

/**
 * A case- and accent-blind substring GLOB for a folded term: every character becomes the class
 * of its written forms ('jo' → '*[jJ][oOóÓòÒ…]*'), GLOB's own wildcards are matched literally.
 */
export function foldingGlob(nameText: string): string {
  const classes = [...nameText].map((c) => {
    const forms = [...new Set([c, c.toUpperCase(), ...(FORMS.get(c) ?? [])])].filter((f) => [...f].length === 1);
    return forms.length === 1 && !'*?['.includes(c) ? c : `[${forms.join('')}]`;
  });
  return `*${classes.join('')}*`;
}

function tableNumberOf(term: string): number | null {
  if (term.length >= 3 && 'barra'.startsWith(term)) return 0;
  const match = /^(?:mesa\s?)?(\d{1,4})$/.exec(term);
  return match?.[1] !== undefined ? Number(match[1]) : null;
}

function amountOf(term: string): { min: number; max: number } | null {
  if (!AMOUNT.test(term)) return null;
  const value = pesosToCents(term);
  if (value === null) return null;
  // Whole pesos match any centavos of that peso: '245' finds $245.50.
  return term.includes('.') ? { min: value, max: value + 1 } : { min: value, max: value + 100 };
}

function folioOf(term: string): number | null {
  const match = /^(?:folio\s?)?#?(\d{1,12})$/.exec(term);
  return match?.[1] !== undefined ? Number(match[1]) : null;
}
