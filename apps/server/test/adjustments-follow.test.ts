import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MoveItemsResponse, Order, Table } from '@comanda/contract';
import { assertInvariants, startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { key, type Err } from './terminals-helpers.ts';

type Res = { order: Order } & Err;

const BEER = 5_500; // Cerveza clara
const TACOS = 9_500; // Tacos al pastor (3)

/** A line's discounts and comps follow its units (decision 0022, amending 0017). */
describe.each(testDatabaseKinds())('discounts and comps follow moved and voided units on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let products: Record<string, string>;
  let nextTable = 400;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    const rows = await server.ctx.db.db.selectFrom('products').select(['id', 'name']).execute();
    products = Object.fromEntries(rows.map((r) => [r.name, r.id]));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.ctx.db.db;
  const newTable = async () => (await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ })).body.table;
  async function openOrder(beers: number, tacos = 0): Promise<Order> {
    const table = await newTable();
    let order = (await waiter.post<Res>(`/api/tables/${table.id}/open`)).body.order;
    if (beers)
      order = (await waiter.post<Res>(`/api/orders/${order.id}/items`, { productId: products['Cerveza clara'], quantity: beers })).body
        .order;
    if (tacos)
      order = (await waiter.post<Res>(`/api/orders/${order.id}/items`, { productId: products['Tacos al pastor (3)'], quantity: tacos }))
        .body.order;
    return order;
  }
  const line = (order: Order, name: string) => order.items.find((i) => i.productName === name && !i.isDeleted)!;
  const adjust = async (order: Order, body: Record<string, unknown>) => {
    const res = await waiter.post<Res>(`/api/orders/${order.id}/adjustments`, {
      reason: 'Cliente frecuente',
      pin: server.users.admin.pin,
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.order;
  };
  const move = (order: Order, targetTableId: string, lines: { itemId: string; quantity: number }[]) =>
    waiter.post<MoveItemsResponse & Err>(`/api/orders/${order.id}/move-items`, { targetTableId, lines }, { 'idempotency-key': key() });
  const getOrder = async (id: string) => (await admin.get<{ order: Order }>(`/api/orders/${id}`)).body.order;
  const liveAdjustments = (orderId: string) =>
    db().selectFrom('order_adjustments').selectAll().where('order_id', '=', orderId).where('removed_at', 'is', null).execute();
  const countAll = async () =>
    Number((await db().selectFrom('order_adjustments').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const audits = (action: string) => db().selectFrom('audit_log').select(['entity_id', 'data']).where('action', '=', action).execute();

  it('a comp on a whole line moved to another table goes with it: the source owes the full line no more, the target is comped', async () => {
    const order = await openOrder(3, 1);
    const beer = line(order, 'Cerveza clara');
    await adjust(order, { kind: 'comp', scope: 'item', itemId: beer.id, units: 1 });
    const before = await countAll();
    const target = await newTable();
    const res = await move(order, target.id, [{ itemId: beer.id, quantity: 3 }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [source, into] = [await getOrder(order.id), await getOrder(res.body.target.id)];
    expect(source).toMatchObject({ subtotal: TACOS, comp: 0, total: TACOS, adjustments: [] });
    expect(into).toMatchObject({ subtotal: 3 * BEER, comp: BEER, total: 2 * BEER });
    expect(into.adjustments).toEqual([expect.objectContaining({ itemId: beer.id, units: 1, amount: BEER })]);
    // The same row, re-pointed: no adjustment written or lost.
    expect(await countAll()).toBe(before);
    expect(await liveAdjustments(order.id)).toHaveLength(0);
    expect(await liveAdjustments(into.id)).toHaveLength(1);
    expect((await audits('order.adjustment-moved')).filter((a) => a.entity_id === into.id)).toHaveLength(1);
    await assertInvariants(server.ctx.db);
  });

  it('part of a line moved: a comp of units keeps what the source still has, the rest follows; a percent applies to both; an amount is shared', async () => {
    const order = await openOrder(3, 2);
    const beer = line(order, 'Cerveza clara');
    const tacos = line(order, 'Tacos al pastor (3)');
    await adjust(order, { kind: 'comp', scope: 'item', itemId: beer.id, units: 2 });
    await adjust(order, { kind: 'discount', scope: 'item', itemId: tacos.id, percentBps: 1000 });
    const before = await getOrder(order.id);
    expect(before).toMatchObject({ comp: 2 * BEER, discount: 2 * 950 });
    const target = await newTable();
    // 2 of 3 beers and 1 of 2 tacos move: the source keeps 1 beer (1 comped) and 1 taco (10 %).
    const res = await move(order, target.id, [
      { itemId: beer.id, quantity: 2 },
      { itemId: tacos.id, quantity: 1 },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [source, into] = [await getOrder(order.id), await getOrder(res.body.target.id)];
    expect(source).toMatchObject({ subtotal: BEER + TACOS, comp: BEER, discount: 950 });
    expect(into).toMatchObject({ subtotal: 2 * BEER + TACOS, comp: BEER, discount: 950 });
    // Nothing given twice or lost: the comps and discounts add up to what they were.
    expect(source.comp! + into.comp!).toBe(before.comp);
    expect(source.discount! + into.discount!).toBe(before.discount);
    expect(await liveAdjustments(order.id)).toHaveLength(2);
    expect(await liveAdjustments(into.id)).toHaveLength(2);
    await assertInvariants(server.ctx.db);
  });

  it('an amount discount on a line split into checks is shared by units, to the centavo', async () => {
    const order = await openOrder(3);
    const beer = line(order, 'Cerveza clara');
    await adjust(order, { kind: 'discount', scope: 'item', itemId: beer.id, amount: 10_00 });
    const res = await waiter.post<{ orders: Order[] } & Err>(
      `/api/orders/${order.id}/checks`,
      { checks: [{ lines: [{ itemId: beer.id, quantity: 1 }] }] },
      { 'idempotency-key': key() },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [a, b] = res.body.orders;
    expect(a).toMatchObject({ subtotal: 2 * BEER, discount: 6_67 });
    expect(b).toMatchObject({ subtotal: BEER, discount: 3_33 });
    expect(a!.discount! + b!.discount!).toBe(10_00);
    await assertInvariants(server.ctx.db);
  });

  it('voiding or deleting a discounted line removes its adjustment, audited with the reason; a partial void keeps it', async () => {
    const order = await openOrder(3, 1);
    const beer = line(order, 'Cerveza clara');
    const tacos = line(order, 'Tacos al pastor (3)');
    await adjust(order, { kind: 'comp', scope: 'item', itemId: beer.id, units: 1 });
    await adjust(order, { kind: 'discount', scope: 'item', itemId: tacos.id, percentBps: 5000 });
    const voidUnits = (itemId: string, quantity: number) =>
      waiter.post<Res>(
        `/api/orders/${order.id}/items/${itemId}/void`,
        { quantity, reason: 'Error de captura' },
        { 'idempotency-key': key() },
      );
    // 1 of 3 beers voided: the comp of 1 beer stays.
    expect((await voidUnits(beer.id, 1)).status).toBe(200);
    expect(await liveAdjustments(order.id)).toHaveLength(2);
    expect((await getOrder(order.id)).comp).toBe(BEER);
    // The other 2: the line is gone, and so is its comp.
    const gone = await voidUnits(beer.id, 2);
    expect(gone.status).toBe(200);
    expect(gone.body.order).toMatchObject({ subtotal: TACOS, comp: 0, discount: 4_750 });
    expect(gone.body.order.adjustments!.map((a) => a.itemId)).toEqual([tacos.id]);
    // The tacos line deleted by the SPEC's delete (admin PIN): its discount goes too.
    const deleted = await waiter.post<Res>(`/api/orders/${order.id}/items/${tacos.id}/delete`, { pin: server.users.admin.pin });
    expect(deleted.status).toBe(200);
    expect(deleted.body.order).toMatchObject({ subtotal: 0, discount: 0, comp: 0, adjustments: [] });
    const removed = await db()
      .selectFrom('order_adjustments')
      .selectAll()
      .where('order_id', '=', order.id)
      .where('removed_at', 'is not', null)
      .execute();
    expect(removed).toHaveLength(2);
    const why = [...(await audits('order.comp-removed')), ...(await audits('order.discount-removed'))]
      .filter((a) => a.entity_id === order.id)
      .map((a) => JSON.parse(a.data!).removedBecause)
      .sort();
    expect(why).toEqual(['item-deleted', 'item-voided']);
    await assertInvariants(server.ctx.db);
  });

  it('a merge takes the line comps along and removes the check discount of the merged-away order', async () => {
    const order = await openOrder(2);
    const other = await openOrder(1);
    const beer = line(order, 'Cerveza clara');
    await adjust(order, { kind: 'comp', scope: 'item', itemId: beer.id, units: 1 });
    await adjust(order, { kind: 'discount', scope: 'order', percentBps: 1000 });
    const res = await waiter.post<Res>(`/api/orders/${order.id}/merge`, { targetTableId: other.tableId }, { 'idempotency-key': key() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const into = await getOrder(other.id);
    expect(into).toMatchObject({ subtotal: 3 * BEER, comp: BEER, discount: 0, total: 2 * BEER });
    expect(await liveAdjustments(order.id)).toHaveLength(0);
    expect(await liveAdjustments(other.id)).toHaveLength(1);
    expect(
      (await audits('order.discount-removed')).filter((a) => a.entity_id === order.id).map((a) => JSON.parse(a.data!).removedBecause),
    ).toEqual(['order-merged']);
    await assertInvariants(server.ctx.db);
  });
});
