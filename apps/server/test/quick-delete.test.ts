import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, OrderChangeResponse, SessionUser, Table } from '@comanda/contract';
import { ORDER_CHANGE_PREFER } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { deleteItemInTypeScript } from '../src/features/orders/delete-item.command.ts';
import { quickDeleteItem } from '../src/features/orders/quick-delete.ts';
import { newId } from '../src/http/ids.ts';
import { insertCashPayment, insertProduct, insertStationPrinters } from '../src/testing/factories.ts';
import { withoutKey } from '../src/http/request-context.ts';
import { AppError } from '../src/http/errors.ts';

/**
 * PostgreSQL's one-statement delete with PIN (decision 0049) against the TypeScript delete it stands
 * in for: the same rows for the plain case; for anything else a hand-over that leaves nothing
 * behind, so the TypeScript delete answers; a PIN it does not accept keeps only its count.
 */
const onPostgres = testDatabaseKinds().includes('postgres');
/** PostgreSQL only (declared and skipped without TEST_DATABASE_URL: Vitest fails a file that declares none). */
const kinds = ['postgres'] as const;

describe.skipIf(!onPostgres).each(kinds)('the one-statement delete on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let waiterUser: SessionUser;
  let nextTable = 800;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    const u = server.users.waiter;
    waiterUser = { id: u.id, email: u.email, displayName: u.displayName, role: 'waiter' };
    // Two kitchen printers and one bar printer, enabled, and a disabled one.
    await insertStationPrinters(server.ctx.db.db, Date.now());
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.ctx.db.db;
  const count = async (table: 'idempotency_keys' | 'throttle_hits') =>
    Number((await db().selectFrom(table).select(db().fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const openOrder = async (): Promise<Order> => {
    const table = (await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ })).body.table;
    return (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`)).body.order;
  };
  const product = async (name: string, category: string, price = 4_500) =>
    (await insertProduct(db(), { name, category, price, available: 1, created_at: Date.now() })).id;
  const addLine = async (orderId: string, productId: string, quantity = 1, notes: string | null = null) =>
    (
      await waiter.post<OrderChangeResponse>(
        `/api/orders/${orderId}/items`,
        { productId, quantity, notes },
        { prefer: ORDER_CHANGE_PREFER, 'idempotency-key': randomUUID() },
      )
    ).body.change.items[0]!.id;
  const rowsOf = async (orderId: string) => ({
    items: await db().selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute(),
    slips: await db()
      .selectFrom('print_jobs')
      .select(['id', 'printer_id', 'role', 'order_id', 'kind', 'document', 'created_at'])
      .where('order_id', '=', orderId)
      .where('kind', '=', 'cancelacion')
      .orderBy('seq')
      .execute(),
    audit: await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', orderId)
      .where('action', '=', 'order.item-deleted')
      .orderBy('seq')
      .execute(),
    order: await db().selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow(),
    keys: await count('idempotency_keys'),
    hits: await count('throttle_hits'),
  });
  const counts = () => ({ ...server.ctx.db.quickDeletes! });
  const pinOf = (pin: string) => ({
    pin,
    actorId: waiterUser.id,
    ip: '127.0.0.1',
    purpose: 'delete-item',
    roles: ['admin'] as const,
    ownPinRefused: new AppError(403, 'not_admin_pin', 'own'),
  });

  it('deletes, for the plain case, with the very rows the TypeScript delete writes', async () => {
    const cases = [
      { name: 'Tacos de suadero', category: 'Comida', notes: 'sin cebolla', quantity: 3, printed: true },
      { name: 'Cerveza oscura', category: 'Bebida', notes: null, quantity: 2, printed: true },
      { name: 'Sopa de lima', category: 'Comida', notes: null, quantity: 1, printed: false },
    ];
    for (const c of cases) {
      const productId = await product(c.name, c.category);
      const order = await openOrder();
      // Both lines in the kitchen's hands: a pending twin would take the second add's units.
      const started = (id: string) => db().updateTable('order_items').set({ status: 'en_preparacion' }).where('id', '=', id).execute();
      const q = await addLine(order.id, productId, c.quantity, c.notes);
      await started(q);
      const t = await addLine(order.id, productId, c.quantity, c.notes);
      await started(t);
      // A line whose comanda never went out (its printers were off then) gets no slip.
      if (!c.printed) await db().deleteFrom('print_jobs').where('order_id', '=', order.id).execute();
      const start = await rowsOf(order.id);
      const before = counts();
      const input = { orderId: order.id, itemId: q, pin: server.users.admin.pin, ip: '127.0.0.1' };
      const quick = await quickDeleteItem(withoutKey(server.ctx), waiterUser, input, pinOf(input.pin));
      expect(quick, c.name).toBeDefined();
      expect(counts().taken).toBe(before.taken + 1);
      // The answer is what a read right after it gives: the order's figures and the deleted line.
      const read = (await waiter.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order;
      const { items: readItems, ...readOrder } = read;
      expect(quick!.change!.order).toEqual(readOrder);
      expect(quick!.change!.items).toEqual([readItems.find((i) => i.id === q)]);
      const afterQuick = await rowsOf(order.id);
      const typed = await deleteItemInTypeScript(withoutKey(server.ctx), waiterUser, { ...input, itemId: t });
      const after = await rowsOf(order.id);

      // Both lines marked deleted the same way, by the admin, but for the ids and times.
      const line = ({ id: _id, created_at: _c, updated_at: _u, deleted_at: _d, ...rest }: Record<string, unknown>) => rest;
      const [lq, lt] = [after.items.find((i) => i.id === q)!, after.items.find((i) => i.id === t)!];
      expect(lq.is_deleted).toBe(1);
      expect(lq.deleted_by).toBe(server.users.admin.id);
      expect(line(lq)).toEqual(line(lt));
      expect(lq.updated_at).toBe(lq.deleted_at);
      // The same slips: one per enabled printer of the line's station when its comanda was printed, the same document.
      const quickSlips = afterQuick.slips;
      const typedSlips = after.slips.filter((j) => !quickSlips.some((k) => k.id === j.id));
      expect(quickSlips.length, c.name).toBe(!c.printed ? 0 : lq.station === 'cocina' ? 2 : 1);
      const slip = (j: (typeof after.slips)[number], itemId: string) => ({
        printer_id: j.printer_id,
        role: j.role,
        kind: j.kind,
        document: j.document.replace(`"itemId":"${itemId}"`, '"itemId":"…"').replace(`"at":${j.created_at},`, '"at":0,'),
      });
      const byPrinter = (a: { printer_id: string }, b: { printer_id: string }) => (a.printer_id < b.printer_id ? -1 : 1);
      expect(quickSlips.map((j) => slip(j, q))).toEqual([...typedSlips].sort(byPrinter).map((j) => slip(j, t)));
      // The audit entries, but for their ids; authorised by the admin.
      const entry = (e: (typeof after.audit)[number], itemId: string) => {
        const { id: _id, seq: _s, at: _at, ...rest } = e;
        return { ...rest, data: e.data!.replace(`"itemId":"${itemId}"`, '"itemId":"…"') };
      };
      expect(after.audit).toHaveLength(2);
      expect(after.audit[0]!.authorized_by).toBe(server.users.admin.id);
      expect(entry(after.audit[0]!, q)).toEqual(entry(after.audit[1]!, t));
      // The order's figures: each delete bumps the version once and takes its line off the totals.
      expect(afterQuick.order.version).toBe(start.order.version + 1);
      expect(after.order.version).toBe(start.order.version + 2);
      expect(afterQuick.order.subtotal).toBe(start.order.subtotal / 2);
      expect(after.order.subtotal).toBe(0);
      expect(after.order.total).toBe(0);
      // Nothing counted on the PIN's budgets by either (a correct PIN is never a failure).
      expect(after.hits).toBe(start.hits);
      // The answers: the order after the write and the line it deleted.
      const { id: _qi, updatedAt: _qu, createdAt: _qc, deletedAt: _qd, ...quickItem } = quick!.change!.items[0]!;
      const { id: _ti, updatedAt: _tu, createdAt: _tc, deletedAt: _td, ...typedItem } = typed.change!.items[0]!;
      expect(quickItem).toEqual(typedItem);
    }
  });

  it('hands anything but the plain case to the TypeScript delete and keeps nothing of its own', async () => {
    const productId = await product('Quesadilla', 'Comida');
    const other = await server.login(server.users.waiter2.email);
    const order = await openOrder();
    const kept = await addLine(order.id, productId);
    const gone = await addLine(order.id, productId, 1, 'otra'); // notes of its own: a line apart from the pending one
    const del = (api: ApiClient, itemId: string, pin = server.users.admin.pin) =>
      api.post<OrderChangeResponse & { error?: { code: string } }>(
        `/api/orders/${order.id}/items/${itemId}/delete`,
        { pin },
        { prefer: ORDER_CHANGE_PREFER, 'idempotency-key': randomUUID() },
      );
    expect((await del(waiter, gone)).status).toBe(200);
    const refusals: [string, () => ReturnType<typeof del>, number, string][] = [
      ['another waiter', () => del(other, kept), 403, 'forbidden'],
      ['a line deleted already', () => del(waiter, gone), 409, 'item_deleted'],
      ['a line that is not there', () => del(waiter, newId()), 404, 'not_found'],
    ];
    for (const [name, send, status, code] of refusals) {
      const before = { rows: await rowsOf(order.id), counts: counts() };
      const res = await send();
      expect(res.status, name).toBe(status);
      expect(res.body.error?.code, name).toBe(code);
      expect(counts().handedOver, name).toBe(before.counts.handedOver + 1);
      const after = await rowsOf(order.id);
      expect(after.items, name).toEqual(before.rows.items);
      expect(after.slips, name).toEqual(before.rows.slips);
      expect(after.audit, name).toEqual(before.rows.audit);
      expect(after.order.version, name).toBe(before.rows.order.version);
      expect(after.keys, name).toBe(before.rows.keys); // the refused write's key is not kept
      expect(after.hits, name).toBe(before.rows.hits);
    }
    // A part paid on the order (a line stays to cover it): handed over, and the TypeScript delete does it.
    await addLine(order.id, productId, 1, 'aparte');
    await insertCashPayment(db(), order.id, { id: server.users.admin.id, name: 'Admin' }, { amount: 1_000, created_at: Date.now() });
    const before = counts();
    const paid = await del(waiter, kept);
    expect(paid.status).toBe(200);
    expect(counts()).toMatchObject({ taken: before.taken, handedOver: before.handedOver + 1 });
    expect((await rowsOf(order.id)).items.find((i) => i.id === kept)!.is_deleted).toBe(1);
  });

  it('keeps only the failure of a wrong PIN, as the TypeScript delete does, and refuses the caller\u2019s own PIN counting nothing', async () => {
    const productId = await product('Tostada', 'Comida');
    const order = await openOrder();
    const itemId = await addLine(order.id, productId);
    const wrongPin = server.users.admin.pin === '9876' ? '9875' : '9876';
    const del = (pin: string, key = randomUUID()) =>
      waiter.post<{ error?: { code: string } }>(`/api/orders/${order.id}/items/${itemId}/delete`, { pin }, { 'idempotency-key': key });
    const failed = async () =>
      Number(
        (
          await db()
            .selectFrom('audit_log')
            .select(db().fn.countAll<number>().as('n'))
            .where('action', '=', 'pin.failed')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const start = { rows: await rowsOf(order.id), failed: await failed(), counts: counts() };
    const key = randomUUID();
    const wrong = await del(wrongPin, key);
    expect(wrong.status).toBe(403);
    expect(wrong.body.error?.code).toBe('wrong_pin');
    const afterWrong = await rowsOf(order.id);
    // One failure on each budget (user, purpose, address, session), one audit entry; nothing else.
    expect(afterWrong.hits).toBe(start.rows.hits + 4);
    expect(await failed()).toBe(start.failed + 1);
    expect(afterWrong.items).toEqual(start.rows.items);
    expect(afterWrong.slips).toEqual([]);
    expect(afterWrong.audit).toEqual([]);
    expect(afterWrong.order.version).toBe(start.rows.order.version);
    expect(afterWrong.keys).toBe(start.rows.keys);
    expect(counts()).toEqual(start.counts); // neither taken nor handed over: answered
    // The TypeScript delete counts the same wrong PIN the same way.
    await expect(
      deleteItemInTypeScript(withoutKey(server.ctx), waiterUser, { orderId: order.id, itemId, pin: wrongPin, ip: '127.0.0.1' }),
    ).rejects.toMatchObject({ code: 'wrong_pin' });
    expect((await rowsOf(order.id)).hits).toBe(afterWrong.hits + 3); // no session given: three budgets
    // The waiter's own PIN: the spec's message, nothing counted.
    const hitsBefore = (await rowsOf(order.id)).hits;
    const own = await del(server.users.waiter.pin);
    expect(own.status).toBe(403);
    expect(own.body.error?.code).toBe('not_admin_pin');
    expect((await rowsOf(order.id)).hits).toBe(hitsBefore);
    // The same key again with the right PIN: the refusal kept no key, so it deletes now, once.
    const right = await del(server.users.admin.pin, key);
    expect(right.status).toBe(200);
    const end = await rowsOf(order.id);
    expect(end.audit).toHaveLength(1);
    expect(end.order.version).toBe(start.rows.order.version + 1);
  });

  it('deletes once per key when the same delete arrives several times at once, and answers the twins the same', async () => {
    const productId = await product('Cerveza clara', 'Bebida', 5_000);
    const order = await openOrder();
    const itemId = await addLine(order.id, productId, 2);
    await addLine(order.id, productId, 1, 'otra'); // a line of its own, not the pending line raised
    const start = await rowsOf(order.id);
    const key = randomUUID();
    const send = () =>
      waiter.post<OrderChangeResponse>(
        `/api/orders/${order.id}/items/${itemId}/delete`,
        { pin: server.users.admin.pin },
        { prefer: ORDER_CHANGE_PREFER, 'idempotency-key': key },
      );
    const answers = await Promise.all(Array.from({ length: 6 }, send));
    // The first commits; a twin that waited on the key is answered the stored answer, or told the
    // answer is on its way (409 idempotency_in_flight) in the moment before it is kept.
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.body.change.order.subtotal).toBe(5_000);
    const end = await rowsOf(order.id);
    expect(end.items.filter((i) => i.is_deleted === 1).map((i) => i.id)).toEqual([itemId]);
    expect(end.audit).toHaveLength(1);
    expect(end.slips).toHaveLength(1); // one barra printer
    expect(end.order.version).toBe(start.order.version + 1);
    expect(end.order.subtotal).toBe(5_000);
    expect(end.keys).toBe(start.keys + 1);
    // The server's metrics count both ways a delete went.
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain(`comanda_quick_deletes ${counts().taken}\n`);
    expect(metrics).toContain(`comanda_quick_delete_handovers ${counts().handedOver}\n`);
  });
});
