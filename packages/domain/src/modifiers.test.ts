import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  groupRangeLabel,
  groupsForProduct,
  isValidGroupRange,
  modifierProblemMessage,
  modifiersText,
  resolveModifiers,
  type ModifierGroupRule,
} from './modifiers.ts';

const termino: ModifierGroupRule = {
  id: 'g1',
  name: 'Término',
  minSelect: 1,
  maxSelect: 1,
  options: [
    { id: 'rojo', name: 'Rojo', priceDelta: 0, available: true },
    { id: 'medio', name: 'Medio', priceDelta: 0, available: true },
    { id: 'bien', name: 'Bien cocido', priceDelta: 0, available: false },
  ],
};
const preparacion: ModifierGroupRule = {
  id: 'g2',
  name: 'Preparación',
  minSelect: 0,
  maxSelect: 1,
  options: [
    { id: 'natural', name: 'Natural', priceDelta: 0, available: true },
    { id: 'preparada', name: 'Preparada', priceDelta: 1500, available: true },
    { id: 'michelada', name: 'Michelada', priceDelta: 2500, available: true },
  ],
};
const extras: ModifierGroupRule = {
  id: 'g3',
  name: 'Extras',
  minSelect: 0,
  maxSelect: 3,
  options: ['queso', 'guacamole', 'tocino', 'chorizo'].map((n, i) => ({ id: n, name: n, priceDelta: (i + 1) * 1000, available: true })),
};
const sin: ModifierGroupRule = {
  id: 'g4',
  name: 'Sin',
  minSelect: 0,
  maxSelect: null,
  options: ['cebolla', 'hielo', 'chile'].map((n) => ({ id: n, name: n, priceDelta: 0, available: true })),
};

describe('resolveModifiers', () => {
  it('prices the line as the product plus the chosen deltas and keeps the groups’ order', () => {
    const r = resolveModifiers([preparacion, extras, sin], ['cebolla', 'michelada', 'queso'], 4500);
    expect(r).toEqual({
      ok: true,
      unitPrice: 4500 + 2500 + 1000,
      chosen: [
        { groupName: 'Preparación', optionName: 'Michelada', priceDelta: 2500 },
        { groupName: 'Extras', optionName: 'queso', priceDelta: 1000 },
        { groupName: 'Sin', optionName: 'cebolla', priceDelta: 0 },
      ],
    });
  });

  it('takes no options when no group is required', () => {
    expect(resolveModifiers([preparacion, sin], [], 4500)).toEqual({ ok: true, unitPrice: 4500, chosen: [] });
    expect(resolveModifiers([], [], 100)).toEqual({ ok: true, unitPrice: 100, chosen: [] });
  });

  it('asks for a required group', () => {
    const r = resolveModifiers([termino, preparacion], ['michelada'], 100);
    expect(r).toEqual({ ok: false, problem: { kind: 'too-few', groupName: 'Término', min: 1 } });
    if (!r.ok) expect(modifierProblemMessage(r.problem)).toBe('Elige una opción de «Término»');
  });

  it('refuses more than the maximum', () => {
    expect(resolveModifiers([termino], ['rojo', 'medio'], 100)).toEqual({
      ok: false,
      problem: { kind: 'too-many', groupName: 'Término', max: 1 },
    });
    expect(resolveModifiers([extras], ['queso', 'guacamole', 'tocino', 'chorizo'], 100)).toMatchObject({
      ok: false,
      problem: { kind: 'too-many', max: 3 },
    });
    expect(resolveModifiers([sin], ['cebolla', 'hielo', 'chile'], 100)).toMatchObject({ ok: true });
  });

  it('refuses an unavailable option by name', () => {
    const r = resolveModifiers([termino], ['bien'], 100);
    expect(r).toEqual({ ok: false, problem: { kind: 'unavailable', optionName: 'Bien cocido' } });
    if (!r.ok) expect(modifierProblemMessage(r.problem)).toBe('La opción «Bien cocido» ya no está disponible; elige otra');
  });

  it('refuses an option of another product and a repeated one', () => {
    expect(resolveModifiers([preparacion], ['rojo'], 100)).toEqual({ ok: false, problem: { kind: 'unknown' } });
    expect(resolveModifiers([sin], ['hielo', 'hielo'], 100)).toEqual({ ok: false, problem: { kind: 'unknown' } });
  });

  it('never prices below the product and counts each chosen delta once', () => {
    const groups = [preparacion, extras, sin];
    const all = groups.flatMap((g) => g.options);
    fc.assert(
      fc.property(fc.subarray(all.map((o) => o.id)), fc.integer({ min: 1, max: 1_000_000 }), (ids, base) => {
        const r = resolveModifiers(groups, ids, base);
        if (!r.ok) return;
        const sum = all.filter((o) => ids.includes(o.id)).reduce((a, o) => a + o.priceDelta, 0);
        expect(r.unitPrice).toBe(base + sum);
        expect(r.chosen).toHaveLength(ids.length);
      }),
    );
  });
});

describe('modifier groups', () => {
  it('checks a group’s limits', () => {
    expect(isValidGroupRange(1, 1)).toBe(true);
    expect(isValidGroupRange(0, null)).toBe(true);
    expect(isValidGroupRange(2, 1)).toBe(false);
    expect(isValidGroupRange(-1, 1)).toBe(false);
    expect(isValidGroupRange(0, 0)).toBe(false);
  });

  it('labels a group’s limits', () => {
    expect(groupRangeLabel(termino)).toBe('Elige 1');
    expect(groupRangeLabel(preparacion)).toBe('Opcional, elige 1');
    expect(groupRangeLabel(extras)).toBe('Opcional, hasta 3');
    expect(groupRangeLabel(sin)).toBe('Opcional');
    expect(groupRangeLabel({ minSelect: 1, maxSelect: 3 })).toBe('Elige de 1 a 3');
  });

  it('finds the groups of a product by id or category', () => {
    const groups = [
      { id: 'a', productIds: ['p1'], categories: [] },
      { id: 'b', productIds: [], categories: ['Bebida'] },
      { id: 'c', productIds: ['p2'], categories: ['Comida'] },
    ];
    expect(groupsForProduct(groups, { id: 'p1', category: 'Bebida' }).map((g) => g.id)).toEqual(['a', 'b']);
    expect(groupsForProduct(groups, { id: 'p9', category: 'Postre' })).toEqual([]);
  });

  it('writes the chosen options on one line', () => {
    expect(
      modifiersText([
        { groupName: 'Preparación', optionName: 'Michelada' },
        { groupName: 'Sin', optionName: 'cebolla' },
      ]),
    ).toBe('Michelada, sin cebolla');
  });
});
