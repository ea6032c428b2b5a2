import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuConfig, Order, Product, Table, TopSellersResponse } from '@comanda/contract';
import { CATEGORIES, slotAt } from '@comanda/domain';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';

type Err = { error: { code: string; message: string } };
type Who = 'admin' | 'waiter' | 'kitchen' | 'barra';

/** Issue #17 items 2 and 3: agotado in one tap from the boards, and what the faster picker reads. */
describe.each(testDatabaseKinds())('menu and picker on %s', (kind) => {
  let server: TestServer;
  const api = {} as Record<Who, ApiClient>;
  let products: Product[];
  let nextNumber = 310;
  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const who of ['admin', 'waiter', 'kitchen', 'barra'] as const) api[who] = await server.login(server.users[who].email);
    products = (await api.admin.get<{ products: Product[] }>('/api/products')).body.products;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });
  const product = (name: string) => products.find((p) => p.name === name)!;
  const setAvailable = (who: Who, id: string, available: boolean) =>
    api[who].patch<{ product: Product } & Err>(`/api/products/${id}/availability`, { available });
  const freshOrder = async (): Promise<Order> => {
    const number = nextNumber++;
    const created = await api.admin.post<{ table: Table }>('/api/tables', { number });
    expect(created.status).toBe(200);
    const opened = await api.waiter.post<{ order: Order }>(`/api/tables/${created.body.table.id}/open`);
    expect(opened.status).toBe(200);
    return opened.body.order;
  };
  // Notes of its own, so each add is a row (a pending line of the same product would take the unit).
  let n = 0;
  const add = (orderId: string, productId: string) =>
    api.waiter.post<{ order: Order } & Err>(`/api/orders/${orderId}/items`, { productId, quantity: 1, notes: `${++n}` });

  it('lets the kitchen mark only kitchen products agotado, the bar only bar products, with an audit row', async () => {
    const tacos = product('Tacos al pastor (3)');
    const beer = product('Cerveza clara');
    const kitchenTacos = await setAvailable('kitchen', tacos.id, false);
    expect(kitchenTacos.status).toBe(200);
    expect(kitchenTacos.body.product.available).toBe(false);
    const kitchenBeer = await setAvailable('kitchen', beer.id, false);
    expect(kitchenBeer.status).toBe(403);
    expect(kitchenBeer.body.error.message).toBe('Solo puedes marcar agotados los productos de tu estación');
    expect((await setAvailable('barra', tacos.id, true)).status).toBe(403);
    expect((await setAvailable('barra', beer.id, false)).status).toBe(200);
    expect((await setAvailable('waiter', beer.id, true)).status).toBe(403);
    expect((await setAvailable('admin', beer.id, true)).status).toBe(200);
    expect((await setAvailable('kitchen', tacos.id, true)).status).toBe(200);
    const rows = await server.ctx.db.db
      .selectFrom('audit_log')
      .select(['actor_id', 'entity_id'])
      .where('action', '=', 'product.availability')
      .execute();
    expect(rows.filter((r) => r.entity_id === tacos.id).map((r) => r.actor_id)).toEqual([server.users.kitchen.id, server.users.kitchen.id]);
    // A refused mark wrote nothing.
    expect(rows.filter((r) => r.entity_id === beer.id)).toHaveLength(2);
    expect((await api.admin.get<{ products: Product[] }>('/api/products')).body.products.every((p) => p.available)).toBe(true);
  });

  it('refuses adding or repeating a product marked agotado with a 409 that names it', async () => {
    const order = await freshOrder();
    const flan = product('Flan napolitano');
    const first = await add(order.id, flan.id);
    expect(first.status).toBe(200);
    expect((await setAvailable('kitchen', flan.id, false)).status).toBe(200);
    const refused = await add(order.id, flan.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({ code: 'product_unavailable', message: 'Flan napolitano está agotado. Elige otro producto.' });
    const itemId = first.body.order.items[0]!.id;
    const units = await api.waiter.post<Err>(`/api/orders/${order.id}/items/${itemId}/units`, { quantity: 1 });
    expect(units.status).toBe(409);
    expect(units.body.error.message).toBe('Flan napolitano está agotado. Elige otro producto.');
    expect((await setAvailable('kitchen', flan.id, true)).status).toBe(200);
    expect((await add(order.id, flan.id)).status).toBe(200);
  });

  it('races agotado against adds: every add gets one clear answer and the rows match the answers', async () => {
    const churros = product('Churros con cajeta');
    for (let round = 0; round < 6; round++) {
      const order = await freshOrder();
      const adds = Array.from({ length: 4 }, () => add(order.id, churros.id));
      const mark = setAvailable('kitchen', churros.id, false);
      const answers = await Promise.all(adds);
      expect((await mark).status).toBe(200);
      for (const a of answers) {
        expect([200, 409]).toContain(a.status);
        if (a.status === 409) expect(a.body.error.message).toBe('Churros con cajeta está agotado. Elige otro producto.');
      }
      const added = answers.filter((a) => a.status === 200).length;
      const rows = await server.ctx.db.db.selectFrom('order_items').select('id').where('order_id', '=', order.id).execute();
      expect(rows).toHaveLength(added);
      const audits = await server.ctx.db.db
        .selectFrom('audit_log')
        .select('id')
        .where('entity_id', '=', order.id)
        .where('action', '=', 'order.item-added')
        .execute();
      expect(audits).toHaveLength(added);
      // Once the mark has answered, no add gets through.
      expect((await add(order.id, churros.id)).status).toBe(409);
      expect(await server.ctx.db.db.selectFrom('order_items').select('id').where('order_id', '=', order.id).execute()).toHaveLength(added);
      expect((await setAvailable('kitchen', churros.id, true)).status).toBe(200);
    }
  });

  it('serves the most sold available products of the last 7 days, most units first', async () => {
    const now = server.ctx.clock.now();
    const tz = (await api.admin.get<{ timezone: string }>('/api/config/general')).body.timezone;
    const recent = slotAt(now - 2 * 60 * 60 * 1000, tz);
    const old = slotAt(now - 9 * 24 * 60 * 60 * 1000, tz);
    const row = (slot: number, name: string, units: number) => {
      const p = product(name);
      return { slot, product_id: p.id, product_name: p.name, category: p.category, units, amount: units * p.price };
    };
    await server.ctx.db.db
      .insertInto('report_products')
      .values([
        row(recent, 'Cerveza clara', 30),
        row(recent, 'Tacos al pastor (3)', 12),
        row(recent, 'Margarita', 20),
        row(old, 'Queso fundido', 500),
        row(recent, 'Michelada', 25),
      ])
      .execute();
    expect((await setAvailable('admin', product('Michelada').id, false)).status).toBe(200);
    const res = await api.waiter.get<TopSellersResponse>('/api/products/top-sellers');
    expect(res.status).toBe(200);
    expect(res.body.productIds).toEqual([product('Cerveza clara').id, product('Margarita').id, product('Tacos al pastor (3)').id]);
    expect((await setAvailable('admin', product('Michelada').id, true)).status).toBe(200);
    expect((await api.waiter.get<TopSellersResponse>('/api/products/top-sellers')).body.productIds[1]).toBe(product('Michelada').id);
    expect((await api.kitchen.get('/api/products/top-sellers')).status).toBe(403);
  });

  it('keeps the admin order of categories, refusing a list that misses or repeats one', async () => {
    expect((await api.waiter.get<MenuConfig>('/api/config/menu')).body.categoryOrder).toEqual([...CATEGORIES]);
    const barFirst = ['Bebida', 'Shot', 'Botella', 'Entrada', 'Comida', 'Postre', 'Servicio'];
    const saved = await api.admin.put<MenuConfig>('/api/config/menu', { categoryOrder: barFirst });
    expect(saved.status).toBe(200);
    expect(saved.body.categoryOrder).toEqual(barFirst);
    expect((await api.waiter.get<MenuConfig>('/api/config/menu')).body.categoryOrder).toEqual(barFirst);
    const missing = await api.admin.put<Err>('/api/config/menu', { categoryOrder: barFirst.slice(1) });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('El orden debe incluir cada categoría una sola vez');
    expect((await api.admin.put('/api/config/menu', { categoryOrder: [...barFirst.slice(1), 'Shot'] })).status).toBe(400);
    expect((await api.waiter.put('/api/config/menu', { categoryOrder: barFirst })).status).toBe(403);
    const audit = await server.ctx.db.db.selectFrom('audit_log').select('data').where('action', '=', 'config.menu.update').execute();
    expect(audit).toHaveLength(1);
  });
});
