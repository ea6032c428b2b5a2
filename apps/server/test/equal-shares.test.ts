import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddPaymentResponse, CardPayment, Order, Table, TableCheck } from '@comanda/contract';
import { testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { assertInvariants } from '../src/testing/invariants.ts';
import { type Simulator } from '../src/payments/mercadopago/simulator/server.ts';
import { type CardServer, startCardServer, approveOnTerminal, key, type Err } from './terminals-helpers.ts';

/** Equal shares are separate checks (docs/decisions/0022-equal-shares-are-checks.md). */
describe.each(testDatabaseKinds())('equal shares as separate checks on %s', (kind) => {
  let sim: Simulator;
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let products: { id: string; name: string; price: number }[] = [];
  let terminalN = 0;

  let card: CardServer | undefined;
  beforeAll(async () => {
    card = await startCardServer(kind, 'TEST-7731-shares-token');
    ({ sim, server, admin, waiter } = card);
    products = (await admin.get<{ products: typeof products }>('/api/products?available=1')).body.products;
  }, 60_000);
  afterAll(() => card?.close());

  const db = () => server.ctx.db.db;
  const product = (name: string) => products.find((p) => p.name === name)!;
  const getOrder = async (id: string) => (await admin.get<{ order: Order }>(`/api/orders/${id}`)).body.order;
  const shares = (orderId: string, count: number, api = waiter) =>
    api.post<{ orders: Order[] } & Err>(`/api/orders/${orderId}/shares`, { count }, { 'idempotency-key': key() });
  const check = () => assertInvariants(server.ctx.db);

  /** A table of its own; the waiter orders the lines and the stations deliver them. */
  async function openTable(number: number, lines: [string, number][]): Promise<{ table: Table; order: Order }> {
    const table = (await admin.post<{ table: Table }>('/api/tables', { number })).body.table;
    let order = (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`)).body.order;
    for (const [name, quantity] of lines)
      order = (await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: product(name).id, quantity })).body.order;
    for (const item of order.items)
      expect((await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' })).status).toBe(200);
    return { table, order: await getOrder(order.id) };
  }

  async function payByCard(orderId: string, tipBps: number): Promise<void> {
    const terminalId = sim.store.addTerminal(`PAX_A910__SMARTPOSSHARE${kind.toUpperCase()}${++terminalN}`).id;
    const res = await waiter.post<{ payment: CardPayment } & Err>(
      '/api/card-payments',
      { orderId, terminalId, method: 'tarjeta', tipBps, peopleCount: 1 },
      { 'idempotency-key': key() },
    );
    expect(res.status).toBe(201);
    await approveOnTerminal({ sim, server }, waiter, res.body.payment.id);
  }

  it('N equal shares are N checks summing to the centavo, each paid on its own with any method, tip and folio; the last frees the table', async () => {
    // 2 beers (55) + 1 michelada (85) = 195.00 → 65.00 × 3; add a taco (95): 290.00 → 96.67 + 96.67 + 96.66.
    const { table, order } = await openTable(301, [
      ['Cerveza clara', 2],
      ['Michelada', 1],
      ['Tacos al pastor (3)', 1],
    ]);
    expect(order.subtotal).toBe(290_00);
    const ordersBefore = Number((await db().selectFrom('orders').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const itemsBefore = await db().selectFrom('order_items').selectAll().orderBy('id').execute();

    const res = await shares(order.id, 3);
    expect(res.status).toBe(200);
    const [a, b, c] = res.body.orders;
    expect(res.body.orders).toHaveLength(3);
    expect(a).toMatchObject({ id: order.id, tabName: 'Cuenta A', subtotal: 290_00, sharedOut: 96_67 + 96_66, balance: 96_67 });
    expect(b).toMatchObject({
      tabName: 'Cuenta B',
      parentOrderId: order.id,
      tableId: table.id,
      items: [],
      shareAmount: 96_67,
      balance: 96_67,
    });
    expect(c).toMatchObject({ tabName: 'Cuenta C', parentOrderId: order.id, items: [], shareAmount: 96_66, balance: 96_66 });
    expect(a!.balance + b!.balance + c!.balance).toBe(290_00);
    // Exactly two orders more; no item row written, moved or changed.
    expect(Number((await db().selectFrom('orders').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(ordersBefore + 2);
    const itemsAfter = await db().selectFrom('order_items').selectAll().orderBy('id').execute();
    expect(itemsAfter.map((i) => [i.id, i.order_id, i.quantity])).toEqual(itemsBefore.map((i) => [i.id, i.order_id, i.quantity]));
    expect(
      await db().selectFrom('audit_log').select('id').where('action', '=', 'order.split-equal').where('entity_id', '=', order.id).execute(),
    ).toHaveLength(1);

    // The table's checks list and the tables list show each check's own amount and the table's sum.
    const listed = (await waiter.get<{ checks: TableCheck[] }>(`/api/tables/${table.id}/checks`)).body.checks;
    expect(listed.map((x) => [x.tabName, x.total, x.canCharge])).toEqual([
      ['Cuenta A', 96_67, true],
      ['Cuenta B', 96_67, true],
      ['Cuenta C', 96_66, true],
    ]);
    const card = (await waiter.get<{ tables: Table[] }>('/api/tables')).body.tables.find((x) => x.id === table.id)!;
    expect([card.order, ...(card.extraOrders ?? [])].reduce((sum, o) => sum + (o?.total ?? 0), 0)).toBe(290_00);
    await check();

    // B by card with 10 % tip, C by transfer (no terminal), A in cash with 15 %.
    await payByCard(b!.id, 1000);
    const transfer = await waiter.post<AddPaymentResponse & Err>(
      `/api/orders/${c!.id}/payments`,
      { pin: '1111', method: 'transferencia', amount: 96_66, reference: 'SPEI 123' },
      { 'idempotency-key': key() },
    );
    expect(transfer.status).toBe(200);
    expect(transfer.body.order).toMatchObject({ status: 'pagado', total: 96_66, tip: 0 });
    expect((await getOrder(order.id)).status).toBe('activo');
    expect((await db().selectFrom('tables').select('status').where('id', '=', table.id).executeTakeFirstOrThrow()).status).toBe('ocupada');
    const cash = await waiter.post<{ order: Order } & Err>(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: '1111', tipBps: 1500, peopleCount: 1, receivedAmount: 200_00 },
      { 'idempotency-key': key() },
    );
    expect(cash.status).toBe(200);
    expect(cash.body.order).toMatchObject({ status: 'pagado', subtotal: 290_00, tip: 14_50, total: 96_67 + 14_50 });

    const paid = await Promise.all([a!, b!, c!].map((o) => getOrder(o.id)));
    expect(paid.map((o) => o.status)).toEqual(['pagado', 'pagado', 'pagado']);
    expect(paid.map((o) => o.tip)).toEqual([14_50, 9_67, 0]);
    // Each check's own payments, by its method; all of them add up to the order and the tips.
    const rows = await db()
      .selectFrom('payments')
      .selectAll()
      .where(
        'order_id',
        'in',
        paid.map((o) => o.id),
      )
      .execute();
    expect(rows.map((r) => [r.order_id, r.method]).sort()).toEqual(
      [
        [a!.id, 'efectivo'],
        [b!.id, 'tarjeta'],
        [c!.id, 'transferencia'],
      ].sort(),
    );
    expect(rows.reduce((s, r) => s + Number(r.amount) - Number(r.tip_amount), 0)).toBe(290_00);
    expect(rows.reduce((s, r) => s + Number(r.tip_amount), 0)).toBe(14_50 + 9_67);
    // Three folios, consecutive.
    const folios = paid.map((o) => o.folio!).sort((x, y) => x - y);
    expect(folios[1]! - folios[0]!).toBe(1);
    expect(folios[2]! - folios[1]!).toBe(1);
    expect((await db().selectFrom('tables').select('status').where('id', '=', table.id).executeTakeFirstOrThrow()).status).toBe('libre');
    await check();
  });

  it('refuses what would lose a share: cancelling or merging away, voiding below the shares, splitting twice or after a payment', async () => {
    const { table, order } = await openTable(302, [
      ['Cerveza clara', 2],
      ['Michelada', 1],
    ]);
    const other = await openTable(303, [['Cerveza clara', 1]]);
    const [, share] = (await shares(order.id, 2)).body.orders;
    expect(share!.shareAmount).toBe(97_50);

    expect((await shares(order.id, 2)).body.error.code).toBe('already_shared');
    expect((await shares(share!.id, 2)).body.error.code).toBe('already_shared');
    const cancel = await waiter.post<Err>(`/api/orders/${share!.id}/cancel`, {}, { 'idempotency-key': key() });
    expect([cancel.status, cancel.body.error.code]).toEqual([409, 'order_shared']);
    const merge = await waiter.post<Err>(`/api/orders/${order.id}/merge`, { targetTableId: other.table.id }, { 'idempotency-key': key() });
    expect([merge.status, merge.body.error.code]).toEqual([409, 'order_shared']);
    // Voiding the michelada (85) leaves 110.00 of items: the share check's 97.50 and 12.50 for A.
    const voidOne = (itemId: string) =>
      admin.post<Err>(
        `/api/orders/${order.id}/items/${itemId}/void`,
        { quantity: 1, reason: 'Error de captura', pin: server.users.admin.pin },
        { 'idempotency-key': key() },
      );
    expect((await voidOne(order.items.find((i) => i.productName === 'Michelada')!.id)).status).toBe(200);
    expect(await getOrder(order.id)).toMatchObject({ subtotal: 110_00, balance: 12_50 });
    // A beer more would leave 55.00 of items for a share of 97.50: refused, nothing written.
    const voided = await voidOne(order.items.find((i) => i.productName === 'Cerveza clara')!.id);
    expect([voided.status, voided.body.error.code]).toEqual([409, 'shares_owed']);
    expect(await getOrder(order.id)).toMatchObject({ subtotal: 110_00, balance: 12_50 });

    // An order with a part paid is split into checks before paying, not after.
    const third = await openTable(304, [['Cerveza clara', 2]]);
    const part = await waiter.post<Err>(
      `/api/orders/${third.order.id}/payments`,
      { pin: '1111', method: 'transferencia', amount: 10_00 },
      { 'idempotency-key': key() },
    );
    expect(part.status).toBe(200);
    expect((await shares(third.order.id, 2)).body.error.code).toBe('order_has_payments');
    expect((await shares(other.order.id, 21)).status).toBe(400);
    expect((await db().selectFrom('orders').select('id').where('table_id', '=', table.id).execute()).length).toBe(2);
    await check();
  });

  it('two devices splitting the same order at once: one wins, the other is refused, nothing duplicated', async () => {
    const { table, order } = await openTable(305, [['Cerveza clara', 4]]);
    const [one, two] = await Promise.all([shares(order.id, 2), shares(order.id, 4, admin)]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    const open = await db().selectFrom('orders').selectAll().where('table_id', '=', table.id).where('status', '=', 'activo').execute();
    const won = one.status === 200 ? 2 : 4;
    expect(open).toHaveLength(won);
    expect(open.reduce((s, o) => s + Number(o.share_amount), 0)).toBe(Number(open.find((o) => o.id === order.id)!.shared_out));
    expect(open.reduce((s, o) => s + Number(o.total), 0)).toBe(220_00);
    await check();
  });
});
