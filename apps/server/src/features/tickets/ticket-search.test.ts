import { describe, expect, it } from 'vitest';
import { parseTicketSearch } from './ticket-search.ts';

describe('parseTicketSearch', () => {
  it('is null for an empty term', () => {
    expect(parseTicketSearch('   ')).toBeNull();
  });

  it('reads a ticket number in any case', () => {
    expect(parseTicketSearch('#AB12CD')?.idPrefix).toBe('ab12cd');
    expect(parseTicketSearch('ab12cd7')?.idPrefix).toBeNull();
  });

  it('reads tables and the bar', () => {
    expect(parseTicketSearch('Mesa 7')?.tableNumber).toBe(7);
    expect(parseTicketSearch('7')?.tableNumber).toBe(7);
    expect(parseTicketSearch('BARRA')?.tableNumber).toBe(0);
    expect(parseTicketSearch('ba')?.tableNumber).toBeNull();
  });

  it('reads amounts: exact with centavos, a whole peso otherwise', () => {
    expect(parseTicketSearch('245.5')?.amount).toEqual({ min: 24_550, max: 24_551 });
    expect(parseTicketSearch('$1,245')?.amount).toEqual({ min: 124_500, max: 124_600 });
    expect(parseTicketSearch('12,5')?.amount).toBeNull();
  });

  it('escapes LIKE wildcards in names', () => {
    expect(parseTicketSearch('50%_x\\')?.namePattern).toBe('%50\\%\\_x\\\\%');
  });

  it('folds names as the index stores them: lower case, no accents', () => {
    expect(parseTicketSearch('  PIÑA   Colada ')?.nameText).toBe('pina colada');
    expect(parseTicketSearch('Lucía ÜÉ')?.namePattern).toBe('%lucia ue%');
  });

  it('reads a numeric term as a folio too', () => {
    expect(parseTicketSearch('57')?.folio).toBe(57);
    expect(parseTicketSearch('#1203')?.folio).toBe(1203);
    expect(parseTicketSearch('folio 9')?.folio).toBe(9);
    expect(parseTicketSearch('mesa 5')?.folio).toBeNull();
    expect(parseTicketSearch('245.50')?.folio).toBeNull();
  });
});
