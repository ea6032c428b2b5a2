import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BoardItem, BoardResponse, LiveEvent, Order, OrderItem } from '@comanda/contract';
import { DELIVERED_RETENTION_MS } from '@comanda/domain';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { newId } from '../src/http/ids.ts';

type ErrorBody = { error: { code: string; message: string } };

/** A clock the test sets by hand, so timestamps and the 30-minute retention need no waiting. */
function manualClock(start: number) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms), set: (ms: number) => void (t = ms) };
}
type ManualClock = ReturnType<typeof manualClock>;

/**
 * Opens a table and adds items through the waiter's API (the orders routes), one clock
 * millisecond apart from `at`; the first item carries a note and every item quantity 2.
 */
async function seedOrder(
  server: TestServer,
  clock: ManualClock,
  tableNumber: number,
  products: string[],
  at: number,
): Promise<{ orderId: string; itemIds: string[] }> {
  const waiter = await server.login(server.users.waiter.email);
  const table = await server.ctx.db.db.selectFrom('tables').select('id').where('number', '=', tableNumber).executeTakeFirstOrThrow();
  clock.set(at);
  const opened = await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`);
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  const orderId = opened.body.order.id;
  expect((await waiter.patch(`/api/orders/${orderId}`, { tableName: `Cumple ${tableNumber}` })).status).toBe(200);
  let order = opened.body.order;
  for (const [i, name] of products.entries()) {
    const p = await server.ctx.db.db.selectFrom('products').select('id').where('name', '=', name).executeTakeFirstOrThrow();
    clock.set(at + i);
    const added = await waiter.post<{ order: Order }>(`/api/orders/${orderId}/items`, {
      productId: p.id,
      quantity: 2,
      ...(i === 0 ? { notes: 'sin cebolla' } : {}),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    order = added.body.order;
  }
  return { orderId, itemIds: order.items.map((item) => item.id) };
}

/** Frees every table and closes every order, so each test starts from an empty board. */
async function clearOrders(server: TestServer): Promise<void> {
  const db = server.ctx.db.db;
  await db.updateTable('tables').set({ status: 'libre', current_order_id: null, waiter_id: null, waiter_name: null }).execute();
  await db.updateTable('orders').set({ status: 'cancelado', active_table_id: null }).where('status', '=', 'activo').execute();
}

const versionOf = async (server: TestServer, orderId: string) =>
  (await server.ctx.db.db.selectFrom('orders').select('version').where('id', '=', orderId).executeTakeFirstOrThrow()).version;

const statusPath = (orderId: string, itemId: string) => `/api/orders/${orderId}/items/${itemId}/status`;

describe.each(testDatabaseKinds())('kitchen and bar board on %s', (kind) => {
  const clock = manualClock(Date.UTC(2025, 5, 14, 2, 0, 0));
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let kitchen: ApiClient;
  let barra: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(kind, {
      clock,
      checkInvariants: false /* paid and cancelled orders are written directly, without payments */,
    });
    [admin, waiter, kitchen, barra] = await Promise.all([
      server.login(server.users.admin.email),
      server.login(server.users.waiter.email),
      server.login(server.users.kitchen.email),
      server.login(server.users.barra.email),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await clearOrders(server);
  });

  const board = async (api: ApiClient, station = 'all') => {
    const res = await api.get<BoardResponse>(`/api/board?station=${station}`);
    expect(res.status).toBe(200);
    return res.body.items;
  };

  describe('GET /api/board', () => {
    it('is for admin, kitchen and barra; not for waiters or anonymous callers', async () => {
      expect((await server.anonymous().get('/api/board')).status).toBe(401);
      expect((await waiter.get('/api/board?station=cocina')).status).toBe(403);
      for (const api of [admin, kitchen, barra]) {
        for (const station of ['cocina', 'barra', 'all']) expect((await api.get(`/api/board?station=${station}`)).status).toBe(200);
      }
    });

    it('refuses an unknown station with a Spanish 400', async () => {
      const res = await admin.get<ErrorBody>('/api/board?station=terraza');
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/Datos inválidos/);
    });

    it('routes items by category to their station, with the card fields', async () => {
      const at = clock.now();
      const { orderId, itemIds } = await seedOrder(
        server,
        clock,
        5,
        ['Tacos al pastor (3)', 'Cerveza clara', 'Shot de mezcal', 'Flan napolitano'],
        at,
      );
      const cocina = await board(kitchen, 'cocina');
      expect(cocina.map((i) => i.productName)).toEqual(['Tacos al pastor (3)', 'Flan napolitano']);
      const barItems = await board(barra, 'barra');
      expect(barItems.map((i) => i.productName)).toEqual(['Cerveza clara', 'Shot de mezcal']);
      expect((await board(admin)).length).toBe(4);
      const first = cocina[0]!;
      expect(first).toEqual<BoardItem>({
        id: itemIds[0]!,
        orderId,
        tableId: first.tableId,
        tableNumber: 5,
        tableName: 'Cumple 5',
        waiterName: server.users.waiter.displayName,
        productName: 'Tacos al pastor (3)',
        quantity: 2,
        notes: 'sin cebolla',
        category: 'Comida',
        station: 'cocina',
        status: 'pendiente',
        createdAt: at,
        updatedAt: at,
      });
    });

    it('sorts oldest first across orders and leaves out deleted items and closed orders', async () => {
      const t0 = clock.now();
      const late = await seedOrder(server, clock, 6, ['Enchiladas verdes'], t0 + 5_000);
      const early = await seedOrder(server, clock, 5, ['Guacamole con totopos', 'Queso fundido'], t0);
      const paid = await seedOrder(server, clock, 7, ['Alitas BBQ (10)'], t0 - 10_000);
      await server.ctx.db.db
        .updateTable('orders')
        .set({ status: 'pagado', active_table_id: null })
        .where('id', '=', paid.orderId)
        .execute();
      expect(
        (await admin.post(`/api/orders/${early.orderId}/items/${early.itemIds[1]!}/delete`, { pin: server.users.admin.pin })).status,
      ).toBe(200);
      const items = await board(kitchen, 'cocina');
      expect(items.map((i) => i.id)).toEqual([early.itemIds[0], late.itemIds[0]]);
    });

    it('shows delivered items for 30 minutes after their last update, then drops them', async () => {
      const { orderId, itemIds } = await seedOrder(server, clock, 5, ['Hamburguesa de la casa'], clock.now());
      expect((await kitchen.patch(statusPath(orderId, itemIds[0]!), { status: 'entregado' })).status).toBe(200);
      clock.advance(DELIVERED_RETENTION_MS - 1);
      expect((await board(kitchen, 'cocina')).map((i) => i.status)).toEqual(['entregado']);
      clock.advance(1);
      expect(await board(kitchen, 'cocina')).toEqual([]);
      // The admin panel still lists every item of the open order.
      const panel = await admin.get<BoardResponse>('/api/board?station=all&view=panel');
      expect(panel.body.items.map((i) => i.id)).toEqual([itemIds[0]]);
      // Moving it back restarts its life on the board.
      expect((await kitchen.patch(statusPath(orderId, itemIds[0]!), { status: 'listo' })).status).toBe(200);
      expect((await board(kitchen, 'cocina')).map((i) => i.status)).toEqual(['listo']);
    });

    it('answers the server clock so screens count minutes without trusting the device', async () => {
      const res = await kitchen.get<BoardResponse>('/api/board');
      expect(res.body.now).toBe(clock.now());
    });
  });

  describe('PATCH /api/orders/:orderId/items/:itemId/status', () => {
    it('lets kitchen move cocina items and barra move barra items, not the other station', async () => {
      const { orderId, itemIds } = await seedOrder(server, clock, 5, ['Tacos al pastor (3)', 'Michelada'], clock.now());
      const [food, drink] = itemIds as [string, string];
      const ok = await kitchen.patch<{ item: OrderItem }>(statusPath(orderId, food), { status: 'listo' });
      expect(ok.status).toBe(200);
      expect(ok.body.item).toMatchObject({ id: food, status: 'listo', station: 'cocina', updatedAt: clock.now() });
      const wrongKitchen = await kitchen.patch<ErrorBody>(statusPath(orderId, drink), { status: 'listo' });
      expect(wrongKitchen.status).toBe(403);
      expect(wrongKitchen.body.error.message).toBe('Solo puedes actualizar productos de tu estación');
      expect((await barra.patch(statusPath(orderId, food), { status: 'entregado' })).status).toBe(403);
      expect((await barra.patch(statusPath(orderId, drink), { status: 'listo' })).status).toBe(200);
      const items = await board(admin);
      expect(items.map((i) => [i.productName, i.status])).toEqual([
        ['Tacos al pastor (3)', 'listo'],
        ['Michelada', 'listo'],
      ]);
    });

    it('lets admin set any status on any station, backwards too; waiters and anonymous are refused', async () => {
      const { orderId, itemIds } = await seedOrder(server, clock, 5, ['Tacos al pastor (3)', 'Botella tequila reposado'], clock.now());
      for (const status of ['entregado', 'pendiente', 'en_preparacion', 'listo'] as const) {
        for (const id of itemIds) {
          const res = await admin.patch<{ item: OrderItem }>(statusPath(orderId, id), { status });
          expect(res.status).toBe(200);
          expect(res.body.item.status).toBe(status);
        }
      }
      expect((await waiter.patch(statusPath(orderId, itemIds[0]!), { status: 'entregado' })).status).toBe(403);
      expect((await server.anonymous().patch(statusPath(orderId, itemIds[0]!), { status: 'entregado' })).status).toBe(401);
      const row = await server.ctx.db.db.selectFrom('order_items').select('status').where('id', '=', itemIds[0]!).executeTakeFirstOrThrow();
      expect(row.status).toBe('listo');
    });

    it('refuses bad statuses and extra fields with 400 and writes nothing', async () => {
      const { orderId, itemIds } = await seedOrder(server, clock, 5, ['Tacos al pastor (3)'], clock.now());
      const before = await versionOf(server, orderId);
      for (const body of [
        { status: 'cancelado' },
        { status: 'LISTO' },
        { status: 3 },
        {},
        { status: 'listo', station: 'barra' },
        { status: 'listo', version: 99 },
      ]) {
        const res = await admin.patch<ErrorBody>(statusPath(orderId, itemIds[0]!), body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.message).toMatch(/Datos inválidos/);
      }
      expect((await admin.patch(`/api/orders/${orderId}/items/no%20valido/status`, { status: 'listo' })).status).toBe(400);
      expect(await versionOf(server, orderId)).toBe(before);
      expect((await board(admin)).map((i) => i.status)).toEqual(['pendiente']);
    });

    it('answers 404 for an unknown order or an item of another order', async () => {
      const a = await seedOrder(server, clock, 5, ['Tacos al pastor (3)'], clock.now());
      const b = await seedOrder(server, clock, 6, ['Flan napolitano'], clock.now());
      const unknownOrder = await admin.patch<ErrorBody>(statusPath(newId(), a.itemIds[0]!), { status: 'listo' });
      expect(unknownOrder.status).toBe(404);
      expect(unknownOrder.body.error.message).toBe('Orden no encontrada');
      const otherOrder = await admin.patch<ErrorBody>(statusPath(a.orderId, b.itemIds[0]!), { status: 'listo' });
      expect(otherOrder.status).toBe(404);
      expect(otherOrder.body.error.message).toBe('Item no encontrado');
    });

    it('refuses deleted items with 409', async () => {
      const { orderId, itemIds } = await seedOrder(server, clock, 5, ['Tacos al pastor (3)'], clock.now());
      expect((await admin.post(`/api/orders/${orderId}/items/${itemIds[0]!}/delete`, { pin: server.users.admin.pin })).status).toBe(200);
      for (const api of [admin, kitchen]) {
        const res = await api.patch<ErrorBody>(statusPath(orderId, itemIds[0]!), { status: 'listo' });
        expect(res.status).toBe(409);
        expect(res.body.error.message).toBe('El producto fue eliminado y no se puede modificar');
      }
    });

    it('refuses items of paid and cancelled orders with 409 and leaves them untouched', async () => {
      for (const status of ['pagado', 'cancelado'] as const) {
        const { orderId, itemIds } = await seedOrder(server, clock, 5, ['Tacos al pastor (3)'], clock.now());
        await server.ctx.db.db
          .updateTable('orders')
          .set({ status, active_table_id: null, completed_at: clock.now() })
          .where('id', '=', orderId)
          .execute();
        await server.ctx.db.db.updateTable('tables').set({ status: 'libre', current_order_id: null }).where('number', '=', 5).execute();
        const res = await kitchen.patch<ErrorBody>(statusPath(orderId, itemIds[0]!), { status: 'listo' });
        expect(res.status).toBe(409);
        expect(res.body.error.message).toBe('La orden ya fue cerrada y no se puede modificar');
        const row = await server.ctx.db.db
          .selectFrom('order_items')
          .select('status')
          .where('id', '=', itemIds[0]!)
          .executeTakeFirstOrThrow();
        expect(row.status).toBe('pendiente');
      }
    });

    it('bumps the order version, audits the change and tells the boards after commit', async () => {
      const { orderId, itemIds } = await seedOrder(server, clock, 6, ['Margarita'], clock.now());
      const before = await versionOf(server, orderId);
      const events: LiveEvent[] = [];
      // The print and inventory workers publish on their own time (a printer's status, a stock
      // change from the seed's adds): only the request's own events are counted.
      const off = server.ctx.live.onEvent((e) => void (e.topic !== 'printers' && e.topic !== 'inventory' && events.push(e)));
      clock.advance(1000);
      const res = await barra.patch<{ item: OrderItem }>(statusPath(orderId, itemIds[0]!), { status: 'listo' });
      off();
      expect(res.status).toBe(200);
      const order = await server.ctx.db.db
        .selectFrom('orders')
        .select(['version', 'updated_at'])
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow();
      expect(order).toEqual({ version: before + 1, updated_at: clock.now() });
      // A bar item tells 'board' (every station) and the bar's own topic, never the kitchen's.
      expect(events.map((e) => e.topic).sort()).toEqual(['board', 'board:barra', `order:${orderId}`, 'orders', 'tables']);
      expect(events.find((e) => e.topic === 'board')).toMatchObject({ id: orderId, version: before + 1 });
      const entry = await server.ctx.db.db
        .selectFrom('audit_log')
        .selectAll()
        .where('entity_id', '=', itemIds[0]!)
        .executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ action: 'item.status_changed', actor_id: server.users.barra.id, entity: 'order_item' });
      expect(JSON.parse(entry.data ?? '{}')).toEqual({ orderId, from: 'pendiente', to: 'listo', station: 'barra' });
    });

    it('treats setting the current status again as no change', async () => {
      const { orderId, itemIds } = await seedOrder(server, clock, 5, ['Tacos al pastor (3)'], clock.now());
      const before = await versionOf(server, orderId);
      const res = await kitchen.patch<{ item: OrderItem }>(statusPath(orderId, itemIds[0]!), { status: 'pendiente' });
      expect(res.status).toBe(200);
      expect(await versionOf(server, orderId)).toBe(before);
    });
  });
});
