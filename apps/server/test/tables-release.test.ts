import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { assertInvariants, startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';

type Err = { error: { code: string; message: string } };
type Who = 'anonymous' | 'admin' | 'waiter' | 'kitchen' | 'barra';

describe.each(testDatabaseKinds())('releasing an orphaned table on %s', (kind) => {
  let server: TestServer;
  const api = {} as Record<Who, ApiClient>;

  beforeAll(async () => {
    server = await startTestServer(kind);
    api.anonymous = server.anonymous();
    for (const who of ['admin', 'waiter', 'kitchen', 'barra'] as const) api[who] = await server.login(server.users[who].email);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.ctx.db.db;
  const tableOf = async (number: number) =>
    (await api.admin.get<{ tables: Table[] }>('/api/tables')).body.tables.find((t) => t.number === number)!;
  const release = (who: Who, tableId: string) => api[who].post<{ table: Table } & Err>(`/api/tables/${tableId}/release`);
  const releasedAudits = async (tableId: string) =>
    db().selectFrom('audit_log').selectAll().where('action', '=', 'table.released').where('entity_id', '=', tableId).execute();

  /** A new table opened by the waiter whose order then vanished from under it, as after a broken close. */
  async function orphan(number: number): Promise<{ table: Table; order: Order }> {
    const created = await api.admin.post<{ table: Table }>('/api/tables', { number });
    expect(created.status).toBe(200);
    const opened = await api.waiter.post<{ order: Order }>(`/api/tables/${created.body.table.id}/open`);
    expect(opened.status).toBe(200);
    const order = opened.body.order;
    await db().updateTable('orders').set({ status: 'cancelado', active_table_id: null }).where('id', '=', order.id).execute();
    return { table: await tableOf(number), order };
  }

  it('frees an occupied table without an active order, audited and announced, and it can be opened again', async () => {
    const { table, order } = await orphan(30);
    expect(table).toMatchObject({ status: 'ocupada', waiterId: server.users.waiter.id, order: null });

    const events: string[] = [];
    const off = server.ctx.live.onEvent((e) => events.push(e.topic));
    const res = await release('admin', table.id);
    off();
    expect(res.status).toBe(200);
    expect(res.body.table).toMatchObject({
      id: table.id,
      number: 30,
      status: 'libre',
      waiterId: null,
      waiterName: null,
      currentOrderId: null,
      order: null,
    });
    expect(events).toContain('tables');

    const stored = await db().selectFrom('tables').selectAll().where('id', '=', table.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: 'libre', waiter_id: null, waiter_name: null, current_order_id: null });
    const audits = await releasedAudits(table.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor_id: server.users.admin.id, entity: 'table' });
    expect(JSON.parse(audits[0]!.data ?? '{}')).toMatchObject({ number: 30, waiterId: server.users.waiter.id, currentOrderId: order.id });

    // Usable again: the waiter opens it like any free table.
    const again = await api.waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`);
    expect(again.status).toBe(200);
    expect(again.body.order).toMatchObject({ tableId: table.id, status: 'activo' });
  });

  it('refuses a table whose order is still activo, and a table that is already free, changing nothing', async () => {
    const created = (await api.admin.post<{ table: Table }>('/api/tables', { number: 31 })).body.table;
    const free = await release('admin', created.id);
    expect(free.status).toBe(409);
    expect(free.body.error.message).toBe('La mesa ya está libre');

    const order = (await api.waiter.post<{ order: Order }>(`/api/tables/${created.id}/open`)).body.order;
    const busy = await release('admin', created.id);
    expect(busy.status).toBe(409);
    expect(busy.body.error.message).toBe('La mesa tiene una orden activa: cóbrala antes de liberar la mesa');
    expect(await tableOf(31)).toMatchObject({ status: 'ocupada', currentOrderId: order.id });
    expect((await db().selectFrom('orders').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status).toBe('activo');
    expect(await releasedAudits(created.id)).toHaveLength(0);
  });

  it('answers 404 for an unknown table and 400 for a malformed id', async () => {
    const missing = await release('admin', '0190d3a4-0000-7000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Mesa no encontrada');
    expect((await api.admin.post('/api/tables/a%20b/release')).status).toBe(400);
  });

  it('lets only the admin release a table', async () => {
    const { table } = await orphan(32);
    for (const [who, status] of [
      ['anonymous', 401],
      ['kitchen', 403],
      ['barra', 403],
      ['waiter', 403],
    ] as const) {
      expect((await release(who, table.id)).status, who).toBe(status);
    }
    expect(await tableOf(32)).toMatchObject({ status: 'ocupada' });
    expect(await releasedAudits(table.id)).toHaveLength(0);
    expect((await release('admin', table.id)).status).toBe(200);
  });

  it('lets exactly one of several simultaneous releases through', async () => {
    const { table } = await orphan(33);
    const results = await Promise.all(Array.from({ length: 6 }, () => release('admin', table.id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    expect(await releasedAudits(table.id)).toHaveLength(1);
    await assertInvariants(server.ctx.db);
  });
});
