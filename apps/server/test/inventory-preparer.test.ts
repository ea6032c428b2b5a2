import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table, VarianceResponse } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { postSales } from '../src/features/inventory/sales-posting.ts';
import { stopInventory } from '../src/features/inventory/service.ts';
import { varianceXlsx } from '../src/features/inventory/variance-xlsx.ts';
import { newId } from '../src/http/ids.ts';

/**
 * Diferencias per bartender: each sale line's theory goes to whoever marked it listo last on the
 * board (the audit trail), lines never marked listo to "Sin preparar registrado".
 */
describe.each(testDatabaseKinds())('inventory variance per preparer on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let barra1: ApiClient;
  let barra2: ApiClient;
  let productId: string;
  let nextTable = 950;
  const ron = newId();
  const second = { id: newId(), email: `barra2-${newId()}@example.com`, name: 'Bartender Dos' };
  const db = () => server.ctx.db.db;

  beforeAll(async () => {
    server = await startTestServer(kind);
    await stopInventory(server.ctx);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    barra1 = await server.login(server.users.barra.email);
    // A second bar user with the demo bartender's password.
    const first = await db().selectFrom('users').selectAll().where('id', '=', server.users.barra.id).executeTakeFirstOrThrow();
    await db()
      .insertInto('users')
      .values({ ...first, id: second.id, email: second.email, display_name: second.name, pin_hash: null })
      .execute();
    barra2 = await server.login(second.email);
    productId = (
      await admin.post<{ product: { id: string } }>('/api/products', { name: 'Cuba preparada', price: 95_00, category: 'Bebida' })
    ).body.product.id;
    const now = Date.now();
    // $300.00 the 750 ml bottle: 45 ml cost $18.00 exactly.
    await db()
      .insertInto('insumos')
      .values({
        id: ron,
        name: 'Ron preparador',
        unit: 'ml',
        min_stock: 0,
        pour_size: 45,
        last_cost_cents: 300_00,
        last_cost_content: 750,
        active: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    expect((await admin.put(`/api/inventory/recipes/products/${productId}`, { items: [{ insumoId: ron, amount: 45 }] })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const add = async (quantity: number) => {
    const t = await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ });
    const order = (await waiter.post<{ order: Order }>(`/api/tables/${t.body.table.id}/open`)).body.order;
    const res = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId, quantity });
    expect(res.status).toBe(200);
    const item = res.body.order.items.at(-1)!;
    expect(item.station).toBe('barra');
    return { orderId: order.id, itemId: item.id };
  };
  const move = async (who: ApiClient, line: { orderId: string; itemId: string }, status: string) => {
    const res = await who.patch(`/api/orders/${line.orderId}/items/${line.itemId}/status`, { status });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('splits the theory by who marked each line listo last; the unmarked lines apart; the xlsx has the sheet', async () => {
    const a = await add(2);
    const b = await add(3);
    const c = await add(1);
    const d = await add(4);
    await move(barra1, a, 'listo');
    await move(barra2, a, 'entregado');
    await move(barra2, b, 'listo');
    // Started but never marked listo.
    await move(barra1, c, 'en_preparacion');
    // Listo, sent back, listo again by the other bartender: the last one prepared it.
    await move(barra1, d, 'listo');
    await move(barra1, d, 'pendiente');
    await move(barra2, d, 'listo');
    while ((await postSales(server.ctx.db, server.ctx.clock.now())) >= 500);

    // Business days around now, whatever the hour the test runs at (the shift closes at 03:00).
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const res = await admin.get<VarianceResponse>(`/api/inventory/variance?from=${day(-2)}&to=${day(1)}`);
    expect(res.status).toBe(200);
    const ours = res.body.byPreparer.map((p) => ({ ...p, items: p.items.filter((i) => i.insumoId === ron) }));
    expect(ours).toEqual([
      // b + d: 7 × 45 ml = 315 ml, 7 pours, 7 × $18.00.
      {
        basis: 'theoretical',
        preparerId: second.id,
        preparerName: second.name,
        station: 'barra',
        pourTenths: 70,
        costCents: 126_00,
        items: [{ insumoId: ron, name: 'Ron preparador', unit: 'ml', theoretical: 315 }],
      },
      // a: 2 × 45 ml.
      {
        basis: 'theoretical',
        preparerId: server.users.barra.id,
        preparerName: server.users.barra.displayName,
        station: 'barra',
        pourTenths: 20,
        costCents: 36_00,
        items: [{ insumoId: ron, name: 'Ron preparador', unit: 'ml', theoretical: 90 }],
      },
      // c: 1 × 45 ml, never marked listo.
      {
        basis: 'theoretical',
        preparerId: null,
        preparerName: 'Sin preparar registrado',
        station: 'barra',
        pourTenths: 10,
        costCents: 18_00,
        items: [{ insumoId: ron, name: 'Ron preparador', unit: 'ml', theoretical: 45 }],
      },
    ]);
    // The per-waiter theory of the same lines is the same sum.
    const mine = res.body.byWaiter.find((w) => w.waiterName === server.users.waiter.displayName)!;
    expect(mine.costCents).toBe(180_00);

    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await varianceXlsx(res.body, 'Diferencias')) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Por bartender (teórico)')!;
    const values = sheet
      .getSheetValues()
      .slice(2)
      .map((r) => (r as unknown[]).slice(1, 7));
    expect(values).toEqual([
      [second.name, 'barra', 'Total', '', 7, 126],
      [second.name, 'barra', 'Ron preparador', '315 ml', '', ''],
      [server.users.barra.displayName, 'barra', 'Total', '', 2, 36],
      [server.users.barra.displayName, 'barra', 'Ron preparador', '90 ml', '', ''],
      ['Sin preparar registrado', 'barra', 'Total', '', 1, 18],
      ['Sin preparar registrado', 'barra', 'Ron preparador', '45 ml', '', ''],
    ]);
  });
});
