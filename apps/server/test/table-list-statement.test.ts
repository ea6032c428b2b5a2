import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import {
  fewestStatements,
  startTestServer,
  statementsDuring,
  testDatabaseKinds,
  type ApiClient,
  type TestServer,
} from '../src/testing/index.ts';
import { listTables } from '../src/features/tables/list-tables.query.ts';
import { newId } from '../src/http/ids.ts';

const onPostgres = testDatabaseKinds().includes('postgres');
const kinds = ['postgres'] as const;
type Who = 'admin' | 'waiter' | 'waiter2' | 'kitchen' | 'barra';

/**
 * The table list on PostgreSQL is one statement (its three queries as JSON lists): it must give
 * exactly what the three queries in turn give, for the admin and for each waiter, over tables free
 * and taken, lines in every status and deleted, separate checks, a bar tab and a paid order.
 */
describe.skipIf(!onPostgres).each(kinds)('the table list in one statement on %s', (kind) => {
  let server: TestServer;
  const api = {} as Record<Who, ApiClient>;
  let products: { id: string; name: string }[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind, { backgroundWorkers: false }); // the counted window holds only the request's own
    for (const who of ['admin', 'waiter', 'waiter2', 'kitchen', 'barra'] as const) api[who] = await server.login(server.users[who].email);
    products = (await api.admin.get<{ products: typeof products }>('/api/products?available=1')).body.products;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const product = (name: string) => products.find((p) => p.name === name)!.id;
  const opened = async (who: Who, number: number) => {
    const table = (await api.admin.post<{ table: Table }>('/api/tables', { number })).body.table;
    return (await api[who].post<{ order: Order }>(`/api/tables/${table.id}/open`)).body.order;
  };
  const add = async (who: Who, orderId: string, name: string, quantity: number) =>
    (await api[who].post<{ order: Order }>(`/api/orders/${orderId}/items`, { productId: product(name), quantity })).body.order;
  const moveAll = async (order: Order, status: string) => {
    for (const item of order.items)
      expect((await api.admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status })).status).toBe(200);
  };
  const bothWays = async (who: Who) => {
    const user = { ...server.users[who], role: who.startsWith('waiter') ? ('waiter' as const) : (who as 'admin') };
    const db = server.ctx.db.db;
    return { oneStatement: await listTables(db, user), inTurn: await listTables(db, user, undefined, { inTurn: true }) };
  };

  it('gives what the three queries in turn give, for the admin and each waiter', async () => {
    const a = await opened('waiter', 701);
    await add('waiter', a.id, 'Tacos al pastor (3)', 2);
    await moveAll(await add('waiter', a.id, 'Cerveza clara', 3), 'entregado');
    await add('waiter', a.id, 'Michelada', 1); // pending
    const b = await opened('waiter2', 702);
    const withLines = await add('waiter2', b.id, 'Cerveza clara', 1);
    await moveAll(withLines, 'en_preparacion');
    const deleted = await add('waiter2', b.id, 'Michelada', 1);
    const line = deleted.items.find((i) => i.productName === 'Michelada')!;
    await api.waiter2.post(`/api/orders/${b.id}/items/${line.id}/delete`, { pin: server.users.waiter2.pin });
    await opened('waiter', 703); // an order with no lines
    await api.admin.post<{ table: Table }>('/api/tables', { number: 704 }); // free
    // Separate checks on one table: the second is one of the table's extra orders.
    const c = await opened('waiter', 705);
    const split = await add('waiter', c.id, 'Cerveza clara', 4);
    const checks = await api.waiter.post<{ orders: Order[] }>(`/api/orders/${c.id}/checks`, {
      checks: [{ lines: [{ itemId: split.items[0]!.id, quantity: 2 }] }],
    });
    expect(checks.status).toBe(200);
    // A paid order leaves its table free.
    const paid = await opened('waiter2', 706);
    await moveAll(await add('waiter2', paid.id, 'Cerveza clara', 1), 'entregado');
    const closed = await api.waiter2.post(
      `/api/orders/${paid.id}/close`,
      { method: 'efectivo', pin: server.users.waiter2.pin, tipBps: 0, peopleCount: 1, receivedAmount: 100_000 },
      { 'idempotency-key': newId() },
    );
    expect(closed.status).toBe(200);

    for (const who of ['admin', 'waiter', 'waiter2'] as const) {
      const { oneStatement, inTurn } = await bothWays(who);
      expect(oneStatement, who).toStrictEqual(inTurn);
      expect(inTurn!.filter((t) => t.order).length, who).toBeGreaterThan(0);
    }
    const { inTurn } = await bothWays('admin');
    expect(inTurn!.find((t) => t.number === 705)!.extraOrders).toHaveLength(1);
    expect(inTurn!.find((t) => t.number === 706)!.status).toBe('libre');
  });

  it('answers the phones’ list in one statement, its session checked in it', async () => {
    await api.waiter.get('/api/tables'); // the session remembered
    // Work beside the request (a key's cleanup, an answer stored after it was sent) may fall in a window: the fewest are its own.
    const seen = await fewestStatements(3, () =>
      statementsDuring(server.ctx.db, async () => expect((await api.waiter.get('/api/tables')).status).toBe(200)),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/comanda_session_ok\(/);
  });
});
