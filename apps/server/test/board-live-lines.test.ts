import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  patchBoardFromEvent,
  type BoardItem,
  type BoardResponse,
  type BoardStationFilter,
  type LiveEvent,
  type Order,
  type Table,
} from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';

const BOARDS: { station: BoardStationFilter; topic: string }[] = [
  { station: 'cocina', topic: 'board:cocina' },
  { station: 'barra', topic: 'board:barra' },
  { station: 'all', topic: 'board' },
];

/**
 * A board event whose write knew its whole change carries the lines (and removed ids), and each
 * board that patches its list from the events of its topic holds exactly what GET /api/board
 * answers after: no read needed. A change the write did not describe (a void) asks for a read.
 */
describe.each(testDatabaseKinds())('board: live lines on %s', (kind) => {
  let server: TestServer;
  let waiter: ApiClient;
  let kitchen: ApiClient;
  let admin: ApiClient;
  let order: Order;
  const product = async (name: string) =>
    (await server.ctx.db.db.selectFrom('products').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    server = await startTestServer(kind);
    [waiter, kitchen, admin] = await Promise.all([
      server.login(server.users.waiter.email),
      server.login(server.users.kitchen.email),
      server.login(server.users.admin.email),
    ]);
    const tables = (await waiter.get<{ tables: Table[] }>('/api/tables')).body.tables;
    order = (await waiter.post<{ order: Order }>(`/api/tables/${tables.find((t) => t.number === 4)!.id}/open`)).body.order;
    expect((await waiter.patch(`/api/orders/${order.id}`, { tableName: 'Terraza' })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const board = async (station: BoardStationFilter) => (await kitchen.get<BoardResponse>(`/api/board?station=${station}`)).body.items;

  /** Runs `action`, replays its board events (as the wire carries them) on each board's list from before. */
  async function replay(action: () => Promise<{ status: number }>) {
    const before = new Map(await Promise.all(BOARDS.map(async (b) => [b.station, await board(b.station)] as const)));
    const events: LiveEvent[] = [];
    const off = server.ctx.live.onEvent(
      (e) => void (e.topic.startsWith('board') && events.push(JSON.parse(JSON.stringify(e)) as LiveEvent)),
    );
    const res = await action();
    off();
    expect(res.status, JSON.stringify(res)).toBe(200);
    const patched = new Map<BoardStationFilter, BoardItem[] | null>();
    for (const b of BOARDS) {
      let cached: BoardItem[] | null = before.get(b.station)!;
      for (const e of events.filter((x) => x.topic === b.topic)) cached = cached && patchBoardFromEvent(cached, e.board, b.station);
      patched.set(b.station, cached);
    }
    return { patched, events };
  }

  async function expectPatched(action: () => Promise<{ status: number }>, stations: BoardStationFilter[]) {
    const { patched, events } = await replay(action);
    for (const station of stations) expect(patched.get(station), station).toEqual(await board(station));
    return events;
  }

  it('an add: the boards of its station patch the new line in, with its table, waiter and note', async () => {
    const taco = await product('Queso fundido');
    const events = await expectPatched(
      () => waiter.post(`/api/orders/${order.id}/items`, { productId: taco, quantity: 2, notes: 'sin cebolla' }),
      ['cocina', 'barra', 'all'],
    );
    const line = events.find((e) => e.topic === 'board:cocina')?.board?.lines[0];
    expect(line).toMatchObject({
      orderId: order.id,
      tableNumber: 4,
      tableName: 'Terraza',
      notes: 'sin cebolla',
      quantity: 2,
      status: 'pendiente',
    });
    // The bar hears nothing of a kitchen line.
    expect(events.some((e) => e.topic === 'board:barra')).toBe(false);
  });

  it("a line's status, moved by its station: patched to the server's state and time", async () => {
    const shot = await product('Shot de mezcal');
    const added = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: shot, quantity: 1 });
    const item = added.body.order.items.find((i) => i.productId === shot)!;
    const barra = await server.login(server.users.barra.email);
    for (const status of ['en_preparacion', 'listo', 'pendiente'] as const) {
      await expectPatched(() => barra.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status }), ['cocina', 'barra', 'all']);
    }
  });

  it('ready lines handed out from the order screen: the boards of their stations patch them to delivered', async () => {
    const [taco, shot] = [await product('Queso fundido'), await product('Shot de mezcal')];
    const barra = await server.login(server.users.barra.email);
    const ids: string[] = [];
    for (const [productId, staff] of [
      [taco, kitchen],
      [shot, barra],
    ] as const) {
      // Notes of their own: an earlier pending line of the product would take the unit instead.
      const added = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId, quantity: 1, notes: 'a la mano' });
      const id = added.body.order.items.at(-1)!.id;
      expect((await staff.patch(`/api/orders/${order.id}/items/${id}/status`, { status: 'listo' })).status).toBe(200);
      ids.push(id);
    }
    const events = await expectPatched(() => waiter.post(`/api/orders/${order.id}/deliver`, { itemIds: ids }), ['cocina', 'barra', 'all']);
    expect(events.find((e) => e.topic === 'board')?.board?.lines.map((l) => l.status)).toEqual(['entregado', 'entregado']);
  });

  it('a delete with PIN: the line leaves the boards from the event', async () => {
    const lines = await board('cocina');
    const gone = lines.find((l) => l.orderId === order.id)!;
    const events = await expectPatched(
      () => waiter.post(`/api/orders/${order.id}/items/${gone.id}/delete`, { pin: server.users.admin.pin }),
      ['cocina', 'barra', 'all'],
    );
    expect(events.find((e) => e.topic === 'board:cocina')?.board).toEqual({ lines: [], removed: [gone.id] });
    expect((await board('cocina')).some((l) => l.id === gone.id)).toBe(false);
  });

  it('a void with a reason (shown as CANCELADO) carries no lines: the boards read again', async () => {
    const taco = await product('Queso fundido');
    const added = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: taco, quantity: 1 });
    const item = added.body.order.items.at(-1)!;
    const { patched } = await replay(() =>
      admin.post(`/api/orders/${order.id}/items/${item.id}/void`, { quantity: 1, reason: 'Error de captura' }),
    );
    expect(patched.get('cocina')).toBeNull();
    expect(patched.get('all')).toBeNull();
  });

  it('a cash close: every line of the paid order leaves the boards from the event, its CANCELADO one too', async () => {
    const lines = (await admin.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order.items.filter((i) => !i.isDeleted);
    for (const line of lines.filter((l) => l.status !== 'entregado'))
      expect((await admin.patch(`/api/orders/${order.id}/items/${line.id}/status`, { status: 'entregado' })).status).toBe(200);
    expect((await board('all')).some((l) => l.orderId === order.id && l.cancelled)).toBe(true);
    const events = await expectPatched(
      () =>
        waiter.post(
          `/api/orders/${order.id}/close`,
          { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 0, peopleCount: 2, receivedAmount: 1_000_000 },
          { 'idempotency-key': randomUUID() },
        ),
      ['cocina', 'barra', 'all'],
    );
    expect(events.find((e) => e.topic === 'board')?.board?.removed.length).toBeGreaterThan(lines.length);
    expect((await board('all')).some((l) => l.orderId === order.id)).toBe(false);
  });
});
