import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { insertOrder, insertOrderItems, orderItemRow } from '../src/testing/factories.ts';

type Err = { error: { message: string } };
const body = (over: Record<string, unknown> = {}) => ({
  name: 'Tostada de atún',
  description: 'Con chipotle',
  price: 14_500,
  category: 'Entrada',
  ...over,
});

describe.each(testDatabaseKinds())('products on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  beforeAll(async () => {
    server = await startTestServer(kind, { checkInvariants: false /* a past paid order is inserted directly */ });
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lets every signed-in role read the catalogue sorted by name, and nobody anonymous', async () => {
    for (const key of ['admin', 'waiter', 'kitchen', 'barra'] as const) {
      const api = await server.login(server.users[key].email);
      const res = await api.get<{ products: Product[] }>('/api/products');
      expect(res.status).toBe(200);
      expect(res.body.products.length).toBeGreaterThanOrEqual(17);
    }
    const res = await waiter.get<{ products: Product[] }>('/api/products');
    const names = res.body.products.map((p) => p.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'es-MX', { sensitivity: 'base' })));
    expect((await server.anonymous().get('/api/products')).status).toBe(401);
  });

  it('creates, updates and deletes as admin with prices in centavos and an audit trail', async () => {
    const created = await admin.post<{ product: Product }>('/api/products', body({ imageUrl: 'https://example.com/a.png' }));
    expect(created.status).toBe(201);
    const product = created.body.product;
    expect(product).toMatchObject({
      name: 'Tostada de atún',
      price: 14_500,
      category: 'Entrada',
      available: true,
      imageUrl: 'https://example.com/a.png',
    });

    const updated = await admin.put<{ product: Product }>(
      `/api/products/${product.id}`,
      body({ name: 'Tostada de atún fresco', price: 15_050, imageUrl: '' }),
    );
    expect(updated.status).toBe(200);
    expect(updated.body.product).toMatchObject({ name: 'Tostada de atún fresco', price: 15_050, imageUrl: null });

    const list = await waiter.get<{ products: Product[] }>('/api/products');
    expect(list.body.products.find((p) => p.id === product.id)?.price).toBe(15_050);

    expect((await admin.delete(`/api/products/${product.id}`)).status).toBe(200);
    expect((await admin.delete<Err>(`/api/products/${product.id}`)).body.error.message).toBe('Producto no encontrado');
    const actions = await server.ctx.db.db.selectFrom('audit_log').select('action').where('entity_id', '=', product.id).execute();
    expect(actions.map((a) => a.action).sort()).toEqual(['product.create', 'product.delete', 'product.update']);
  });

  it('refuses writes from every role but admin (a station marks only its own products agotado)', async () => {
    const all = (await waiter.get<{ products: Product[] }>('/api/products')).body.products;
    const target = all[0]!;
    const otherStation = {
      waiter: target,
      kitchen: all.find((p) => p.category === 'Bebida')!,
      barra: all.find((p) => p.category === 'Comida')!,
    };
    for (const key of ['waiter', 'kitchen', 'barra'] as const) {
      const api = await server.login(server.users[key].email);
      expect((await api.post('/api/products', body())).status).toBe(403);
      expect((await api.put(`/api/products/${target.id}`, body())).status).toBe(403);
      expect((await api.patch(`/api/products/${otherStation[key].id}/availability`, { available: false })).status).toBe(403);
      expect((await api.delete(`/api/products/${target.id}`)).status).toBe(403);
    }
    expect((await server.anonymous().post('/api/products', body())).status).toBe(401);
  });

  it("answers 'Nombre y precio requeridos' for an empty name, a missing price or a zero price", async () => {
    for (const bad of [
      body({ name: '' }),
      body({ name: '   ' }),
      body({ price: 0 }),
      { name: 'Sin precio', category: 'Comida' },
      body({ price: null }),
    ]) {
      const res = await admin.post<Err>('/api/products', bad);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Nombre y precio requeridos');
    }
  });

  it('refuses extra fields, fractional centavos, unknown categories and bad image URLs', async () => {
    for (const bad of [
      body({ id: 'x' }),
      body({ createdAt: 1 }),
      body({ price: 10.5 }),
      body({ category: 'Tacos' }),
      body({ imageUrl: 'javascript:alert(1)' }),
    ]) {
      const res = await admin.post<Err>('/api/products', bad);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/\S/);
    }
  });

  it('hides an unavailable product from ?available=1 and shows it again', async () => {
    const { product } = (
      await admin.post<{ product: Product }>('/api/products', body({ name: 'Mezcal de temporada', category: 'Shot', price: 9_000 }))
    ).body;
    const off = await admin.patch<{ product: Product }>(`/api/products/${product.id}/availability`, { available: false });
    expect(off.body.product.available).toBe(false);
    const offered = async () =>
      (await waiter.get<{ products: Product[] }>('/api/products?available=1')).body.products.some((p) => p.id === product.id);
    expect(await offered()).toBe(false);
    expect((await waiter.get<{ products: Product[] }>('/api/products')).body.products.some((p) => p.id === product.id)).toBe(true);
    await admin.patch(`/api/products/${product.id}/availability`, { available: true });
    expect(await offered()).toBe(true);
    expect((await admin.patch(`/api/products/${product.id}/availability`, { available: true, price: 1 })).status).toBe(400);
  });

  it('publishes a products event after each change', async () => {
    const seen: string[] = [];
    const stop = server.ctx.live.onEvent((e) => {
      if (e.topic === 'products') seen.push(e.type);
    });
    const { product } = (
      await admin.post<{ product: Product }>('/api/products', body({ name: 'Agua mineral', category: 'Bebida', price: 3_500 }))
    ).body;
    await admin.put(`/api/products/${product.id}`, body({ name: 'Agua mineral 600 ml', category: 'Bebida', price: 3_500 }));
    await admin.delete(`/api/products/${product.id}`);
    await admin.post('/api/products', body({ price: 0 }));
    stop();
    expect(seen).toEqual(['product.created', 'product.updated', 'product.deleted']);
  });

  it('never changes past orders when a product is deleted', async () => {
    const { product } = (
      await admin.post<{ product: Product }>('/api/products', body({ name: 'Taco de temporada', category: 'Comida', price: 4_200 }))
    ).body;
    // A past order that copied the product's name and price when it was taken.
    const db = server.ctx.db.db;
    const table = await db.selectFrom('tables').select(['id', 'number']).where('number', '=', 3).executeTakeFirstOrThrow();
    const now = server.ctx.clock.now();
    const orderId = `past-${kind}`;
    await insertOrder(db, table, null, {
      id: orderId,
      waiter_name: 'Mesero',
      status: 'pagado',
      payment_method: 'efectivo',
      subtotal: 8_400,
      total: 8_400,
      created_at: now,
      completed_at: now,
    });
    await insertOrderItems(db, [orderItemRow(orderId, product, { id: `item-${kind}`, quantity: 2, created_at: now })]);

    expect((await admin.delete(`/api/products/${product.id}`)).status).toBe(200);

    const item = await db.selectFrom('order_items').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(item).toMatchObject({ product_id: product.id, product_name: 'Taco de temporada', product_price: 4_200, quantity: 2 });
    const order = await db.selectFrom('orders').select(['subtotal', 'total']).where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order).toEqual({ subtotal: 8_400, total: 8_400 });
  });
});
