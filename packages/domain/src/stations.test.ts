import { describe, it, expect } from 'vitest';
import { CATEGORIES, DEFAULT_CATEGORY, STATIONS, boardStationsForPath, categoriesOf, isCategory, stationOf } from './stations.ts';

describe('stations', () => {
  it('lists categories with Comida as default', () => {
    expect(CATEGORIES).toEqual(['Entrada', 'Comida', 'Postre', 'Bebida', 'Botella', 'Shot', 'Servicio']);
    expect(DEFAULT_CATEGORY).toBe('Comida');
    expect(isCategory('Shot')).toBe(true);
    expect(isCategory('Cóctel')).toBe(false);
  });

  it.each([
    ['Bebida', 'barra'],
    ['Botella', 'barra'],
    ['Shot', 'barra'],
    ['Servicio', 'barra'],
    ['Entrada', 'cocina'],
    ['Comida', 'cocina'],
    ['Postre', 'cocina'],
    ['Cóctel', 'cocina'],
    ['', 'cocina'],
    [' bebida ', 'barra'],
  ])('%j goes to %s', (category, station) => {
    expect(stationOf(category)).toBe(station);
  });

  it('groups categories by station', () => {
    expect(categoriesOf('barra')).toEqual(['Bebida', 'Botella', 'Shot', 'Servicio']);
    expect(categoriesOf('cocina')).toEqual(['Entrada', 'Comida', 'Postre']);
  });

  it('describes each station', () => {
    expect(STATIONS.cocina).toMatchObject({ key: 'cocina', label: 'Cocina', icon: 'ChefHat' });
    expect(STATIONS.barra).toMatchObject({ key: 'barra', label: 'Barra', icon: 'Wine' });
    for (const s of Object.values(STATIONS)) expect(s.color).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it.each([
    ['/kitchen/barra', ['barra']],
    ['/kitchen/cocina', ['cocina']],
    ['/kitchen', ['cocina']],
    ['/admin/kanban/barra', ['barra']],
    ['/admin/kanban/cocina', ['cocina']],
    ['/admin/kanban', ['cocina', 'barra']],
    ['/admin/kanban/', ['cocina', 'barra']],
  ])('board path %s shows %j', (path, stations) => {
    expect(boardStationsForPath(path)).toEqual(stations);
  });
});
