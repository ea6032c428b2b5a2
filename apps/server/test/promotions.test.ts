import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ActivePromotion, Order, Promotion, PromotionDiscountsResponse, Table } from '@comanda/contract';
import { testDatabaseKinds, type ApiClient } from '../src/testing/index.ts';
import { rollupsFromRaw } from '../src/model/reports/rollup-backfill.ts';
import { ROLLUP_TABLES, type RollupRow, type RollupTable } from '../src/model/reports/rollup-set.ts';
import { serverOnManualClock } from './cash-close-fixture.ts';

type Res = { order: Order; error?: { message: string; code: string } };
/** Mexico City has no daylight saving time: local = UTC − 6 h. 2026-11-20 is a Friday. */
const local = (iso: string) => Date.parse(`${iso}-06:00`);
const FRIDAY = 5;
const BEER = 5_500;
const LEMONADE = 4_500;

/** Issue #17 item 4: promotions are priced by the server, in the business time zone. */
describe.each(testDatabaseKinds())('promotions on %s', (kind) => {
  let admin: ApiClient;
  let waiter: ApiClient;
  const suite = serverOnManualClock(kind, local('2026-11-20T20:00:00'), async (server) => {
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
  });
  const { products, db } = suite;
  let nextTable = 800;
  const setTime = (iso: string) => suite.setTime(local(iso));
  const ok = <T extends { status: number; body: unknown }>(res: T, status = 200): T => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res;
  };
  const openTable = async (): Promise<Order> => {
    const table = ok(await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ })).body.table;
    return ok(await waiter.post<Res>(`/api/tables/${table.id}/open`)).body.order;
  };
  const add = async (orderId: string, name: string, quantity: number) =>
    ok(await waiter.post<Res>(`/api/orders/${orderId}/items`, { productId: products[name], quantity })).body.order;
  const live = (order: Order) => order.items.filter((i) => !i.isDeleted);
  const happyHour = {
    name: '2x1 en cerveza',
    kind: 'nxm',
    buy: 2,
    pay: 1,
    days: [FRIDAY],
    startMinute: 22 * 60,
    endMinute: 2 * 60,
    productIds: [] as string[],
  };

  it('validates rules in the contract and refuses overlaps on the same product or category', async () => {
    happyHour.productIds = [products['Cerveza clara']!];
    ok(await admin.post<{ promotion: Promotion }>('/api/promotions', happyHour), 201);
    // A rule on the beer's category over the same hours would meet the 2x1 on the beer: refused, naming it.
    const bebidas = {
      name: 'Bebidas −20 %',
      kind: 'percent',
      percentBps: 2000,
      days: [FRIDAY],
      startMinute: 22 * 60,
      endMinute: 2 * 60,
      categories: ['Bebida'],
    };
    const onCategory = await admin.post<Res>('/api/promotions', bebidas);
    expect(onCategory.status).toBe(409);
    expect(onCategory.body.error?.code).toBe('promotion_overlap');
    expect(onCategory.body.error?.message).toContain('«2x1 en cerveza» (22:00–02:00)');
    // The lemonade alone does not meet it.
    ok(
      await admin.post('/api/promotions', {
        ...bebidas,
        name: 'Limonada −20 %',
        categories: [],
        productIds: [products['Limonada mineral']],
      }),
      201,
    );
    // The other way round: a category rule first, then a rule on one of its products, also when switched on later.
    const shots = { kind: 'nxm', buy: 3, pay: 2, days: [4], startMinute: 20 * 60, endMinute: 23 * 60 };
    ok(await admin.post('/api/promotions', { ...shots, name: 'Shots 3x2 jueves', categories: ['Shot'] }), 201);
    const mezcal = {
      ...shots,
      name: 'Mezcal 3x2',
      startMinute: 22 * 60,
      endMinute: 22 * 60 + 30,
      productIds: [products['Shot de mezcal']],
    };
    const onProduct = await admin.post<Res>('/api/promotions', mezcal);
    expect(onProduct.status).toBe(409);
    expect(onProduct.body.error?.message).toContain('«Shots 3x2 jueves»');
    const off = ok(await admin.post<{ promotion: Promotion }>('/api/promotions', { ...mezcal, active: false }), 201).body.promotion;
    expect((await admin.put<Res>(`/api/promotions/${off.id}`, { ...mezcal, active: true })).body.error?.code).toBe('promotion_overlap');
    ok(await admin.put(`/api/promotions/${off.id}`, { ...mezcal, active: true, days: [3] }));
    const overlap = await admin.post<Res>('/api/promotions', { ...happyHour, name: 'Otra', days: [6], startMinute: 60, endMinute: 120 });
    expect(overlap.status).toBe(409); // Saturday 01:00 is still Friday's 22:00–02:00
    expect(overlap.body.error?.code).toBe('promotion_overlap');
    const later = await admin.post('/api/promotions', {
      ...happyHour,
      name: 'Sábado',
      days: [6],
      startMinute: 120,
      endMinute: 240,
      active: false,
    });
    expect(later.status).toBe(201);
    expect((await admin.post('/api/promotions', { ...happyHour, buy: 2, pay: 2 })).status).toBe(400);
    expect((await admin.post('/api/promotions', { ...happyHour, productIds: [] })).status).toBe(400);
    expect((await admin.post('/api/promotions', { ...happyHour, endMinute: 1440 })).status).toBe(400);
    expect((await waiter.post('/api/promotions', happyHour)).status).toBe(403);
  });

  it('the add body is strict: a client sending a price or a discount is refused', async () => {
    const order = await openTable();
    const base = { productId: products['Cerveza clara'], quantity: 1 };
    expect((await waiter.post(`/api/orders/${order.id}/items`, { ...base, price: 1 })).status).toBe(400);
    expect((await waiter.post(`/api/orders/${order.id}/items`, { ...base, productPrice: 1 })).status).toBe(400);
    expect((await waiter.post(`/api/orders/${order.id}/items`, { ...base, discount: 100 })).status).toBe(400);
  });

  it('prices at the window edges in the business time zone: 21:59:59 list price, 22:00:00 promotion', async () => {
    await setTime('2026-11-20T21:59:59');
    const before = await openTable();
    const early = await add(before.id, 'Limonada mineral', 1);
    expect(live(early)[0]).toMatchObject({ productPrice: LEMONADE, listPrice: null, promotionName: null });
    expect((await waiter.get<{ promotions: ActivePromotion[] }>('/api/promotions/active')).body.promotions).toEqual([]);

    await setTime('2026-11-20T22:00:00');
    const order = await openTable();
    const after = await add(order.id, 'Limonada mineral', 2);
    expect(live(after)[0]).toMatchObject({ productPrice: 3_600, listPrice: LEMONADE, promotionName: 'Limonada −20 %', quantity: 2 });
    expect(after.subtotal).toBe(7_200);
    const active = (await waiter.get<{ promotions: ActivePromotion[] }>('/api/promotions/active')).body.promotions;
    expect(active.find((p) => p.productId === products['Cerveza clara'])).toMatchObject({
      name: '2x1 en cerveza',
      label: '2x1',
      price: BEER,
    });
    expect(active.find((p) => p.productId === products['Limonada mineral'])).toMatchObject({ price: 3_600 });
    expect(active.find((p) => p.productId === products['Shot de mezcal'])).toBeUndefined();

    // After midnight the window still belongs to Friday; at 02:00 it has ended.
    await setTime('2026-11-21T01:59:59');
    const late = await add((await openTable()).id, 'Limonada mineral', 1);
    expect(live(late)[0]?.productPrice).toBe(3_600);
    await setTime('2026-11-21T02:00:00');
    const over = await add((await openTable()).id, 'Limonada mineral', 1);
    expect(live(over)[0]?.productPrice).toBe(LEMONADE);
  });

  it('2x1 on an odd quantity, then "+ unidad": the free units are rows at $0 and every total is exact', async () => {
    await setTime('2026-11-20T23:00:00');
    const order = await openTable();
    let current = await add(order.id, 'Cerveza clara', 3);
    expect(live(current).map((i) => [i.productPrice, i.quantity, i.promotionName])).toEqual([
      [BEER, 2, '2x1 en cerveza'],
      [0, 1, '2x1 en cerveza'],
    ]);
    expect(current.subtotal).toBe(2 * BEER);
    const paidLine = live(current)[0]!;
    current = ok(await waiter.post<Res>(`/api/orders/${order.id}/items/${paidLine.id}/units`, { quantity: 1 })).body.order;
    // 4 beers: 2 free.
    expect(current.subtotal).toBe(2 * BEER);
    expect(
      live(current)
        .filter((i) => i.productPrice === 0)
        .reduce((s, i) => s + i.quantity, 0),
    ).toBe(2);
    // Only the 2x1 reaches the beer.
    expect(live(current).every((i) => i.promotionName === '2x1 en cerveza')).toBe(true);

    // Close it, with the lemonade order of the same night, and read the cash close.
    for (const item of live(current)) ok(await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' }));
    ok(
      await waiter.post<Res>(
        `/api/orders/${order.id}/close`,
        { method: 'efectivo', pin: suite.server.users.waiter.pin, tipBps: 0, peopleCount: 2, receivedAmount: 100_000 },
        { 'idempotency-key': randomUUID() },
      ),
    );
    const close = ok(await admin.get<PromotionDiscountsResponse>('/api/cash-close/promotions?date=2026-11-20')).body;
    expect(close.byPromotion).toEqual([{ name: '2x1 en cerveza', units: 2, amount: 2 * BEER }]);
    expect(close.total).toBe(2 * BEER);
  });

  it('voids and moves of promotion rows keep every total exact (each row is price × units)', async () => {
    await setTime('2026-11-20T23:30:00');
    const order = await openTable();
    const four = await add(order.id, 'Cerveza clara', 4);
    const paid = live(four).find((i) => i.productPrice === BEER)!;
    const free = live(four).find((i) => i.productPrice === 0)!;
    expect([paid.quantity, free.quantity, four.subtotal]).toEqual([2, 2, 2 * BEER]);
    const voided = ok(
      await waiter.post<Res>(`/api/orders/${order.id}/items/${free.id}/void`, { quantity: 1, reason: 'Cliente cambió de opinión' }),
    ).body.order;
    expect(voided.subtotal).toBe(2 * BEER);
    const target = await openTable();
    const moved = ok(
      await waiter.post<{ source: Order; target: Order }>(`/api/orders/${order.id}/move-items`, {
        targetTableId: target.tableId,
        lines: [{ itemId: paid.id, quantity: 1 }],
      }),
    ).body;
    expect(moved.source.subtotal).toBe(BEER);
    expect(moved.target.subtotal).toBe(BEER);
    expect(live(moved.target)[0]).toMatchObject({ promotionName: '2x1 en cerveza', listPrice: BEER, productPrice: BEER });
  });

  it('keeps the report rollups equal to the raw rows', async () => {
    const raw = await rollupsFromRaw(db(), 'America/Mexico_City');
    for (const table of Object.keys(ROLLUP_TABLES) as RollupTable[]) {
      const spec = ROLLUP_TABLES[table];
      const norm = (rows: RollupRow[]) =>
        rows
          .map((r) =>
            Object.fromEntries(
              [...spec.keys, ...spec.sums].map((c) => [c, (spec.sums as readonly string[]).includes(c) ? Number(r[c]) : String(r[c])]),
            ),
          )
          .filter((r) => (spec.sums as readonly string[]).some((c) => r[c] !== 0))
          .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      const stored = (await db().selectFrom(table).selectAll().execute()) as unknown as RollupRow[];
      expect(norm(stored), table).toEqual(norm([...raw[table].values()]));
    }
  });

  it('edits and deletes rules; priced items keep their promotion name', async () => {
    const list = ok(await admin.get<{ promotions: Promotion[] }>('/api/promotions')).body.promotions;
    const beer = list.find((p) => p.name === '2x1 en cerveza')!;
    const edited = ok(
      await admin.put<{ promotion: Promotion }>(`/api/promotions/${beer.id}`, { ...happyHour, name: '2x1 cerveza', active: false }),
    ).body.promotion;
    expect(edited).toMatchObject({ name: '2x1 cerveza', active: false, buy: 2, pay: 1, percentBps: null });
    ok(await admin.delete(`/api/promotions/${beer.id}`));
    expect((await admin.delete(`/api/promotions/${beer.id}`)).status).toBe(404);
    const close = ok(await admin.get<PromotionDiscountsResponse>('/api/cash-close/promotions?date=2026-11-20')).body;
    expect(close.byPromotion[0]?.name).toBe('2x1 en cerveza');
  });
});
