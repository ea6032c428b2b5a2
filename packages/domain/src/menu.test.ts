import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CATEGORIES } from './stations.ts';
import { isCategoryOrder, matchesMenuSearch, mayMarkAvailability, pickerCategories } from './menu.ts';

describe('matchesMenuSearch', () => {
  it('ignores accents and case on both sides', () => {
    expect(matchesMenuSearch('pina', 'Piña colada')).toBe(true);
    expect(matchesMenuSearch('PIÑA', 'piña colada')).toBe(true);
    expect(matchesMenuSearch('piña', 'Pina colada')).toBe(true);
    expect(matchesMenuSearch('cafe', 'Café de olla')).toBe(true);
    expect(matchesMenuSearch('jamaica', 'Agua de horchata')).toBe(false);
  });

  it('finds a decomposed ñ and needs every word somewhere', () => {
    expect(matchesMenuSearch('pin\u0303a', 'Piña')).toBe(true);
    expect(matchesMenuSearch('taco pastor', 'Tacos al pastor')).toBe(true);
    expect(matchesMenuSearch('taco suadero', 'Tacos al pastor')).toBe(false);
    expect(matchesMenuSearch('  ', 'Lo que sea')).toBe(true);
    expect(matchesMenuSearch('chipotle', 'Tostada', 'Con chipotle')).toBe(true);
  });

  it('a name always finds itself, accents stripped or not', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-ZáéíóúñÁÉÍÓÚÑ ]{1,20}$/), (name) => {
        expect(matchesMenuSearch(name, name)).toBe(true);
        const plain = name.normalize('NFD').replace(/\p{M}/gu, '');
        expect(matchesMenuSearch(plain, name)).toBe(true);
      }),
    );
  });
});

describe('pickerCategories', () => {
  it('follows the admin order, keeps only used categories, then typed ones', () => {
    const order = ['Bebida', 'Shot', 'Botella', 'Entrada', 'Comida', 'Postre', 'Servicio'];
    expect(pickerCategories(order, ['Comida', 'Bebida', 'Zeta', 'Alfa', 'Postre'])).toEqual(['Bebida', 'Comida', 'Postre', 'Alfa', 'Zeta']);
  });

  it('falls back to the catalogue order when none or a broken one is stored', () => {
    expect(pickerCategories(null, ['Bebida', 'Entrada'])).toEqual(['Entrada', 'Bebida']);
    expect(pickerCategories(['Bebida'], ['Bebida', 'Entrada'])).toEqual(['Entrada', 'Bebida']);
  });
});

describe('isCategoryOrder', () => {
  it('accepts any permutation of the catalogue and nothing else', () => {
    fc.assert(fc.property(fc.shuffledSubarray([...CATEGORIES], { minLength: CATEGORIES.length }), (p) => isCategoryOrder(p)));
    expect(isCategoryOrder([...CATEGORIES].slice(1))).toBe(false);
    expect(isCategoryOrder([...CATEGORIES.slice(1), 'Bebida'])).toBe(false);
    expect(isCategoryOrder([...CATEGORIES.slice(1), 'Otra'])).toBe(false);
  });
});

describe('mayMarkAvailability', () => {
  it('kitchen its own products, bar its own, admin all, waiter none', () => {
    expect(mayMarkAvailability('kitchen', 'Comida')).toBe(true);
    expect(mayMarkAvailability('kitchen', 'Bebida')).toBe(false);
    expect(mayMarkAvailability('barra', 'Bebida')).toBe(true);
    expect(mayMarkAvailability('barra', 'Postre')).toBe(false);
    expect(mayMarkAvailability('admin', 'Shot')).toBe(true);
    expect(mayMarkAvailability('waiter', 'Comida')).toBe(false);
  });
});
