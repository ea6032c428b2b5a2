import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardItem, ModifierGroup, Order, Product, Table } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { orderItemRowCount } from '../src/testing/reads.ts';

type Err = { error: { code: string; message: string } };

/** Modifier groups (issue #17 item 1, decision 0026): the server checks every choice and prices every line. */
describe.each(testDatabaseKinds())('modifier groups on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let kitchen: ApiClient;
  let steak: Product;
  let termino: ModifierGroup;
  let extras: ModifierGroup;
  let nextTable = 300;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    kitchen = await server.login(server.users.kitchen.email);
    const created = await admin.post<{ product: Product }>('/api/products', { name: 'Arrachera', price: 250_00, category: 'Comida' });
    expect(created.status).toBe(201);
    steak = created.body.product;
    const t = await admin.post<{ group: ModifierGroup }>('/api/modifier-groups', {
      name: 'Término',
      minSelect: 1,
      maxSelect: 1,
      options: [{ name: 'Rojo' }, { name: 'Medio' }, { name: 'Tres cuartos' }, { name: 'Bien cocido' }],
      productIds: [steak.id],
    });
    expect(t.status).toBe(201);
    termino = t.body.group;
    const e = await admin.post<{ group: ModifierGroup }>('/api/modifier-groups', {
      name: 'Extras',
      minSelect: 0,
      maxSelect: 2,
      options: [
        { name: 'Queso', priceDelta: 20_00 },
        { name: 'Guacamole', priceDelta: 35_00 },
        { name: 'Cebollitas', priceDelta: 15_00 },
      ],
      categories: ['Comida'],
    });
    expect(e.status).toBe(201);
    extras = e.body.group;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const option = (g: ModifierGroup, name: string) => g.options.find((o) => o.name === name)!.id;
  const freshOrder = async (): Promise<Order> => {
    const created = await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ });
    expect(created.status).toBe(200);
    const opened = await waiter.post<{ order: Order }>(`/api/tables/${created.body.table.id}/open`);
    expect(opened.status).toBe(200);
    return opened.body.order;
  };
  const add = (orderId: string, body: unknown) => waiter.post<{ order: Order } & Err>(`/api/orders/${orderId}/items`, body);
  const itemCount = (orderId: string) => orderItemRowCount(server.ctx.db.db, orderId);

  it('lists the groups with their options and attachments for the waiter; the seed’s demo groups are optional', async () => {
    const res = await waiter.get<{ groups: ModifierGroup[] }>('/api/modifier-groups');
    expect(res.status).toBe(200);
    const names = res.body.groups.map((g) => g.name);
    expect(names).toEqual(expect.arrayContaining(['Preparación', 'Sin', 'Término', 'Extras']));
    expect(res.body.groups.find((g) => g.id === termino.id)).toMatchObject({
      minSelect: 1,
      maxSelect: 1,
      productIds: [steak.id],
      categories: [],
    });
    for (const g of res.body.groups.filter((g) => g.id !== termino.id)) expect(g.minSelect).toBe(0);
    expect((await kitchen.get('/api/modifier-groups')).status).toBe(403);
  });

  it('prices the line with its options and copies them onto the item', async () => {
    const order = await freshOrder();
    const res = await add(order.id, {
      productId: steak.id,
      quantity: 2,
      optionIds: [option(extras, 'Guacamole'), option(termino, 'Medio'), option(extras, 'Queso')],
    });
    expect(res.status).toBe(200);
    const item = res.body.order.items[0]!;
    expect(item.productPrice).toBe(250_00 + 20_00 + 35_00);
    // In the groups' order, whatever order the ids came in.
    expect(item.modifiers).toEqual([
      { groupName: 'Término', optionName: 'Medio', priceDelta: 0 },
      { groupName: 'Extras', optionName: 'Queso', priceDelta: 20_00 },
      { groupName: 'Extras', optionName: 'Guacamole', priceDelta: 35_00 },
    ]);
    expect(res.body.order.subtotal).toBe(2 * 305_00);

    // The same product with other options is another line; "+ unidad" keeps the line's options.
    const other = await add(order.id, { productId: steak.id, quantity: 1, optionIds: [option(termino, 'Rojo')] });
    expect(other.status).toBe(200);
    expect(other.body.order.items).toHaveLength(2);
    const units = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items/${item.id}/units`, { quantity: 1 });
    expect(units.status).toBe(200);
    // The line is still pending: the unit raises it, its options and price kept.
    const added = units.body.order.items.find((i) => i.id === item.id)!;
    expect(added).toMatchObject({ productPrice: 305_00, modifiers: item.modifiers, quantity: 3 });
    expect(units.body.order.subtotal).toBe(2 * 305_00 + 250_00 + 305_00);

    // A later change of an option's price never rewrites the line.
    const changed = await admin.put<{ group: ModifierGroup }>(`/api/modifier-groups/${extras.id}`, {
      name: 'Extras',
      minSelect: 0,
      maxSelect: 2,
      options: extras.options.map((o) => ({ id: o.id, name: o.name, priceDelta: o.priceDelta + 1_00, available: true })),
      categories: ['Comida'],
    });
    expect(changed.status).toBe(200);
    expect(changed.body.group.options.map((o) => o.id)).toEqual(extras.options.map((o) => o.id));
    const again = await waiter.get<{ order: Order }>(`/api/orders/${order.id}`);
    expect(again.body.order.items[0]!.productPrice).toBe(305_00);
    await admin.put(`/api/modifier-groups/${extras.id}`, {
      name: 'Extras',
      minSelect: 0,
      maxSelect: 2,
      options: extras.options.map((o) => ({ id: o.id, name: o.name, priceDelta: o.priceDelta, available: true })),
      categories: ['Comida'],
    });

    // The kitchen board shows the options with the line.
    const board = await kitchen.get<{ items: BoardItem[] }>('/api/board?station=cocina');
    const onBoard = board.body.items.find((i) => i.id === item.id)!;
    expect(onBoard.modifiers?.map((m) => m.optionName)).toEqual(['Medio', 'Queso', 'Guacamole']);
  });

  it('refuses a price from the client: the add body takes only product, quantity, notes and options', async () => {
    const order = await freshOrder();
    for (const extra of [{ productPrice: 1 }, { price: 1 }, { modifiers: [{ groupName: 'Término', optionName: 'Rojo', priceDelta: 0 }] }]) {
      const res = await add(order.id, { productId: steak.id, quantity: 1, optionIds: [option(termino, 'Rojo')], ...extra });
      expect(res.status).toBe(400);
    }
    expect(await itemCount(order.id)).toBe(0);
  });

  it('refuses a choice that breaks a group’s rules, with one clear message each', async () => {
    const order = await freshOrder();
    const cases: [unknown[], number, string][] = [
      [[], 400, 'Elige una opción de «Término»'],
      [[option(termino, 'Rojo'), option(termino, 'Medio')], 400, 'Elige solo una opción de «Término»'],
      [
        [option(termino, 'Rojo'), option(extras, 'Queso'), option(extras, 'Guacamole'), option(extras, 'Cebollitas')],
        400,
        'Elige como máximo 2 opciones de «Extras»',
      ],
    ];
    for (const [optionIds, status, message] of cases) {
      const res = await add(order.id, { productId: steak.id, quantity: 1, optionIds });
      expect(res.status).toBe(status);
      expect(res.body.error.message).toBe(message);
    }
    // An option of a group the product does not have (Preparación is on the beer).
    const groups = (await waiter.get<{ groups: ModifierGroup[] }>('/api/modifier-groups')).body.groups;
    const beerOption = groups.find((g) => g.name === 'Preparación')!.options[0]!.id;
    const foreign = await add(order.id, { productId: steak.id, quantity: 1, optionIds: [option(termino, 'Rojo'), beerOption] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.code).toBe('option_unknown');
    expect(await itemCount(order.id)).toBe(0);
  });

  it('gives one clear answer when an option is marked unavailable while a waiter adds it', async () => {
    const order = await freshOrder();
    const rojo = option(termino, 'Rojo');
    // Both at once: either the add went first (the line has the option) or it is refused by name.
    const [toggled, added] = await Promise.all([
      admin.patch<{ group: ModifierGroup }>(`/api/modifier-options/${rojo}/availability`, { available: false }),
      add(order.id, { productId: steak.id, quantity: 1, optionIds: [rojo] }),
    ]);
    expect(toggled.status).toBe(200);
    expect(toggled.body.group.options.find((o) => o.id === rojo)!.available).toBe(false);
    if (added.status === 200) {
      expect(added.body.order.items[0]!.modifiers).toEqual([{ groupName: 'Término', optionName: 'Rojo', priceDelta: 0 }]);
    } else {
      expect(added.status).toBe(409);
      expect(added.body.error).toEqual({ code: 'option_unavailable', message: 'La opción «Rojo» ya no está disponible; elige otra' });
    }
    // After the switch, always the refusal, and nothing was written.
    const before = await itemCount(order.id);
    const late = await add(order.id, { productId: steak.id, quantity: 1, optionIds: [rojo] });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('option_unavailable');
    expect(await itemCount(order.id)).toBe(before);
    await admin.patch(`/api/modifier-options/${rojo}/availability`, { available: true });
  });

  it('validates a group and tells open pickers when groups change', async () => {
    const bad = await admin.post<Err>('/api/modifier-groups', { name: 'X', minSelect: 3, maxSelect: 1, options: [{ name: 'a' }] });
    expect(bad.status).toBe(400);
    const noProduct = await admin.post<Err>('/api/modifier-groups', {
      name: 'X',
      minSelect: 0,
      maxSelect: 1,
      options: [{ name: 'a' }],
      productIds: ['no-such-product-id'],
    });
    expect(noProduct.status).toBe(400);
    expect((await waiter.post('/api/modifier-groups', { name: 'X', minSelect: 0, maxSelect: 1, options: [{ name: 'a' }] })).status).toBe(
      403,
    );

    const events: string[] = [];
    const off = server.ctx.live.onEvent((e) => events.push(`${e.topic} ${e.type}`));
    const created = await admin.post<{ group: ModifierGroup }>('/api/modifier-groups', {
      name: 'Salsas',
      minSelect: 0,
      maxSelect: null,
      options: [{ name: 'Verde' }, { name: 'Roja' }],
      categories: ['Entrada'],
    });
    expect(created.status).toBe(201);
    const removed = await admin.delete(`/api/modifier-groups/${created.body.group.id}`);
    expect(removed.status).toBe(200);
    off();
    expect(events.filter((e) => e === 'products modifiers.updated')).toHaveLength(2);
    const left = await server.ctx.db.db.selectFrom('modifier_options').select('id').where('group_id', '=', created.body.group.id).execute();
    expect(left).toEqual([]);
    const audits = await server.ctx.db.db.selectFrom('audit_log').select('action').where('entity_id', '=', created.body.group.id).execute();
    expect(audits.map((a) => a.action).sort()).toEqual(['modifiers.create', 'modifiers.delete']);
  });

  it('keeps the options when a line moves to a separate check', async () => {
    const order = await freshOrder();
    const first = await add(order.id, { productId: steak.id, quantity: 2, optionIds: [option(termino, 'Medio'), option(extras, 'Queso')] });
    const item = first.body.order.items[0]!;
    const res = await waiter.post<{ orders: Order[] } & Err>(`/api/orders/${order.id}/checks`, {
      checks: [{ lines: [{ itemId: item.id, quantity: 1 }] }],
    });
    expect(res.status).toBe(200);
    const check = res.body.orders.find((o) => o.id !== order.id)!;
    expect(check.items[0]).toMatchObject({ productPrice: 270_00, modifiers: item.modifiers });
    expect(check.subtotal).toBe(270_00);
  });
});
