import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { DEFAULT_VOID_REASONS } from '@comanda/domain';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { postSales } from '../src/features/inventory/sales-posting.ts';
import { newId } from '../src/http/ids.ts';

/** Sales into the stock ledger: once per line, the recipe frozen at first sight, voids before preparation given back. */
describe.each(testDatabaseKinds())('inventory sales posting on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let productId: string;
  let nextTable = 700;
  const db = () => server.ctx.db.db;
  const tequila = newId();
  const limon = newId();

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    const created = await admin.post<{ product: { id: string } }>('/api/products', {
      name: 'Caballito prueba',
      price: 90_00,
      category: 'Shot',
    });
    productId = created.body.product.id;
    const now = Date.now();
    await db()
      .insertInto('insumos')
      .values([
        {
          id: tequila,
          name: 'Tequila prueba',
          unit: 'ml',
          min_stock: 0,
          pour_size: 45,
          last_cost_cents: null,
          last_cost_content: null,
          active: 1,
          created_at: now,
          updated_at: now,
        },
        {
          id: limon,
          name: 'Limón prueba',
          unit: 'pieza',
          min_stock: 0,
          pour_size: null,
          last_cost_cents: null,
          last_cost_content: null,
          active: 1,
          created_at: now,
          updated_at: now,
        },
      ])
      .execute();
    await db()
      .insertInto('product_recipes')
      .values([
        { product_id: productId, insumo_id: tequila, amount: 45 },
        { product_id: productId, insumo_id: limon, amount: 250 },
      ])
      .execute();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const fresh = async (): Promise<Order> => {
    const t = await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ });
    const opened = await waiter.post<{ order: Order }>(`/api/tables/${t.body.table.id}/open`);
    return opened.body.order;
  };
  const seenIds = new Set<string>();
  const add = async (orderId: string, quantity: number) => {
    const res = await waiter.post<{ order: Order }>(`/api/orders/${orderId}/items`, { productId, quantity });
    expect(res.status).toBe(200);
    const item = res.body.order.items.find((i) => !seenIds.has(i.id) && !i.isDeleted)!;
    for (const i of res.body.order.items) seenIds.add(i.id);
    return item;
  };
  const stock = async (insumoId: string) => {
    const row = await db()
      .selectFrom('stock_movements')
      .select((eb) => eb.fn.sum<number>('qty').as('qty'))
      .where('insumo_id', '=', insumoId)
      .where('warehouse_id', '=', 'barra')
      .executeTakeFirst();
    return Number(row?.qty ?? 0);
  };
  const post = async () => {
    while ((await postSales(server.ctx.db, server.ctx.clock.now())) >= 500);
  };

  it('posts a sale per line once, however many workers run, and the recipe stays frozen', async () => {
    const before = await stock(tequila);
    const order = await fresh();
    const line = await add(order.id, 3);
    // Three posters at once (two processes and a restart): one sale per insumo.
    await Promise.allSettled([post(), post(), post()]);
    await post();
    const rows = await db().selectFrom('stock_movements').selectAll().where('line_id', '=', line.id).execute();
    expect(rows.map((r) => [r.kind, r.insumo_id, Number(r.qty)]).sort()).toEqual(
      [
        ['sale', limon, -750],
        ['sale', tequila, -135],
      ].sort(),
    );
    expect(await stock(tequila)).toBe(before - 135);
    // A later recipe edit never rewrites a line already seen.
    await db()
      .updateTable('product_recipes')
      .set({ amount: 60 })
      .where('product_id', '=', productId)
      .where('insumo_id', '=', tequila)
      .execute();
    await post();
    expect(await stock(tequila)).toBe(before - 135);
    await db()
      .updateTable('product_recipes')
      .set({ amount: 45 })
      .where('product_id', '=', productId)
      .where('insumo_id', '=', tequila)
      .execute();
  });

  it('gives back the units voided before preparation, and not those voided after', async () => {
    const before = await stock(tequila);
    const order = await fresh();
    const early = await add(order.id, 4);
    await post();
    expect(await stock(tequila)).toBe(before - 180);
    const reason = DEFAULT_VOID_REASONS[0]!;
    const partial = await waiter.post(`/api/orders/${order.id}/items/${early.id}/void`, { quantity: 1, reason });
    expect(partial.status).toBe(200);
    await post();
    expect(await stock(tequila)).toBe(before - 135);
    // Another unit of the same drink joins the line: one more sale.
    await add(order.id, 1);
    await post();
    expect(await stock(tequila)).toBe(before - 180);
    const other = await fresh();
    const late = await add(other.id, 2);
    const prepared = await admin.patch(`/api/orders/${other.id}/items/${late.id}/status`, { status: 'listo' });
    expect(prepared.status).toBe(200);
    const voided = await waiter.post(`/api/orders/${other.id}/items/${late.id}/void`, { quantity: 2, reason, pin: '1234' });
    expect(voided.status).toBe(200);
    await post();
    // The prepared drinks were poured: they stay out of the bottle.
    expect(await stock(tequila)).toBe(before - 180 - 90);
    // Added and voided before the worker looked: sold and given back.
    const third = await fresh();
    const quick = await add(third.id, 1);
    expect((await waiter.post(`/api/orders/${third.id}/items/${quick.id}/void`, { quantity: 1, reason })).status).toBe(200);
    await post();
    expect(await stock(tequila)).toBe(before - 180 - 90);
    const kinds = await db().selectFrom('stock_movements').select('kind').where('line_id', '=', quick.id).execute();
    expect(kinds.map((k) => k.kind).sort()).toEqual(['sale', 'sale', 'void_restore', 'void_restore']);
  });

  it('a crash between the line and its posting loses nothing: the next start posts it', async () => {
    await post();
    const before = await stock(tequila);
    const order = await fresh();
    await add(order.id, 2);
    // A transaction that fails half-way writes nothing; the next run posts the whole line.
    await expect(
      server.ctx.db.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('inventory_lines')
          .values({
            line_id: 'x',
            order_id: 'x',
            recipe: '[]',
            units: 0,
            step: 0,
            closed: 0,
            waiter_id: null,
            waiter_name: null,
            station: 'barra',
            comp_units: 0,
            sold_at: 0,
          })
          .execute();
        throw new Error('kill -9');
      }),
    ).rejects.toThrow('kill -9');
    await post();
    expect(await stock(tequila)).toBe(before - 90);
  });
});
