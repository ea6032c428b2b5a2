import { describe, expect, it } from 'vitest';
import type { BoardItem } from '@comanda/contract';
import { filterPanelItems, panelCounters } from './panel-model.ts';

let seq = 0;
function item(over: Partial<BoardItem>): BoardItem {
  seq += 1;
  return {
    id: `i${seq}`,
    orderId: 'o1',
    tableId: 't1',
    tableNumber: 6,
    tableName: null,
    waiterName: 'Lucía',
    productName: 'Michelada',
    quantity: 1,
    notes: null,
    category: 'Bebida',
    station: 'barra',
    status: 'pendiente',
    createdAt: 1000 - seq,
    updatedAt: 1000,
    ...over,
  };
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
