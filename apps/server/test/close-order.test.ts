import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { checkoutRows, markPaidReleasingTable, markPaidReleasingTableInTurn, orderItemRows } from '../src/model/checkout/close-order.ts';
import { orderPayments } from '../src/model/checkout/order-payments.ts';
import { liveAdjustmentRows } from '../src/model/orders/order-adjustments.ts';
import { productTaxRows } from '../src/model/checkout/tax-breakdown.ts';
import { openReadyOrder } from './terminals-helpers.ts';
import { printerRow } from '../src/testing/factories.ts';
import { releaseTableLink, releaseTableLinkInTurn } from '../src/model/orders/table-link.ts';
import type { Trx } from '../src/http/transaction.ts';
import { readThenRollBack } from '../src/testing/reads.ts';

/**
 * What a close reads under the order's lock (checkoutRows): on PostgreSQL one statement of JSON
 * lists, which must give the rows, values and order that the tables' own reads give (the lines'
 * products' taxes as their own read gives them). And the
 * folio it takes (on PostgreSQL with the order's UPDATE, in one statement).
 */
describe.each(testDatabaseKinds())('a close on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    expect((await admin.post<{ table: Table }>('/api/tables', { number: 341 })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('are the lines (deleted ones too), the payments and the live adjustments, each as its own table reads them', async () => {
    const ready = await openReadyOrder(server, admin, waiter, 341);
    const pin = server.users.admin.pin;
    const beer = ready.items.find((i) => i.productName === 'Cerveza clara')!;
    // A line with a note, then deleted with a PIN: its deletion columns filled, its note kept.
    const noted = await waiter.post<{ order: Order }>(`/api/orders/${ready.id}/items`, {
      productId: beer.productId,
      quantity: 2,
      notes: 'bien fría',
    });
    const extra = noted.body.order.items.find((i) => i.notes === 'bien fría')!;
    expect((await waiter.post(`/api/orders/${ready.id}/items/${extra.id}/delete`, { pin })).status).toBe(200);
    // A comp that stays and a discount removed again (not live: not read).
    expect(
      (
        await admin.post(`/api/orders/${ready.id}/adjustments`, {
          kind: 'comp',
          scope: 'item',
          itemId: beer.id,
          units: 1,
          reason: 'Cortesía de la casa',
          pin,
        })
      ).status,
    ).toBe(200);
    const discounted = await admin.post<{ order: Order }>(`/api/orders/${ready.id}/adjustments`, {
      kind: 'discount',
      scope: 'order',
      percentBps: 1000,
      reason: 'Cliente frecuente',
      pin,
    });
    expect(discounted.status).toBe(200);
    const discount = discounted.body.order.adjustments!.find((a) => a.kind === 'discount')!;
    expect((await admin.delete(`/api/orders/${ready.id}/adjustments/${discount.id}`, { pin })).status).toBe(200);
    // Two cash parts: payments with and without a tip, change and received amounts.
    for (const part of [
      { method: 'efectivo', amount: 1000, tipBps: 1000, receivedAmount: 2000 },
      { method: 'transferencia', amount: 500, tipAmount: 0, reference: 'SPEI 1' },
    ]) {
      const paid = await waiter.post(
        `/api/orders/${ready.id}/payments`,
        { pin: server.users.waiter.pin, ...part },
        { 'idempotency-key': crypto.randomUUID() },
      );
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    }

    const db = server.ctx.db.db;
    // A product with an IEPS rate, so a rate read as a string would differ from the plain read.
    await db.updateTable('products').set({ tax_treatment: 'iva16', ieps_rate_bp: 2650 }).where('id', '=', beer.productId).execute();
    // Which caja printers are on, for the close's ticket: on PostgreSQL read with the rest.
    const now = Date.now();
    await db
      .insertInto('printers')
      .values([
        printerRow({ name: 'Caja 2', role: 'caja', created_at: now }),
        printerRow({ name: 'Caja 1', role: 'caja', created_at: now }),
        printerRow({ name: 'Caja apagada', role: 'caja', created_at: now, enabled: 0 }),
        printerRow({ name: 'Cocina', role: 'cocina', created_at: now }),
      ])
      .execute();
    const cajas = await db
      .selectFrom('printers')
      .select(['id', 'role'])
      .where('role', '=', 'caja')
      .where('enabled', '=', 1)
      .orderBy('id')
      .execute();
    const { receiptPrinters, ...read } = await db.transaction().execute((trx) => checkoutRows(trx, ready.id));
    expect(receiptPrinters).toStrictEqual(kind === 'postgres' ? cajas : undefined);
    expect(cajas).toHaveLength(2);
    // The plain reads each table gives (SQLite's path of checkoutRows).
    const items = await orderItemRows(db, ready.id);
    const payments = await orderPayments(db, ready.id);
    const adjustments = await liveAdjustmentRows(db, ready.id);
    const productTaxes = await productTaxRows(
      db,
      items.map((i) => i.product_id),
    );
    expect([items.length, payments.length, adjustments.length, productTaxes.length]).toEqual([3, 2, 1, 2]);
    expect(items.filter((i) => Number(i.is_deleted) === 1)).toHaveLength(1);
    expect(productTaxes.map((t) => t.ieps_rate_bp)).toContain(2650);
    // Same keys, same values, same types (toStrictEqual: a number read as a string would fail).
    expect(read).toStrictEqual({ items, payments, adjustments, productTaxes });
  });

  it('are empty lists for an order with nothing yet', async () => {
    const tables = (await waiter.get<{ tables: Table[] }>('/api/tables')).body.tables;
    const free = tables.find((t) => t.status === 'libre')!;
    const opened = (await waiter.post<{ order: Order }>(`/api/tables/${free.id}/open`)).body.order;
    const { receiptPrinters: _printers, ...read } = await server.ctx.db.db.transaction().execute((trx) => checkoutRows(trx, opened.id));
    expect(read).toStrictEqual({ items: [], payments: [], adjustments: [], productTaxes: [] });
  });

  it('takes the next folio; a database without the folio counter starts it at 1', async () => {
    const db = server.ctx.db.db;
    expect(await db.selectFrom('orders').select('id').where('folio', 'is not', null).execute()).toEqual([]);
    await db.deleteFrom('counters').where('name', '=', 'folio').execute();
    const close = async (number: number) => {
      expect((await admin.post<{ table: Table }>('/api/tables', { number })).status).toBe(200);
      const ready = await openReadyOrder(server, admin, waiter, number);
      const body = { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 0, peopleCount: 1, receivedAmount: ready.subtotal };
      const res = await waiter.post<{ order: Order }>(`/api/orders/${ready.id}/close`, body, { 'idempotency-key': crypto.randomUUID() });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.order.folio;
    };
    expect(await close(342)).toBe(1);
    expect(await close(343)).toBe(2);
    const counter = await db.selectFrom('counters').select('value').where('name', '=', 'folio').executeTakeFirstOrThrow();
    expect(Number(counter.value)).toBe(2);
  });
  it('frees the table, or hands its link to the oldest other check, exactly as the reads in turn do', async () => {
    const waiter2 = await server.login(server.users.waiter2.email);
    const { tables } = (await admin.get<{ tables: Table[] }>('/api/tables')).body;
    const bar = tables.find((t) => t.number === 0)!;
    const tab = async (who: ApiClient, name: string) =>
      (await who.post<{ order: Order }>(`/api/tables/${bar.id}/tabs`, { name })).body.order;
    await tab(waiter, 'Cuenta de Ana');
    await tab(waiter2, 'Cuenta de Luis');
    const third = await tab(waiter, 'Cuenta de Eva');
    expect((await admin.post<{ table: Table }>('/api/tables', { number: 377 })).status).toBe(200);
    const alone = (await admin.get<{ tables: Table[] }>('/api/tables')).body.tables.find((t) => t.number === 377)!;
    const single = (await waiter.post<{ order: Order }>(`/api/tables/${alone.id}/open`)).body.order;

    type Release = typeof releaseTableLink;
    /** The order leaves (paid, its link cleared), the table is released: what it answers and leaves, rolled back. */
    const leave = (release: Release, tableId: string, orderId: string) =>
      readThenRollBack(server.ctx.db, async (trx: Trx) => {
        await trx.updateTable('orders').set({ status: 'pagado', active_table_id: null }).where('id', '=', orderId).execute();
        const card = await release(trx, tableId, orderId, 1_700_000_000_000);
        const table = await trx.selectFrom('tables').selectAll().where('id', '=', tableId).executeTakeFirstOrThrow();
        const links = await trx
          .selectFrom('orders')
          .select(['id', 'active_table_id'])
          .where('table_id', '=', tableId)
          .orderBy('id')
          .execute();
        return { card, table, links };
      });
    const both = async (tableId: string, orderId: string) => {
      const inOne = await leave(releaseTableLink, tableId, orderId);
      expect(inOne).toStrictEqual(await leave(releaseTableLinkInTurn, tableId, orderId));
      return inOne as {
        card: { status: string; waiterId: string | null } | null;
        table: { current_order_id: string | null; status: string };
      };
    };
    // The order the bar links leaves (an earlier test's, or the first tab): the link, and the
    // table's waiter, go to the oldest other activo order.
    const db = server.ctx.db.db;
    const linkedId = (await db.selectFrom('tables').select('current_order_id').where('id', '=', bar.id).executeTakeFirstOrThrow())
      .current_order_id!;
    const heir = await db
      .selectFrom('orders')
      .select(['id', 'waiter_id'])
      .where('table_id', '=', bar.id)
      .where('status', '=', 'activo')
      .where('id', '!=', linkedId)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const handed = await both(bar.id, linkedId);
    expect(handed.table).toMatchObject({ status: 'ocupada', current_order_id: heir.id });
    expect(handed.card).toMatchObject({ status: 'ocupada', waiterId: heir.waiter_id });
    // A tab the table does not link leaves: the table is left as it is.
    expect((await both(bar.id, third.id)).card).toBeNull();
    // The table's only order leaves: the table is freed.
    const freed = await both(alone.id, single.id);
    expect(freed.table).toMatchObject({ status: 'libre', current_order_id: null });
    expect(freed.card).toMatchObject({ status: 'libre', waiterId: null });

    // The order marked paid with its folio and the table released: one statement on PostgreSQL,
    // the UPDATEs and reads in turn on SQLite; the same answer and the same rows left either way.
    const figures = (now: number) => ({
      status: 'pagado' as const,
      active_table_id: null,
      payment_method: 'efectivo' as const,
      people_count: 3,
      subtotal: 12_000,
      discount: 500,
      comp: 0,
      tip: 1_150,
      total: 12_650,
      completed_at: now,
      updated_at: now,
    });
    type PaidRelease = typeof markPaidReleasingTable;
    const pay = (paidRelease: PaidRelease, tableId: string, orderId: string) =>
      readThenRollBack(server.ctx.db, async (trx: Trx) => {
        const now = 1_700_000_000_000;
        const answer = await paidRelease(trx, { orderId, tableId, now, figures: figures(now) });
        const table = await trx.selectFrom('tables').selectAll().where('id', '=', tableId).executeTakeFirstOrThrow();
        const orders = await trx.selectFrom('orders').selectAll().where('table_id', '=', tableId).orderBy('id').execute();
        const counter = await trx.selectFrom('counters').selectAll().where('name', '=', 'folio').executeTakeFirst();
        return { answer, table, orders, counter };
      });
    const paidBoth = async (tableId: string, orderId: string) => {
      const inOne = await pay(markPaidReleasingTable, tableId, orderId);
      expect(inOne).toStrictEqual(await pay(markPaidReleasingTableInTurn, tableId, orderId));
      return inOne as {
        answer: { paid: { id: string; status: string; folio: number; total: number }; table: { status: string } | null };
        counter: { value: number };
      };
    };
    const handedPaid = await paidBoth(bar.id, linkedId);
    expect(handedPaid.answer.paid).toMatchObject({ id: linkedId, status: 'pagado', total: 12_650 });
    expect(handedPaid.answer.paid.folio).toBe(Number(handedPaid.counter.value));
    expect(handedPaid.answer.table).toMatchObject({ status: 'ocupada' });
    expect((await paidBoth(bar.id, third.id)).answer.table).toBeNull();
    expect((await paidBoth(alone.id, single.id)).answer.table).toMatchObject({ status: 'libre' });
  });
});
