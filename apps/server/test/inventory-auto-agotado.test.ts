import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insumo, LiveEvent, Order, Product, RecipesResponse, Table } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { inventoryWorker } from '../src/features/inventory/service.ts';
import { mayHear } from '../src/live/topic-rights.ts';

type Err = { error: { code: string; message: string } };

/** Agotado by the inventory: an opted-in drink goes agotado when the barra cannot make it, and comes back with stock. */
describe.each(testDatabaseKinds())('auto-agotado on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let barra: ApiClient;
  let tequila: Insumo;
  let margarita: string;
  let paloma: string;
  let nextTable = 900;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    barra = await server.login(server.users.barra.email);
    tequila = (
      await admin.post<{ insumo: Insumo }>('/api/inventory/insumos', {
        name: 'Tequila auto',
        unit: 'ml',
        presentations: [{ name: 'Botella 750 ml', content: 750, tareG: 520, densityMgPerMl: 950 }],
      })
    ).body.insumo;
    const product = async (name: string) =>
      (await admin.post<{ product: { id: string } }>('/api/products', { name, price: 120_00, category: 'Bebida' })).body.product.id;
    margarita = await product('Margarita auto');
    paloma = await product('Paloma auto');
    // Only the margarita is opted in; both pour 60 ml.
    const set = await admin.put<RecipesResponse>(`/api/inventory/recipes/products/${margarita}`, {
      items: [{ insumoId: tequila.id, amount: 60 }],
      autoAgotado: true,
    });
    expect(set.status).toBe(200);
    expect(set.body.products.find((p) => p.productId === margarita)).toMatchObject({ autoAgotado: true });
    await admin.put(`/api/inventory/recipes/products/${paloma}`, { items: [{ insumoId: tequila.id, amount: 60 }] });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const available = async (id: string) =>
    (await server.ctx.db.db.selectFrom('products').select('available').where('id', '=', id).executeTakeFirstOrThrow()).available === 1;
  const fresh = async (): Promise<Order> => {
    const t = await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ });
    return (await waiter.post<{ order: Order }>(`/api/tables/${t.body.table.id}/open`)).body.order;
  };
  const add = (orderId: string, productId: string, quantity: number) =>
    waiter.post<{ order: Order } | Err>(`/api/orders/${orderId}/items`, { productId, quantity });
  const flush = () => inventoryWorker(server.ctx)!.flush();
  const productEvents = async (work: () => Promise<unknown>) => {
    const events: LiveEvent[] = [];
    const off = server.ctx.live.onEvent((e) => {
      if (e.topic === 'products') events.push(e);
    });
    try {
      await work();
    } finally {
      off();
    }
    return events;
  };

  it('marks an opted-in product agotado as soon as the barra is short, live, and never a product not opted in', async () => {
    // Opting in with an empty barra marks it at once.
    expect(await available(margarita)).toBe(false);
    expect(await available(paloma)).toBe(true);
    // 130 ml into the barra: two margaritas' worth, and it comes back with its event.
    const events = await productEvents(() =>
      admin.post('/api/inventory/purchases', {
        warehouseId: 'barra',
        lines: [{ presentationId: tequila.presentations[0]!.id, units: 1, unitCostCents: 300_00 }],
      }),
    );
    expect(await available(margarita)).toBe(true);
    expect(events.map((e) => [e.type, e.id])).toEqual([['product.updated', margarita]]);
    await admin.post('/api/inventory/merma', { insumoId: tequila.id, qty: 620, reason: 'Botella rota' });
    // 130 ml left: the night sells two, then the barra cannot make a third.
    const order = await fresh();
    const marked = await productEvents(async () => {
      expect((await add(order.id, margarita, 2)).status).toBe(200);
      await flush();
    });
    expect(await available(margarita)).toBe(false);
    expect(marked.map((e) => [e.type, e.id])).toEqual([['product.updated', margarita]]);
    const audit = await server.ctx.db.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', margarita)
      .where('action', '=', 'product.availability')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.actor_id).toBeNull();
    expect(JSON.parse(audit.data ?? '{}')).toMatchObject({ available: false, byInventory: true, makeable: 0 });
    // The paloma, not opted in, keeps selling past the stock: selling is never refused for the ledger.
    expect((await add(order.id, paloma, 3)).status).toBe(200);
    await flush();
    expect(await available(paloma)).toBe(true);
    const stock = (await admin.get<{ insumos: Insumo[] }>('/api/inventory/insumos')).body.insumos.find((i) => i.id === tequila.id)!;
    expect(stock.stock.barra).toBe(130 - 120 - 180);
  });

  it('gives it back after a transfer or a count makes one again, and leaves a person’s choice alone', async () => {
    await admin.post('/api/inventory/purchases', {
      lines: [{ presentationId: tequila.presentations[0]!.id, units: 2, unitCostCents: 300_00 }],
    });
    expect(await available(margarita)).toBe(false);
    await admin.post('/api/inventory/transfers', { lines: [{ insumoId: tequila.id, qty: 200 }] });
    // −170 + 200 = 30 ml: still short of one margarita.
    expect(await available(margarita)).toBe(false);
    await barra.post('/api/inventory/counts', {
      lines: [{ insumoId: tequila.id, open: [{ presentationId: tequila.presentations[0]!.id, grossG: 520 + 95 }] }],
    });
    // The weighed bottle holds 100 ml: one margarita again.
    expect(await available(margarita)).toBe(true);
    // Someone switches it agotado by hand: the stock never switches it back.
    expect((await barra.patch(`/api/products/${margarita}/availability`, { available: false })).status).toBe(200);
    await admin.post('/api/inventory/transfers', { lines: [{ insumoId: tequila.id, qty: 300 }] });
    expect(await available(margarita)).toBe(false);
    expect((await barra.patch(`/api/products/${margarita}/availability`, { available: true })).status).toBe(200);
    // Short again: marked; someone switches it back on anyway; the next sale leaves it on.
    await admin.post('/api/inventory/merma', { insumoId: tequila.id, qty: 370, reason: 'Derrame' });
    expect(await available(margarita)).toBe(false);
    expect((await barra.patch(`/api/products/${margarita}/availability`, { available: true })).status).toBe(200);
    const order = await fresh();
    expect((await add(order.id, margarita, 1)).status).toBe(200);
    await flush();
    expect(await available(margarita)).toBe(true);
    // Opted out: the inventory no longer touches it.
    await admin.put(`/api/inventory/recipes/products/${margarita}`, { items: [{ insumoId: tequila.id, amount: 60 }], autoAgotado: false });
    const recipes = (await admin.get<RecipesResponse>('/api/inventory/recipes')).body;
    expect(recipes.products.find((p) => p.productId === margarita)).toMatchObject({ autoAgotado: false });
    const products = (await admin.get<{ products: Product[] }>('/api/products')).body.products;
    expect(products.find((p) => p.id === margarita)?.available).toBe(true);
  });

  it('tells the inventory screens after each write and each posting of sales; only the admin and the bar hear it', async () => {
    const heard = async (work: () => Promise<unknown>) => {
      const events: LiveEvent[] = [];
      const off = server.ctx.live.onEvent((e) => {
        if (e.topic === 'inventory') events.push(e);
      });
      try {
        await work();
      } finally {
        off();
      }
      return events.map((e) => e.type);
    };
    expect(await heard(() => admin.post('/api/inventory/merma', { insumoId: tequila.id, qty: 1, reason: 'Derrame' }))).toEqual([
      'inventory.changed',
    ]);
    const order = await fresh();
    expect(
      await heard(async () => {
        await add(order.id, paloma, 1);
        await flush();
      }),
    ).toContain('inventory.changed');
    expect([mayHear('admin', 'inventory'), mayHear('barra', 'inventory'), mayHear('waiter', 'inventory')]).toEqual([true, true, false]);
  });
});
