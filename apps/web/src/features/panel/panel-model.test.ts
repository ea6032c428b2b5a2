import { describe, expect, it } from 'vitest';
import type { BoardItem } from '@comanda/contract';
import { filterPanelItems, panelCounters } from './panel-model.ts';
import { boardItem } from '../../lib/testing/board-item.ts';

let made = 0;
/** A pending bar line of table 6; each one made is a little older than the one before. */
function item(over: Partial<BoardItem>): BoardItem {
  made += 1;
  return boardItem({
    tableNumber: 6,
    waiterName: 'Lucía',
    productName: 'Michelada',
    category: 'Bebida',
    station: 'barra',
    createdAt: 1000 - made,
    updatedAt: 1000,
    ...over,
  });
}

describe('admin panel model', () => {
  const items = [
    item({}),
    item({ status: 'en_preparacion' }),
    item({ status: 'listo', station: 'cocina', category: 'Comida' }),
    item({ status: 'entregado' }),
  ];

  it('filters by area and status, oldest first, with en_preparacion as pending', () => {
    expect(filterPanelItems(items, 'barra', 'pendiente').map((i) => i.id)).toEqual([items[1]!.id, items[0]!.id]);
    expect(filterPanelItems(items, 'cocina', 'all')).toEqual([items[2]]);
    expect(filterPanelItems(items, 'cocina', 'entregado')).toEqual([]);
    expect(filterPanelItems(items, 'all', 'all')).toHaveLength(4);
  });

  it('counts the three states for the chosen area', () => {
    expect(panelCounters(items, 'all')).toEqual({ pendiente: 2, listo: 1, entregado: 1 });
    expect(panelCounters(items, 'barra')).toEqual({ pendiente: 2, listo: 0, entregado: 1 });
  });
});
