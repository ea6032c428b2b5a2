import { describe, expect, it } from 'vitest';
import { MENU_MESSAGES, menuNameKey, parseMenuTable } from './menu-rows.ts';

const header = ['categoria', 'NOMBRE', 'Descripción', 'Precio', 'Disponible'];

describe('parseMenuTable', () => {
  it('reads rows with headers in any case and accents, pesos to centavos, sí/no, names as typed (trimmed, as the product form keeps them)', () => {
    const result = parseMenuTable([
      header,
      ['Bebida', 'Cerveza Victoria', 'Media', '45', 'sí'],
      ['comida', 'Tacos al pastor', '', '$1,234.5', ''],
      ['', '', '', '', ''],
      ['BOTELLA', ' Mezcal  Unión ', 'Joven', '70.00', 'no'],
    ]);
    expect(result).toEqual({
      ok: true,
      rows: [
        { line: 2, category: 'Bebida', name: 'Cerveza Victoria', description: 'Media', price: 4500, available: true, modifierGroups: null },
        { line: 3, category: 'Comida', name: 'Tacos al pastor', description: '', price: 123450, available: true, modifierGroups: null },
        { line: 5, category: 'Botella', name: 'Mezcal  Unión', description: 'Joven', price: 7000, available: false, modifierGroups: null },
      ],
    });
  });

  it('lists every error with its spreadsheet line, and applies nothing', () => {
    const result = parseMenuTable([
      header,
      ['Bebidas', 'Agua', '', '20', ''],
      ['Comida', '', '', 'gratis', 'quizá'],
      ['Comida', 'Sopa', '', '0', ''],
      ['Comida', 'sopa ', '', '10', ''],
    ]);
    expect(result).toEqual({
      ok: false,
      errors: [
        { line: 2, message: MENU_MESSAGES.category('Bebidas') },
        { line: 3, message: MENU_MESSAGES.name },
        { line: 3, message: MENU_MESSAGES.price('gratis') },
        { line: 3, message: MENU_MESSAGES.available('quizá') },
        { line: 4, message: MENU_MESSAGES.price('0') },
        { line: 5, message: MENU_MESSAGES.duplicate(4) },
      ],
    });
  });

  it('needs the category, name and price columns; description and availability may be left out', () => {
    expect(parseMenuTable([['Nombre', 'Precio']])).toEqual({
      ok: false,
      errors: [{ line: 1, message: MENU_MESSAGES.missingColumn('Categoría') }],
    });
    expect(parseMenuTable([])).toEqual({ ok: false, errors: [{ line: 1, message: MENU_MESSAGES.empty }] });
    expect(
      parseMenuTable([
        ['Categoría', 'Nombre', 'Precio'],
        ['Shot', 'Tequila', '60.5'],
      ]),
    ).toEqual({
      ok: true,
      rows: [{ line: 2, category: 'Shot', name: 'Tequila', description: '', price: 6050, available: true, modifierGroups: null }],
    });
  });

  it('reads the Modificadores column as distinct group names; an empty cell clears them', () => {
    const result = parseMenuTable([
      ['Categoría', 'Nombre', 'Precio', 'Modificadores'],
      ['Bebida', 'Cerveza', '45', ' Preparación |  Sin | sin |'],
      ['Comida', 'Sope', '40', ''],
    ]);
    expect(result.ok && result.rows.map((r) => r.modifierGroups)).toEqual([['Preparación', 'Sin'], []]);
  });

  it('names match without case, accents or doubled spaces', () => {
    expect(menuNameKey('  Piña  Colada ')).toBe(menuNameKey('pina colada'));
  });
});
