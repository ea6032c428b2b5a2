import { insertCardPayment } from '../src/testing/factories.ts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MoveItemsResponse, Order, Table } from '@comanda/contract';
import { newId } from '../src/http/ids.ts';
import {
  assertInvariants,
  assertUnitsAccounted,
  connectLive,
  startTestServer,
  testDatabaseKinds,
  unitLedger,
  type ApiClient,
  type TestServer,
} from '../src/testing/index.ts';

type Err = { error: { code: string; message: string } };
type Who = 'admin' | 'waiter' | 'waiter2' | 'kitchen';

describe.each(testDatabaseKinds())('table service moves on %s', (kind) => {
  let server: TestServer;
  const api = {} as Record<Who, ApiClient>;
  let products: { id: string; name: string; price: number }[];

  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const who of ['admin', 'waiter', 'waiter2', 'kitchen'] as const) api[who] = await server.login(server.users[who].email);
    products = (await server.ctx.db.db.selectFrom('products').select(['id', 'name', 'price']).execute()).map((p) => ({
      ...p,
      price: Number(p.price),
    }));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const product = (name: string) => products.find((p) => p.name === name)!;
  let nextNumber = 300;
  const newTable = async (): Promise<Table> => {
    const res = await api.admin.post<{ table: Table }>('/api/tables', { number: nextNumber++ });
    expect(res.status).toBe(200);
    return res.body.table;
  };
  const open = async (who: Who = 'waiter'): Promise<Order> => {
    const table = await newTable();
    const res = await api[who].post<{ order: Order }>(`/api/tables/${table.id}/open`);
    expect(res.status).toBe(200);
    return res.body.order;
  };
  const add = async (who: Who, orderId: string, name: string, quantity: number, notes: string | null = null): Promise<Order> => {
    const res = await api[who].post<{ order: Order } & Err>(`/api/orders/${orderId}/items`, {
      productId: product(name).id,
      quantity,
      notes,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.order;
  };
  const tableRow = (id: string) => server.ctx.db.db.selectFrom('tables').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const orderRow = (id: string) => server.ctx.db.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const auditOf = (action: string, entityId: string) =>
    server.ctx.db.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('entity_id', '=', entityId).execute();
  const printJobs = async () =>
    Number(
      (await server.ctx.db.db.selectFrom('print_jobs').select(server.ctx.db.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
    );
  const startCard = async (order: Order) => {
    const now = server.ctx.clock.now();
    const id = newId();
    await insertCardPayment(server.ctx.db.db, order.id, {
      id,
      terminal_id: 'T1',
      amount: order.subtotal,
      provider_id: 'pi-1',
      state: 'processing',
      attempts: 1,
      created_by: order.waiterId,
      created_at: now,
    });
    return async () => {
      await server.ctx.db.db.updateTable('card_payments').set({ state: 'rejected' }).where('id', '=', id).execute();
    };
  };
  /** Served (the gate to charge), then paid in cash. */
  const payCash = async (orderId: string) => {
    await server.ctx.db.db.updateTable('order_items').set({ status: 'entregado' }).where('order_id', '=', orderId).execute();
    return api.admin.post<{ order: Order } & Err>(
      `/api/orders/${orderId}/close`,
      {
        method: 'efectivo',
        pin: '1111',
        tipBps: 0,
        peopleCount: 1,
        receivedAmount: 100_000_00,
      },
      { 'idempotency-key': `k-${randomUUID()}` },
    );
  };

  describe('transfer', () => {
    it('moves the whole order to a free table, frees the old one, prints nothing and keeps every item as it was', async () => {
      const order = await add('waiter', (await open()).id, 'Cerveza clara', 2);
      const target = await newTable();
      const jobs = await printJobs();
      const ledger = await unitLedger(server.ctx.db);
      const events: string[] = [];
      const off = server.ctx.live.onEvent((e) => events.push(`${e.topic}:${e.id}`));
      const res = await api.waiter.post<{ order: Order }>(`/api/orders/${order.id}/transfer`, { tableId: target.id });
      off();
      expect(res.status).toBe(200);
      expect(res.body.order).toMatchObject({
        id: order.id,
        tableId: target.id,
        tableNumber: target.number,
        waiterId: server.users.waiter.id,
      });
      expect(res.body.order.items).toEqual(order.items);
      expect(await tableRow(order.tableId)).toMatchObject({ status: 'libre', waiter_id: null, current_order_id: null });
      expect(await tableRow(target.id)).toMatchObject({ status: 'ocupada', waiter_id: server.users.waiter.id, current_order_id: order.id });
      expect((await api.waiter.get<{ order: Order }>(`/api/tables/${target.id}/order`)).body.order.id).toBe(order.id);
      expect((await api.waiter.get(`/api/tables/${order.tableId}/order`)).status).toBe(404);
      expect(await printJobs()).toBe(jobs);
      assertUnitsAccounted(ledger, await unitLedger(server.ctx.db));
      expect(events).toEqual(
        expect.arrayContaining([`order:${order.id}:${order.id}`, `board:${order.id}`, `tables:${target.id}`, `tables:${order.tableId}`]),
      );
      // The board reads the new table number.
      const board = await api.kitchen.get<{ items: { orderId: string; tableNumber: number }[] }>('/api/board?station=barra');
      expect(board.body.items.filter((i) => i.orderId === order.id).map((i) => i.tableNumber)).toEqual([target.number]);
      const audit = await auditOf('order.transferred', order.id);
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0]!.data!)).toMatchObject({ fromNumber: order.tableNumber, toNumber: target.number });
      await assertInvariants(server.ctx.db);
    });

    it('refuses an occupied target, the same table, and a waiter on another waiter’s table; an admin moves any', async () => {
      const order = await open('waiter');
      const busy = await open('waiter2');
      const occupied = await api.waiter.post<Err>(`/api/orders/${order.id}/transfer`, { tableId: busy.tableId });
      expect(occupied.status).toBe(409);
      expect(occupied.body.error.message).toBe('La mesa destino ya está ocupada. Elige una mesa libre.');
      expect((await api.waiter.post<Err>(`/api/orders/${order.id}/transfer`, { tableId: order.tableId })).status).toBe(409);
      const free = await newTable();
      const foreign = await api.waiter2.post<Err>(`/api/orders/${order.id}/transfer`, { tableId: free.id });
      expect(foreign.status).toBe(403);
      expect((await api.kitchen.post(`/api/orders/${order.id}/transfer`, { tableId: free.id })).status).toBe(403);
      expect((await api.waiter.post(`/api/orders/${order.id}/transfer`, { tableId: 'no-existe' })).status).toBe(404);
      expect((await orderRow(order.id)).table_id).toBe(order.tableId);
      const byAdmin = await api.admin.post<{ order: Order }>(`/api/orders/${order.id}/transfer`, { tableId: free.id });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.order.waiterId).toBe(server.users.waiter.id);
    });

    it('two transfers to one free table at once: exactly one wins', async () => {
      const a = await open('waiter');
      const b = await open('waiter2');
      const free = await newTable();
      const [ra, rb] = await Promise.all([
        api.waiter.post(`/api/orders/${a.id}/transfer`, { tableId: free.id }),
        api.waiter2.post(`/api/orders/${b.id}/transfer`, { tableId: free.id }),
      ]);
      expect([ra.status, rb.status].sort()).toEqual([200, 409]);
      await assertInvariants(server.ctx.db);
    });

    it('refuses a paid order and an order with a card payment in progress (409)', async () => {
      const paid = await add('waiter', (await open()).id, 'Cerveza clara', 1);
      expect((await payCash(paid.id)).status).toBe(200);
      const free = await newTable();
      const closed = await api.admin.post<Err>(`/api/orders/${paid.id}/transfer`, { tableId: free.id });
      expect(closed.status).toBe(409);
      expect(closed.body.error.message).toBe('La orden ya fue cerrada y no se puede modificar');
      const charging = await add('waiter', (await open()).id, 'Cerveza clara', 1);
      const stop = await startCard(charging);
      const frozen = await api.waiter.post<Err>(`/api/orders/${charging.id}/transfer`, { tableId: free.id });
      expect(frozen.status).toBe(409);
      expect(frozen.body.error.message).toMatch(/cobro con tarjeta en curso/);
      await stop();
      expect((await tableRow(free.id)).status).toBe('libre');
    });
  });

  describe('change of waiter', () => {
    it('an admin hands a table to another waiter: the new one works it and hears it, the old one is refused', async () => {
      const order = await add('waiter', (await open('waiter')).id, 'Margarita', 1);
      const oldLive = await connectLive(server.url, api.waiter.cookie);
      const newLive = await connectLive(server.url, api.waiter2.cookie);
      for (const live of [oldLive, newLive]) {
        live.ws.send(JSON.stringify({ op: 'subscribe', topics: ['tables', 'orders'] }));
        await live.next((m) => m.op === 'subscribed');
      }
      const res = await api.admin.post<{ order: Order }>(`/api/orders/${order.id}/waiter`, { waiterId: server.users.waiter2.id });
      expect(res.status).toBe(200);
      expect(res.body.order).toMatchObject({ waiterId: server.users.waiter2.id, waiterName: server.users.waiter2.displayName });
      expect(await tableRow(order.tableId)).toMatchObject({
        waiter_id: server.users.waiter2.id,
        waiter_name: server.users.waiter2.displayName,
      });
      // Both hear it live: the old owner to drop it, the new one to pick it up.
      const heard = (m: { op: string; event?: { topic: string; id?: string } }) =>
        m.op === 'event' && m.event?.topic === 'orders' && m.event.id === order.id;
      await oldLive.next(heard);
      await newLive.next(heard);
      oldLive.ws.close();
      newLive.ws.close();
      expect((await api.waiter2.get(`/api/orders/${order.id}`)).status).toBe(200);
      expect((await api.waiter.get(`/api/orders/${order.id}`)).status).toBe(403);
      expect((await api.waiter.post(`/api/orders/${order.id}/items`, { productId: product('Margarita').id, quantity: 1 })).status).toBe(
        403,
      );
      const tables = await api.waiter2.get<{ tables: Table[] }>('/api/tables');
      expect(tables.body.tables.find((t) => t.id === order.tableId)?.currentOrderId).toBe(order.id);
      const oldTables = await api.waiter.get<{ tables: Table[] }>('/api/tables');
      expect(oldTables.body.tables.find((t) => t.id === order.tableId)?.currentOrderId).toBeNull();
      const audit = await auditOf('order.waiter-changed', order.id);
      expect(audit).toHaveLength(1);
      expect(audit[0]!.authorized_by).toBeNull();
    });

    it('a waiter needs an admin PIN: none, a wrong one and their own are refused; the admin PIN is recorded', async () => {
      const order = await open('waiter');
      const to = server.users.waiter2.id;
      const none = await api.waiter.post<Err>(`/api/orders/${order.id}/waiter`, { waiterId: to });
      expect(none.status).toBe(403);
      expect(none.body.error.message).toBe('Se requiere el PIN de un administrador para cambiar el mesero');
      expect((await api.waiter.post<Err>(`/api/orders/${order.id}/waiter`, { waiterId: to, pin: '9999' })).status).toBe(403);
      expect((await api.waiter.post<Err>(`/api/orders/${order.id}/waiter`, { waiterId: to, pin: server.users.waiter.pin })).status).toBe(
        403,
      );
      expect((await api.waiter.post<Err>(`/api/orders/${order.id}/waiter`, { waiterId: to, pin: server.users.waiter2.pin })).status).toBe(
        403,
      );
      expect((await orderRow(order.id)).waiter_id).toBe(server.users.waiter.id);
      // Another waiter cannot even try on a table that is not theirs.
      expect((await api.waiter2.post<Err>(`/api/orders/${order.id}/waiter`, { waiterId: to, pin: server.users.admin.pin })).status).toBe(
        403,
      );
      const ok = await api.waiter.post<{ order: Order }>(`/api/orders/${order.id}/waiter`, { waiterId: to, pin: server.users.admin.pin });
      expect(ok.status).toBe(200);
      const audit = await auditOf('order.waiter-changed', order.id);
      expect(audit[0]!.authorized_by).toBe(server.users.admin.id);
      expect(audit[0]!.actor_id).toBe(server.users.waiter.id);
      // The same waiter again, a kitchen user, and an unknown id are refused.
      expect((await api.admin.post(`/api/orders/${order.id}/waiter`, { waiterId: to })).status).toBe(409);
      expect((await api.admin.post(`/api/orders/${order.id}/waiter`, { waiterId: server.users.kitchen.id })).status).toBe(404);
    });

    it('lists who can take a table', async () => {
      const res = await api.waiter.get<{ waiters: { id: string; role: string }[] }>('/api/service/waiters');
      expect(res.status).toBe(200);
      expect(res.body.waiters.map((w) => w.id)).toEqual(
        expect.arrayContaining([server.users.waiter.id, server.users.waiter2.id, server.users.admin.id]),
      );
      expect(res.body.waiters.some((w) => w.id === server.users.kitchen.id)).toBe(false);
      expect((await api.kitchen.get('/api/service/waiters')).status).toBe(403);
    });
  });

  describe('merge', () => {
    it('moves every item with its status into the target, recomputes it, cancels the source at zero and frees its table', async () => {
      const source = await add('waiter', (await open()).id, 'Cerveza clara', 3, 'bien fría');
      await add('waiter', source.id, 'Tacos al pastor (3)', 1);
      const itemId = source.items[0]!.id;
      expect((await api.admin.patch(`/api/orders/${source.id}/items/${itemId}/status`, { status: 'en_preparacion' })).status).toBe(200);
      const target = await add('waiter', (await open()).id, 'Margarita', 2);
      const before = await api.waiter.get<{ order: Order }>(`/api/orders/${source.id}`);
      const jobs = await printJobs();
      const ledger = await unitLedger(server.ctx.db);
      const res = await api.waiter.post<{ order: Order }>(`/api/orders/${source.id}/merge`, { targetTableId: target.tableId });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const merged = res.body.order;
      expect(merged.id).toBe(target.id);
      expect(merged.items).toHaveLength(3);
      for (const item of before.body.order.items) expect(merged.items.find((i) => i.id === item.id)).toEqual(item);
      expect(merged.subtotal).toBe(
        product('Cerveza clara').price * 3 + product('Tacos al pastor (3)').price + product('Margarita').price * 2,
      );
      expect(merged.peopleCount).toBe(2);
      expect(await orderRow(source.id)).toMatchObject({ status: 'cancelado', active_table_id: null, subtotal: 0, total: 0 });
      expect(await tableRow(source.tableId)).toMatchObject({ status: 'libre', current_order_id: null });
      expect(await printJobs()).toBe(jobs);
      assertUnitsAccounted(ledger, await unitLedger(server.ctx.db));
      expect(await auditOf('order.merged', source.id)).toHaveLength(1);
      await assertInvariants(server.ctx.db);
    });

    it('two tables merged into each other at once: one wins, the other is refused, nothing lost', async () => {
      const a = await add('waiter', (await open()).id, 'Cerveza clara', 2);
      const b = await add('waiter', (await open()).id, 'Margarita', 1);
      const ledger = await unitLedger(server.ctx.db);
      const [ra, rb] = await Promise.all([
        api.waiter.post(`/api/orders/${a.id}/merge`, { targetTableId: b.tableId }),
        api.admin.post(`/api/orders/${b.id}/merge`, { targetTableId: a.tableId }),
      ]);
      expect([ra.status, rb.status].sort()).toEqual([200, 409]);
      assertUnitsAccounted(ledger, await unitLedger(server.ctx.db));
      const statuses = [(await orderRow(a.id)).status, (await orderRow(b.id)).status].sort();
      expect(statuses).toEqual(['activo', 'cancelado']);
      await assertInvariants(server.ctx.db);
    });

    it('refuses a free target, another waiter’s table (for a waiter), a paid source and a target being charged by card', async () => {
      const source = await add('waiter', (await open()).id, 'Cerveza clara', 1);
      const free = await newTable();
      const notOccupied = await api.waiter.post<Err>(`/api/orders/${source.id}/merge`, { targetTableId: free.id });
      expect(notOccupied.status).toBe(409);
      expect(notOccupied.body.error.message).toBe('La mesa destino no tiene una orden activa');
      const foreign = await add('waiter2', (await open('waiter2')).id, 'Cerveza clara', 1);
      expect((await api.waiter.post(`/api/orders/${source.id}/merge`, { targetTableId: foreign.tableId })).status).toBe(403);
      const stop = await startCard(foreign);
      const frozen = await api.admin.post<Err>(`/api/orders/${source.id}/merge`, { targetTableId: foreign.tableId });
      expect(frozen.status).toBe(409);
      expect(frozen.body.error.message).toMatch(/cobro con tarjeta en curso/);
      await stop();
      expect((await payCash(source.id)).status).toBe(200);
      const paid = await api.admin.post<Err>(`/api/orders/${source.id}/merge`, { targetTableId: foreign.tableId });
      expect(paid.status).toBe(409);
      // An admin merges across waiters: the items join the target's waiter.
      const other = await add('waiter', (await open()).id, 'Margarita', 1);
      expect((await api.admin.post(`/api/orders/${other.id}/merge`, { targetTableId: foreign.tableId })).status).toBe(200);
      await assertInvariants(server.ctx.db);
    });
  });

  describe('with the rest of table service', () => {
    it('an order with parts already paid is charged, not merged away; a transfer takes its payments along', async () => {
      const source = await add('waiter', (await open()).id, 'Cerveza clara', 2);
      await server.ctx.db.db.updateTable('order_items').set({ status: 'entregado' }).where('order_id', '=', source.id).execute();
      const part = await api.waiter.post<Err>(
        `/api/orders/${source.id}/payments`,
        { method: 'transferencia', amount: product('Cerveza clara').price, pin: '1111' },
        { 'idempotency-key': `k-${randomUUID()}` },
      );
      expect(part.status, JSON.stringify(part.body)).toBe(200);
      const target = await add('waiter', (await open()).id, 'Margarita', 1);
      const merged = await api.waiter.post<Err>(`/api/orders/${source.id}/merge`, { targetTableId: target.tableId });
      expect(merged.status).toBe(409);
      expect(merged.body.error.code).toBe('order_has_payments');
      expect((await orderRow(source.id)).status).toBe('activo');
      const free = await newTable();
      expect((await api.waiter.post(`/api/orders/${source.id}/transfer`, { tableId: free.id })).status).toBe(200);
      const payments = await server.ctx.db.db.selectFrom('payments').select('order_id').where('order_id', '=', source.id).execute();
      expect(payments).toHaveLength(1);
      await assertInvariants(server.ctx.db);
    });

    it('an order leaving a table that still has another check hands the table over instead of freeing it', async () => {
      const order = await add('waiter', (await open()).id, 'Cerveza clara', 3);
      const line = order.items[0]!;
      const split = await api.waiter.post<Err>(`/api/orders/${order.id}/checks`, {
        checks: [{ lines: [{ itemId: line.id, quantity: 1 }] }],
      });
      expect(split.status, JSON.stringify(split.body)).toBe(200);
      const free = await newTable();
      expect((await api.waiter.post(`/api/orders/${order.id}/transfer`, { tableId: free.id })).status).toBe(200);
      const left = await tableRow(order.tableId);
      expect(left.status).toBe('ocupada');
      expect(left.current_order_id).not.toBe(order.id);
      expect((await orderRow(left.current_order_id!)).parent_order_id).toBe(order.id);
      await assertInvariants(server.ctx.db);
    });
  });

  describe('move items', () => {
    const move = (who: Who, orderId: string, targetTableId: string, lines: { itemId: string; quantity: number }[]) =>
      api[who].post<MoveItemsResponse & Err>(`/api/orders/${orderId}/move-items`, { targetTableId, lines });

    it('moves 2 of 3 beers to a free table: splits the line, opens an order for the same waiter, prints nothing', async () => {
      const source = await add('waiter', (await open()).id, 'Cerveza clara', 3, 'sin vaso');
      await add('waiter', source.id, 'Tacos al pastor (3)', 1);
      const beer = source.items[0]!;
      const free = await newTable();
      const jobs = await printJobs();
      const ledger = await unitLedger(server.ctx.db);
      const res = await move('waiter', source.id, free.id, [{ itemId: beer.id, quantity: 2 }]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { source: left, target } = res.body;
      expect(left.items.find((i) => i.id === beer.id)!.quantity).toBe(1);
      expect(target).toMatchObject({ tableId: free.id, waiterId: server.users.waiter.id, status: 'activo' });
      expect(target.items).toHaveLength(1);
      const split = target.items[0]!;
      expect(split.id).not.toBe(beer.id);
      expect(split).toMatchObject({
        productId: beer.productId,
        productPrice: beer.productPrice,
        status: beer.status,
        notes: 'sin vaso',
        quantity: 2,
        createdAt: beer.createdAt,
      });
      expect(target.subtotal).toBe(beer.productPrice * 2);
      expect(left.subtotal).toBe(beer.productPrice + product('Tacos al pastor (3)').price);
      expect(await tableRow(free.id)).toMatchObject({ status: 'ocupada', current_order_id: target.id, waiter_id: server.users.waiter.id });
      expect(await printJobs()).toBe(jobs);
      assertUnitsAccounted(ledger, await unitLedger(server.ctx.db));
      expect(await auditOf('order.items-moved', source.id)).toHaveLength(1);
      await assertInvariants(server.ctx.db);
    });

    it('moves whole lines into an occupied table’s order, keeping the row', async () => {
      const source = await add('waiter', (await open()).id, 'Cerveza clara', 2);
      const target = await add('waiter', (await open()).id, 'Margarita', 1);
      const res = await move('waiter', source.id, target.tableId, [{ itemId: source.items[0]!.id, quantity: 2 }]);
      expect(res.status).toBe(200);
      expect(res.body.target.id).toBe(target.id);
      expect(res.body.target.items.map((i) => i.id)).toContain(source.items[0]!.id);
      expect(res.body.source.items).toHaveLength(0);
      expect(res.body.source.subtotal).toBe(0);
    });

    it('refuses too many units, foreign and deleted items, another waiter’s target, a paid order and a card in progress', async () => {
      const source = await add('waiter', (await open()).id, 'Cerveza clara', 2);
      const itemId = source.items[0]!.id;
      const free = await newTable();
      expect((await move('waiter', source.id, free.id, [{ itemId, quantity: 3 }])).status).toBe(409);
      expect((await move('waiter', source.id, free.id, [{ itemId: 'no-existe', quantity: 1 }])).status).toBe(404);
      expect((await move('waiter', source.id, free.id, [{ itemId, quantity: 0 }])).status).toBe(400);
      expect(
        (
          await move('waiter', source.id, free.id, [
            { itemId, quantity: 1 },
            { itemId, quantity: 1 },
          ])
        ).status,
      ).toBe(400);
      expect((await move('waiter', source.id, source.tableId, [{ itemId, quantity: 1 }])).status).toBe(409);
      const foreign = await open('waiter2');
      expect((await move('waiter', source.id, foreign.tableId, [{ itemId, quantity: 1 }])).status).toBe(403);
      expect((await move('waiter2', source.id, free.id, [{ itemId, quantity: 1 }])).status).toBe(403);
      const stop = await startCard(source);
      const frozen = await move('waiter', source.id, free.id, [{ itemId, quantity: 1 }]);
      expect(frozen.status).toBe(409);
      expect(frozen.body.error.message).toMatch(/cobro con tarjeta en curso/);
      await stop();
      // Into an order being charged by card: refused too.
      const charging = await add('waiter', (await open()).id, 'Margarita', 1);
      const stopTarget = await startCard(charging);
      expect((await move('waiter', source.id, charging.tableId, [{ itemId, quantity: 1 }])).status).toBe(409);
      await stopTarget();
      expect((await tableRow(free.id)).status).toBe('libre');
      expect((await payCash(source.id)).status).toBe(200);
      const paid = await move('admin', source.id, free.id, [{ itemId, quantity: 1 }]);
      expect(paid.status).toBe(409);
      expect(paid.body.error.message).toBe('La orden ya fue cerrada y no se puede modificar');
      expect((await tableRow(free.id)).status).toBe('libre');
      await assertInvariants(server.ctx.db);
    });

    it('two devices moving the same units at once: exactly one wins, nothing duplicated or lost', async () => {
      for (let round = 0; round < 3; round++) {
        const source = await add('waiter', (await open()).id, 'Cerveza clara', 3);
        const itemId = source.items[0]!.id;
        const occupied = await add('waiter', (await open()).id, 'Margarita', 1);
        const free = await newTable();
        const ledger = await unitLedger(server.ctx.db);
        const [a, b] = await Promise.all([
          move('waiter', source.id, occupied.tableId, [{ itemId, quantity: 2 }]),
          move('admin', source.id, free.id, [{ itemId, quantity: 2 }]),
        ]);
        expect([a.status, b.status].sort(), JSON.stringify([a.body, b.body])).toEqual([200, 409]);
        const after = await unitLedger(server.ctx.db);
        assertUnitsAccounted(ledger, after);
        expect(after.rows).toBe(ledger.rows + 1);
        const left = await server.ctx.db.db.selectFrom('order_items').select('quantity').where('id', '=', itemId).executeTakeFirstOrThrow();
        expect(Number(left.quantity)).toBe(1);
        await assertInvariants(server.ctx.db);
      }
    });

    it('a repeated request (same Idempotency-Key) moves the units once', async () => {
      const source = await add('waiter', (await open()).id, 'Cerveza clara', 3);
      const free = await newTable();
      const ledger = await unitLedger(server.ctx.db);
      const body = { targetTableId: free.id, lines: [{ itemId: source.items[0]!.id, quantity: 2 }] };
      const headers = { 'idempotency-key': `k-${randomUUID()}` };
      const first = await api.waiter.post<MoveItemsResponse>(`/api/orders/${source.id}/move-items`, body, headers);
      const again = await api.waiter.post<MoveItemsResponse>(`/api/orders/${source.id}/move-items`, body, headers);
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.body.target.id).toBe(first.body.target.id);
      const after = await unitLedger(server.ctx.db);
      assertUnitsAccounted(ledger, after);
      expect(after.rows).toBe(ledger.rows + 1);
    });

    it('moves in opposite directions between two orders at once do not deadlock', async () => {
      const a = await add('waiter', (await open()).id, 'Cerveza clara', 4);
      const b = await add('waiter', (await open()).id, 'Margarita', 4);
      const ledger = await unitLedger(server.ctx.db);
      const results = await Promise.all([
        move('waiter', a.id, b.tableId, [{ itemId: a.items[0]!.id, quantity: 1 }]),
        move('waiter', b.id, a.tableId, [{ itemId: b.items[0]!.id, quantity: 1 }]),
        move('admin', a.id, b.tableId, [{ itemId: a.items[0]!.id, quantity: 1 }]),
        move('admin', b.id, a.tableId, [{ itemId: b.items[0]!.id, quantity: 1 }]),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      assertUnitsAccounted(ledger, await unitLedger(server.ctx.db));
      await assertInvariants(server.ctx.db);
    });
  });
});
