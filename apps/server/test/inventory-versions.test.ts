import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insumo, ModifierGroup, Order, Table, VarianceResponse } from '@comanda/contract';
import { DEFAULT_VOID_REASONS } from '@comanda/domain';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { postSales } from '../src/features/inventory/sales-posting.ts';
import { stopInventory } from '../src/features/inventory/service.ts';

/**
 * The past of the ledger never moves: a line consumes the recipe version in force when it was
 * added, however late the worker gets to it; comps are posted as comps (a comp after the sale is a
 * reclassification that keeps the sum); the variance is per station's warehouse and per waiter.
 */
describe.each(testDatabaseKinds())('inventory recipe versions and comps on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let tequila: Insumo;
  let margaritaId: string;
  let group: ModifierGroup;
  let nextTable = 900;
  const db = () => server.ctx.db.db;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    server = await startTestServer(kind);
    // The worker runs only when the test says: "before the worker runs" is then certain.
    await stopInventory(server.ctx);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    tequila = (
      await admin.post<{ insumo: Insumo }>('/api/inventory/insumos', {
        name: 'Tequila versiones',
        unit: 'ml',
        pourSize: 45,
        presentations: [{ name: 'Botella 750 ml', content: 750, tareG: 520, densityMgPerMl: 950 }],
      })
    ).body.insumo;
    margaritaId = (
      await admin.post<{ product: { id: string } }>('/api/products', { name: 'Margarita versiones', price: 120_00, category: 'Bebida' })
    ).body.product.id;
    group = (
      await admin.post<{ group: ModifierGroup }>('/api/modifier-groups', {
        name: 'Tamaño versiones',
        minSelect: 0,
        maxSelect: 1,
        options: [{ name: 'Doble', priceDelta: 60_00 }],
        productIds: [margaritaId],
      })
    ).body.group;
    await setRecipe(60, 60);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const setRecipe = async (product: number, doble: number) => {
    const p = await admin.put(`/api/inventory/recipes/products/${margaritaId}`, { items: [{ insumoId: tequila.id, amount: product }] });
    expect(p.status).toBe(200);
    const o = await admin.put(`/api/inventory/recipes/options/${group.options[0]!.id}`, {
      items: [{ insumoId: tequila.id, amount: doble }],
    });
    expect(o.status).toBe(200);
  };
  const post = async () => {
    while ((await postSales(server.ctx.db, server.ctx.clock.now())) >= 500);
  };
  const fresh = async (): Promise<Order> => {
    const t = await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ });
    return (await waiter.post<{ order: Order }>(`/api/tables/${t.body.table.id}/open`)).body.order;
  };
  const add = async (orderId: string, quantity: number, doble = false) => {
    const res = await waiter.post<{ order: Order }>(`/api/orders/${orderId}/items`, {
      productId: margaritaId,
      quantity,
      ...(doble ? { optionIds: [group.options[0]!.id] } : {}),
    });
    expect(res.status).toBe(200);
    return res.body.order.items.at(-1)!;
  };
  const lineMoves = async (lineId: string) =>
    (await db().selectFrom('stock_movements').select(['kind', 'qty', 'warehouse_id']).where('line_id', '=', lineId).execute()).map((r) => ({
      kind: r.kind,
      qty: Number(r.qty),
    }));
  const sumOf = (moves: { kind: string; qty: number }[], kind?: string) =>
    moves.filter((m) => !kind || m.kind === kind).reduce((a, m) => a + m.qty, 0);

  it('a recipe edited right after an add, before the worker runs, leaves that line on the old amounts', async () => {
    const order = await fresh();
    const before = await add(order.id, 2, true);
    // The next request of the owner: a heavier margarita and a lighter doble.
    await sleep(5);
    await setRecipe(90, 45);
    // Another table's round (the same order would raise the pending line, which keeps its recipe).
    const after = await add((await fresh()).id, 1, true);
    await post();
    // 2 × (60 + 60) under the version in force at the add; 1 × (90 + 45) under the new one.
    expect(await lineMoves(before.id)).toEqual([{ kind: 'sale', qty: -240 }]);
    expect(await lineMoves(after.id)).toEqual([{ kind: 'sale', qty: -135 }]);
    const frozen = await db().selectFrom('inventory_lines').select('recipe').where('line_id', '=', before.id).executeTakeFirstOrThrow();
    expect(JSON.parse(frozen.recipe)).toEqual([{ insumoId: tequila.id, amount: 120 }]);
    // Versions are appended, never rewritten: two of the product so far (setup, this edit).
    const versions = await db().selectFrom('recipe_versions').select('effective_from').where('product_id', '=', margaritaId).execute();
    expect(versions).toHaveLength(2);
    await setRecipe(60, 60);
  });

  it('a comp after the sale was posted reclassifies it; removing the comp reclassifies it back; the sum never moves', async () => {
    const order = await fresh();
    const line = await add(order.id, 3);
    await post();
    expect(await lineMoves(line.id)).toEqual([{ kind: 'sale', qty: -180 }]);
    const comp = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/adjustments`, {
      kind: 'comp',
      scope: 'item',
      itemId: line.id,
      units: 1,
      reason: 'Cortesía de la casa',
      pin: server.users.admin.pin,
    });
    expect(comp.status).toBe(200);
    await post();
    await post();
    let moves = await lineMoves(line.id);
    expect(sumOf(moves)).toBe(-180);
    expect(sumOf(moves, 'comp')).toBe(-60);
    expect(sumOf(moves, 'sale')).toBe(-120);
    const adjustmentId = comp.body.order.adjustments!.find((a) => a.kind === 'comp')!.id;
    const removed = await waiter.delete(`/api/orders/${order.id}/adjustments/${adjustmentId}`, { pin: server.users.admin.pin });
    expect(removed.status).toBe(200);
    await post();
    moves = await lineMoves(line.id);
    expect(sumOf(moves)).toBe(-180);
    expect(sumOf(moves, 'comp')).toBe(0);
    expect(sumOf(moves, 'sale')).toBe(-180);
  });

  it('a whole-order comp before the worker sees the lines posts comps, not sales; a comped line voided before preparation comes back', async () => {
    const order = await fresh();
    const a = await add(order.id, 2);
    const b = await add(order.id, 1, true);
    const comp = await waiter.post(`/api/orders/${order.id}/adjustments`, {
      kind: 'comp',
      scope: 'order',
      reason: 'Cortesía de la casa',
      pin: server.users.admin.pin,
    });
    expect(comp.status).toBe(200);
    await post();
    expect(await lineMoves(a.id)).toEqual([{ kind: 'comp', qty: -120 }]);
    expect(await lineMoves(b.id)).toEqual([{ kind: 'comp', qty: -120 }]);
    const voided = await waiter.post(`/api/orders/${order.id}/items/${a.id}/void`, { quantity: 2, reason: DEFAULT_VOID_REASONS[0] });
    expect(voided.status).toBe(200);
    await post();
    expect(sumOf(await lineMoves(a.id))).toBe(0);
    // Poured and given away: the comp of the prepared line stays taken.
    expect(sumOf(await lineMoves(b.id))).toBe(-120);
  });

  it('the variance is real per station’s warehouse and theoretical per waiter, labelled apart', async () => {
    // The days around now: the default business day (17:00–03:00) leaves out a sale made at noon.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const res = await admin.get<VarianceResponse>(`/api/inventory/variance?from=${day(-2)}&to=${day(1)}`);
    expect(res.status).toBe(200);
    const barra = res.body.byStation.find((s) => s.station === 'barra')!;
    expect(barra).toMatchObject({ warehouseId: 'barra' });
    // Sales and comps above, no count yet: theoretical = sold by recipe, real = what left the shelf.
    const sold = await db()
      .selectFrom('stock_movements')
      .select((eb) => eb.fn.sum<number>('qty').as('qty'))
      .where('insumo_id', '=', tequila.id)
      .where('kind', 'in', ['sale', 'void_restore'])
      .executeTakeFirstOrThrow();
    const row = barra.rows.find((r) => r.insumoId === tequila.id)!;
    expect(row.theoretical).toBe(-Number(sold.qty));
    expect(res.body.byWaiter.every((w) => w.basis === 'theoretical')).toBe(true);
    const mine = res.body.byWaiter.find((w) => w.waiterName === server.users.waiter.displayName)!;
    expect(mine.items.find((i) => i.insumoId === tequila.id)!.theoretical).toBe(-Number(sold.qty));
  });
});
