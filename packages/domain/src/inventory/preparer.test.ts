import { describe, expect, it } from 'vitest';
import { preparerOf, statusMoveTarget } from './preparer.ts';

const move = (seq: number, actorId: string, to: string) => ({ seq, actorId, actorName: `N${actorId}`, to });

describe('preparerOf', () => {
  it('is the actor of the last move to listo, whatever came after', () => {
    expect(preparerOf([move(1, 'a', 'listo'), move(2, 'a', 'pendiente'), move(3, 'b', 'listo'), move(4, 'c', 'entregado')])).toEqual({
      id: 'b',
      name: 'Nb',
    });
    // Order of the input does not matter: the sequence does.
    expect(preparerOf([move(9, 'b', 'listo'), move(3, 'a', 'listo')])).toEqual({ id: 'b', name: 'Nb' });
    // Sent back after listo and never marked again: still the last who marked it.
    expect(preparerOf([move(1, 'a', 'listo'), move(2, 'b', 'pendiente')])).toEqual({ id: 'a', name: 'Na' });
  });

  it('is null for a line never marked listo', () => {
    expect(preparerOf([])).toBeNull();
    expect(preparerOf([move(1, 'a', 'en_preparacion'), move(2, 'a', 'entregado')])).toBeNull();
  });
});

describe('statusMoveTarget', () => {
  it('reads data.to, empty when missing or unreadable', () => {
    expect(statusMoveTarget('{"orderId":"o","from":"pendiente","to":"listo","station":"barra"}')).toBe('listo');
    expect(statusMoveTarget(null)).toBe('');
    expect(statusMoveTarget('{')).toBe('');
    expect(statusMoveTarget('{"to":3}')).toBe('');
  });
});
