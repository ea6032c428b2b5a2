import type { BoardItem } from '@comanda/contract';

let seq = 0;

/**
 * A board line for model tests: a pending item of table 5's order with a fresh id, its other
 * fields given by `over` (station, status, times…).
 */
export function boardItem(over: Partial<BoardItem>): BoardItem {
  seq += 1;
  return {
    id: `i${seq}`,
    orderId: 'o1',
    tableId: 't1',
    tableNumber: 5,
    tableName: null,
    waiterName: 'Mario',
    productName: 'Tacos',
    quantity: 1,
    notes: null,
    category: 'Comida',
    station: 'cocina',
    status: 'pendiente',
    createdAt: 0,
    updatedAt: 0,
    ...over,
  };
}
