import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Corte, DrawerStateResponse } from '@comanda/contract';
import { connectLive, startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { newId } from '../src/http/ids.ts';
import { insertOrderItems, orderItemRow, orderRow, tableRow } from '../src/testing/factories.ts';
import { DRAWER_TEXT } from '../src/model/drawer/drawer-store.ts';

type ErrorBody = { error: { code: string; message: string } };

let tableNumber = 300;

/** An activo order with delivered items, written like the orders routes write it. */
async function openOrder(server: TestServer, pesos: number): Promise<string> {
  const db = server.ctx.db.db;
  const now = server.ctx.clock.now();
  const waiter = server.users.waiter;
  const product = await db.selectFrom('products').selectAll().orderBy('name').executeTakeFirstOrThrow();
  const tableId = newId();
  const order = orderRow({ id: tableId, number: tableNumber++ }, waiter, { created_at: now, subtotal: pesos * 100, total: pesos * 100 });
  const table = tableRow({
    id: tableId,
    number: order.table_number,
    created_at: now,
    status: 'ocupada',
    waiter_id: waiter.id,
    waiter_name: waiter.displayName,
    current_order_id: order.id,
  });
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('tables').values(table).execute();
    await trx.insertInto('orders').values(order).execute();
    await insertOrderItems(trx, [orderItemRow(order.id, { ...product, price: pesos * 100 }, { created_at: now })]);
  });
  return order.id;
}

const payCash = (api: ApiClient, orderId: string, received: number) =>
  api.post<ErrorBody>(
    `/api/orders/${orderId}/close`,
    { method: 'efectivo', pin: '1111', tipBps: 0, peopleCount: 1, receivedAmount: received },
    { 'idempotency-key': randomUUID() },
  );

describe.each(testDatabaseKinds())('drawer (caja) on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
  });
  afterAll(async () => {
    await server?.close();
  });

  const state = async () => (await admin.get<DrawerStateResponse>('/api/drawer')).body;
  const open = (count: Record<string, number>) =>
    admin.post<{ session: { id: string; float: number } } & ErrorBody>('/api/drawer/open', { count });
  const move = (kind: string, amount: number, reason = 'Pago al proveedor de hielo', pin = '1234') =>
    admin.post<{ movement: { id: string; amount: number; authorizedByName: string } } & ErrorBody>('/api/drawer/movements', {
      kind,
      amount,
      reason,
      pin,
    });
  const corteZ = (id: string, count: Record<string, number>, comment = '', pins = { cashierPin: '1111', adminPin: '1234' }) =>
    admin.post<{ corte: Corte } & ErrorBody>(`/api/drawer/sessions/${id}/corte-z`, { count, comment, ...pins });
  const rows = async (table: 'drawer_payments' | 'drawer_movements', sessionId: string) =>
    Number(
      (
        await server.ctx.db.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('session_id', '=', sessionId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('runs a whole session: float, cash sales, movements, corte X, blind corte Z', async () => {
    const live = await connectLive(server.url, admin.cookie);
    live.ws.send(JSON.stringify({ op: 'subscribe', topics: ['drawer'] }));
    await live.next((m) => m.op === 'subscribed');
    expect((await state()).session).toBeNull();
    // Without a session and with control off (the default), cash sales work as the spec says.
    expect((await payCash(waiter, await openOrder(server, 50), 5000)).status).toBe(200);

    const opened = await open({ b20000: 2, b5000: 1, m1000: 5, m50: 2 });
    expect(opened.status).toBe(200);
    expect(opened.body.session.float).toBe(40000 + 5000 + 5000 + 100);
    const id = opened.body.session.id;
    expect((await open({ b100000: 1 })).body.error.message).toBe(DRAWER_TEXT.alreadyOpen);

    expect((await payCash(waiter, await openOrder(server, 230), 50000)).status).toBe(200); // change 270
    expect((await payCash(waiter, await openOrder(server, 115), 11500)).status).toBe(200);
    const withdrawal = await move('retiro', 20000, 'Retiro parcial a caja fuerte');
    expect(withdrawal.status).toBe(200);
    expect(withdrawal.body.movement.authorizedByName).toBe(server.users.admin.displayName);
    expect((await move('deposito', 10000, 'Cambio del banco')).status).toBe(200);
    expect((await move('gasto', 3500, 'Hielo')).status).toBe(200);
    // A movement needs an admin's PIN; a waiter's is answered like a wrong one.
    expect((await move('gasto', 100, 'Hielo', '1111')).status).toBe(403);

    // The open session never shows its expected cash.
    const seen = await state();
    expect(seen.session?.id).toBe(id);
    expect(JSON.stringify(seen)).not.toContain('expected');
    expect(seen.session?.movements.map((m) => m.kind)).toEqual(['retiro', 'deposito', 'gasto']);

    const expected = 50100 + 23000 + 11500 + 10000 - 20000 - 3500;
    const x = await admin.get<{ corte: Corte }>(`/api/drawer/sessions/${id}`);
    expect(x.body.corte.figures).toMatchObject({
      float: 50100,
      cashSales: 34500,
      change: 27000,
      withdrawals: 20000,
      deposits: 10000,
      paidOuts: 3500,
      expected,
      cashCount: 2,
    });
    expect(x.body.corte.closedAt).toBeNull();
    // Corte X changes nothing.
    expect((await admin.get<{ corte: Corte }>(`/api/drawer/sessions/${id}`)).body.corte.figures).toEqual(x.body.corte.figures);

    // Blind count 20 pesos short: a comment is required, and the refusal names no amount.
    const short = { b50000: 1, b10000: 1, b5000: 1, b2000: 2, m100: 1 }; // 691.00
    expect(expected - 2000).toBe(69100);
    const noComment = await corteZ(id, short);
    expect(noComment.status).toBe(422);
    expect(noComment.body.error.message).toBe(DRAWER_TEXT.commentRequired);
    expect(JSON.stringify(noComment.body)).not.toMatch(/69100|71100/);
    const z = await corteZ(id, short, 'Se dio cambio de más a la mesa 4');
    expect(z.status).toBe(200);
    expect(z.body.corte).toMatchObject({
      counted: 69100,
      difference: -2000,
      comment: 'Se dio cambio de más a la mesa 4',
      cashierName: server.users.waiter.displayName,
      adminName: server.users.admin.displayName,
    });
    expect(z.body.corte.figures.expected).toBe(expected);
    expect(z.body.corte.session.status).toBe('cerrada');
    expect((await state()).session).toBeNull();

    // The cash close for the day lists the session.
    const day = await admin.get<{ cortes: Corte[] }>('/api/drawer/sessions');
    expect(day.body.cortes.map((c) => c.session.id)).toContain(id);
    await live.next((m) => m.op === 'event' && m.event.topic === 'drawer' && m.event.id === id);
    live.ws.close();

    const audit = await server.ctx.db.db.selectFrom('audit_log').select('action').where('entity_id', '=', id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(
      ['drawer.closed', 'drawer.deposito', 'drawer.gasto', 'drawer.opened', 'drawer.retiro'].sort(),
    );
  });

  it('refuses closing twice, movements without a session and any edit of a closed session', async () => {
    const opened = await open({ b10000: 1 });
    const id = opened.body.session.id;
    expect((await corteZ(id, { b10000: 1 })).status).toBe(200);
    const again = await corteZ(id, { b10000: 1 });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(DRAWER_TEXT.alreadyClosed);
    const orphan = await move('retiro', 100);
    expect(orphan.status).toBe(409);
    expect(orphan.body.error.message).toBe(DRAWER_TEXT.noSessionForMovement);
    // The database itself refuses to change a closed session or add to it.
    const db = server.ctx.db.db;
    await expect(db.updateTable('drawer_sessions').set({ comment: 'cambiado' }).where('id', '=', id).execute()).rejects.toThrow(/closed/);
    await expect(db.deleteFrom('drawer_sessions').where('id', '=', id).execute()).rejects.toThrow();
    await expect(
      db
        .insertInto('drawer_movements')
        .values({
          id: newId(),
          session_id: id,
          kind: 'retiro',
          amount: 1,
          reason: 'x',
          authorized_by: 'a',
          authorized_by_name: 'a',
          created_by: 'a',
          created_by_name: 'a',
          created_at: 1,
        })
        .execute(),
    ).rejects.toThrow(/closed/);
    // Only an admin reaches the drawer.
    expect((await waiter.get('/api/drawer')).status).toBe(403);
    expect((await waiter.post('/api/drawer/open', { count: { b10000: 1 } })).status).toBe(403);
    // ...and only an admin hears the drawer's live topic.
    const waiterLive = await connectLive(server.url, waiter.cookie);
    waiterLive.ws.send(JSON.stringify({ op: 'subscribe', topics: ['drawer'] }));
    await waiterLive.next((m) => m.op === 'denied' && m.topic === 'drawer');
    waiterLive.ws.close();
  });

  it('with drawer control on, a cash sale without an open session is refused in Spanish and nothing is written', async () => {
    expect((await admin.put('/api/drawer/settings', { enabled: true })).status).toBe(200);
    try {
      expect((await state()).enabled).toBe(true);
      const orderId = await openOrder(server, 80);
      const refused = await payCash(waiter, orderId, 8000);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(DRAWER_TEXT.noSession);
      const order = await server.ctx.db.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow();
      expect(order.status).toBe('activo');
      const opened = await open({ b10000: 1 });
      expect((await payCash(waiter, orderId, 8000)).status).toBe(200);
      expect(await rows('drawer_payments', opened.body.session.id)).toBe(1);
      expect((await corteZ(opened.body.session.id, { b10000: 1, b5000: 1, b2000: 1, m1000: 1 })).body.corte.difference).toBe(0);
    } finally {
      await admin.put('/api/drawer/settings', { enabled: false });
    }
  });

  it('a cash payment racing the corte Z lands in exactly one session', async () => {
    // Two cashier sessions, so the PIN budget per session (5 in flight) is not what refuses a payment.
    const admin2 = await server.login(server.users.admin.email);
    for (let round = 0; round < 6; round++) {
      const opened = await open({ b10000: 1 });
      const id = opened.body.session.id;
      const orderIds = await Promise.all([1, 2, 3, 4, 5, 6].map(() => openOrder(server, 100)));
      // The payments start first; the corte Z follows a little later each round, so it lands before, among or after them.
      const paying = orderIds.map((o, i) => payCash(i % 2 ? admin2 : waiter, o, 10000));
      await new Promise((r) => setTimeout(r, round * 12));
      const [z, ...pays] = await Promise.all([corteZ(id, { b10000: 1 }, 'Conteo durante cobros'), ...paying]);
      expect(z.status).toBe(200);
      expect(pays.filter((p) => p.status !== 200).map((p) => JSON.stringify(p.body))).toEqual([]);
      const payments = await server.ctx.db.db
        .selectFrom('payments')
        .leftJoin('drawer_payments', 'drawer_payments.payment_id', 'payments.id')
        .select(['payments.id', 'drawer_payments.session_id'])
        .where('payments.order_id', 'in', orderIds)
        .execute();
      expect(payments).toHaveLength(6);
      const inSession = payments.filter((p) => p.session_id === id).length;
      // What the corte counted is exactly what the session holds: none slipped in after it.
      expect(z.body.corte.figures.cashCount).toBe(inSession);
      expect(await rows('drawer_payments', id)).toBe(inSession);
      expect(payments.filter((p) => p.session_id !== null && p.session_id !== id)).toHaveLength(0);
    }
  });

  it('no retiro or gasto takes more than the cash the drawer should hold, not even four raced at once', async () => {
    const opened = await open({ b100000: 1 }); // $1,000
    const id = opened.body.session.id;
    const audits = async () =>
      (
        await server.ctx.db.db
          .selectFrom('audit_log')
          .select('action')
          .where('entity_id', '=', id)
          .where('action', 'in', ['drawer.retiro', 'drawer.gasto'])
          .execute()
      ).length;
    const big = await move('retiro', 500000, 'Retiro a caja fuerte');
    expect(big.status).toBe(409);
    expect(big.body.error).toEqual({
      code: 'drawer_short',
      message: 'El retiro es mayor al efectivo que debería haber en la caja: no se puede sacar más efectivo del que hay.',
    });
    // The refusal names no amount: the corte Z count stays blind.
    expect(big.body.error.message).not.toMatch(/\d/);
    expect(await rows('drawer_movements', id)).toBe(0);

    // Four $600 retiros at once against $1,000: the drawer's lock counts them one after the other.
    const raced = await Promise.all([1, 2, 3, 4].map((n) => move('retiro', 60000, `Retiro ${n}`)));
    expect(raced.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await rows('drawer_movements', id)).toBe(1);
    expect(await audits()).toBe(1);
    // A gasto over the $400 left is refused too; exactly what is left is taken.
    const gasto = await move('gasto', 40001, 'Hielo');
    expect(gasto.status).toBe(409);
    expect(gasto.body.error.message).toMatch(/^El gasto es mayor al efectivo/);
    expect((await move('gasto', 40000, 'Hielo')).status).toBe(200);
    expect((await move('retiro', 50, 'Monedas')).status).toBe(409);
    // A deposit puts cash back: then it can go out again.
    expect((await move('deposito', 10000, 'Cambio del banco')).status).toBe(200);
    expect((await move('retiro', 10000, 'Retiro a caja fuerte')).status).toBe(200);
    expect(await audits()).toBe(3);

    const z = await corteZ(id, {});
    expect(z.status, JSON.stringify(z.body)).toBe(200);
    expect(z.body.corte.figures).toMatchObject({ withdrawals: 70000, paidOuts: 40000, deposits: 10000, expected: 0 });
    expect(z.body.corte.difference).toBe(0);
  });
});
