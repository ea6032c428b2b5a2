import { describe, expect, it } from 'vitest';
import type { Table } from './tables.ts';
import { patchTablesFromEvent } from './table-live-patch.ts';
import type { LiveEventOf, TableLiveCard } from './live-events.ts';

const ana = { id: 'ana', role: 'waiter' };
const free = (id: string, number: number, updatedAt = 1): Table => ({
  id,
  number,
  status: 'libre',
  waiterId: null,
  waiterName: null,
  currentOrderId: null,
  updatedAt,
  order: null,
  extraOrders: [],
});
const card = (over: Partial<TableLiveCard>): TableLiveCard => ({
  id: 't2',
  number: 2,
  status: 'ocupada',
  waiterId: 'beto',
  waiterName: 'Beto',
  updatedAt: 5,
  orderWaiters: ['beto'],
  ...over,
});
const event = (over: Partial<LiveEventOf<'tables'>>): LiveEventOf<'tables'> => ({
  topic: 'tables',
  type: 'table.updated',
  id: 't2',
  at: 9,
  ...over,
});
const list = [free('bar', 0), free('t1', 1), free('t2', 2)];

describe('patchTablesFromEvent', () => {
  it("patches another waiter's table from the event's public state", () => {
    const next = patchTablesFromEvent(list, event({ table: card({}) }), ana)!;
    expect(next[2]).toEqual({ ...free('t2', 2, 5), status: 'ocupada', waiterId: 'beto', waiterName: 'Beto' });
    expect(next[0]).toBe(list[0]);
  });

  it('keeps the list when an older state arrives after a newer one', () => {
    const newer = [free('bar', 0), free('t1', 1), free('t2', 2, 10)];
    expect(patchTablesFromEvent(newer, event({ table: card({ updatedAt: 5 }) }), ana)).toBe(newer);
  });

  it('inserts a new table in floor order (the bar first, then by number)', () => {
    const next = patchTablesFromEvent(
      list,
      event({
        type: 'table.created',
        id: 't15',
        table: card({ id: 't15', number: 15, status: 'libre', waiterId: null, waiterName: null, orderWaiters: [] }),
      }),
      ana,
    )!;
    expect(next.map((t) => t.number)).toEqual([0, 1, 2, 15]);
  });

  it('removes a deleted table that showed nothing of the waiter, and reads again for one that did', () => {
    expect(patchTablesFromEvent(list, event({ type: 'table.deleted', id: 't1' }), ana)!.map((t) => t.id)).toEqual(['bar', 't2']);
    const mine = [
      free('bar', 0),
      { ...free('t1', 1), status: 'ocupada' as const, waiterId: 'ana', waiterName: 'Ana', currentOrderId: 'o1' },
    ];
    expect(patchTablesFromEvent(mine, event({ type: 'table.deleted', id: 't1' }), ana)).toBeNull();
  });

  it("keeps a waiter's own tab at the bar when the change touched only another waiter's orders", () => {
    const myTab = { id: 'o-ana', tabName: 'Lupe', itemCount: 3 } as NonNullable<Table['order']>;
    const bar = { ...free('bar', 0), status: 'ocupada' as const, waiterId: 'beto', waiterName: 'Beto', extraOrders: [myTab] };
    const held = [bar, free('t1', 1)];
    const tabOpened = event({
      id: 'bar',
      table: card({
        id: 'bar',
        number: 0,
        waiterId: 'beto',
        updatedAt: 7,
        orderWaiters: ['ana', 'beto', 'carla'],
        changedOrdersOf: 'carla',
      }),
    });
    const next = patchTablesFromEvent(held, tabOpened, ana)!;
    expect(next[0]).toEqual({ ...bar, updatedAt: 7 });
    expect(next[0]!.extraOrders?.[0]).toBe(myTab);
    expect(next[1]).toBe(held[1]);
    // A change to Ana's own orders, one that may touch several waiters', the table handed to Ana,
    // or a table Ana held: read again.
    const changed = (over: Partial<TableLiveCard>) =>
      patchTablesFromEvent(held, event({ id: 'bar', table: card({ id: 'bar', number: 0, orderWaiters: ['ana', 'beto'], ...over }) }), ana);
    expect(changed({ changedOrdersOf: 'ana' })).toBeNull();
    expect(changed({})).toBeNull();
    expect(changed({ changedOrdersOf: 'beto', waiterId: 'ana' })).toBeNull();
    const heldByAna = [{ ...bar, waiterId: 'ana', currentOrderId: 'o-ana2' }, free('t1', 1)];
    expect(
      patchTablesFromEvent(heldByAna, event({ id: 'bar', table: card({ id: 'bar', number: 0, changedOrdersOf: 'beto' }) }), ana),
    ).toBeNull();
  });

  it("reads again for the waiter's own work, an admin, an event without a card, or no cached list", () => {
    expect(patchTablesFromEvent(list, event({ table: card({ waiterId: 'ana', orderWaiters: ['ana'] }) }), ana)).toBeNull();
    expect(patchTablesFromEvent(list, event({ table: card({ orderWaiters: ['beto', 'ana'] }) }), ana)).toBeNull();
    const tabbed = [free('bar', 0), free('t1', 1), { ...free('t2', 2), extraOrders: [{} as Table['order'] & object] }];
    expect(patchTablesFromEvent(tabbed, event({ table: card({ orderWaiters: ['beto'] }) }), ana)).toBeNull();
    expect(patchTablesFromEvent(list, event({ table: card({}) }), { id: 'root', role: 'admin' })).toBeNull();
    expect(patchTablesFromEvent(list, event({}), ana)).toBeNull();
    expect(patchTablesFromEvent(list, event({ type: 'card-payment.review', id: 'o9' }), ana)).toBeNull();
    expect(patchTablesFromEvent(undefined, event({ table: card({}) }), ana)).toBeNull();
  });
});
