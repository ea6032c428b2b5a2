import { cents } from '@comanda/domain';
import { describe, expect, it } from 'vitest';
import type { ModifierGroup } from '@comanda/contract';
import { initialChoice, toggleOption } from './modifier-choice.ts';

const group = (id: string, minSelect: number, maxSelect: number | null, options: [string, boolean][]): ModifierGroup => ({
  id,
  name: id,
  minSelect,
  maxSelect,
  position: 0,
  options: options.map(([oid, available]) => ({ id: oid, name: oid, priceDelta: cents(0), available })),
  productIds: [],
  categories: [],
  createdAt: 0,
  updatedAt: 0,
});

describe('picker modifier taps', () => {
  const termino = group('termino', 1, 1, [
    ['rojo', true],
    ['medio', true],
  ]);
  const extras = group('extras', 0, 2, [
    ['queso', true],
    ['guac', true],
    ['tocino', true],
  ]);

  it('a group of one swaps its choice; a second tap on the chosen option clears it', () => {
    expect(toggleOption(termino, ['queso'], 'rojo')).toEqual(['queso', 'rojo']);
    expect(toggleOption(termino, ['queso', 'rojo'], 'medio')).toEqual(['queso', 'medio']);
    expect(toggleOption(termino, ['medio'], 'medio')).toEqual([]);
  });

  it('other groups toggle up to their maximum', () => {
    expect(toggleOption(extras, ['queso', 'guac'], 'tocino')).toEqual(['queso', 'guac']);
    expect(toggleOption(extras, ['queso'], 'guac')).toEqual(['queso', 'guac']);
  });

  it('chooses for the waiter only a required group with one option left', () => {
    const oneLeft = group('t', 1, 1, [
      ['rojo', false],
      ['medio', true],
    ]);
    expect(initialChoice([termino, extras, oneLeft])).toEqual(['medio']);
  });
});
