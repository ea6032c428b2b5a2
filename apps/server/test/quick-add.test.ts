import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, OrderChangeResponse, SessionUser, Table } from '@comanda/contract';
import { ORDER_CHANGE_PREFER } from '@comanda/contract';
import { BAR_CATEGORIES, BAR_TABLE_NUMBER, CARD_LIVE_STATES, INITIAL_ITEM_STATUS, ORDER_LIMITS } from '@comanda/domain';
import {
  apiClient,
  listenOnLoopback,
  startTestServer,
  statementsDuring,
  testDatabaseKinds,
  testServerConfig,
  type ApiClient,
  type TestServer,
} from '../src/testing/index.ts';
import { createServer, type RunningServer } from '../src/server.ts';
import { addItemInTypeScript } from '../src/features/orders/add-item.command.ts';
import { quickAddItem } from '../src/features/orders/quick-add.ts';
import { newId } from '../src/http/ids.ts';
import { insertProduct, insertStationPrinters } from '../src/testing/factories.ts';
import { orderItemRowCount } from '../src/testing/reads.ts';
import { sessionChanges, sessionHashOf } from './sessions-changed.ts';
import { withoutKey } from '../src/http/request-context.ts';

/**
 * PostgreSQL's one-statement add against the TypeScript add it stands in for: the
 * same rows for the plain case, and for anything else a hand-over that leaves nothing behind, so
 * the TypeScript add gives the answer. The rest of the suite runs on PostgreSQL through it too.
 */
const onPostgres = testDatabaseKinds().includes('postgres');
/**
 * PostgreSQL only. Without TEST_DATABASE_URL the suites are still declared, and skipped: a file
 * whose every `describe.each` gets an empty list declares none, and Vitest fails the file.
 */
const kinds = ['postgres'] as const;

/** How many idempotency keys the server keeps: a refused write must not keep its key. */
const keyCount = async (server: TestServer) => {
  const db = server.ctx.db.db;
  return Number((await db.selectFrom('idempotency_keys').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
};

describe.skipIf(!onPostgres).each(kinds)('the one-statement add on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let waiterUser: SessionUser;
  let nextTable = 700;

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
  const openOrder = async (): Promise<Order> => {
    const table = (await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ })).body.table;
    return (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`)).body.order;
  };
  const product = async (name: string, category: string, price = 4_500, available = 1) =>
    (await insertProduct(db(), { name, category, price, available, created_at: Date.now() })).id;
  const rowsOf = async (orderId: string) => ({
    items: await db().selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute(),
    jobs: await db().selectFrom('print_jobs').selectAll().where('order_id', '=', orderId).orderBy('seq').execute(),
    audit: await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', orderId)
      .where('action', '=', 'order.item-added')
      .orderBy('seq')
      .execute(),
    order: await db().selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow(),
    keys: await keyCount(server),
  });
  const counts = () => ({ ...server.ctx.db.quickAdds! });

  it('writes, for the plain case, the very rows the TypeScript add writes', async () => {
    const cases = [
      { name: 'Tacos al pastor', category: 'Comida', notes: '  sin cebolla ', quantity: 3 },
      { name: 'Cerveza de barril', category: ' BEBIDA ', notes: null, quantity: 2 },
      { name: 'Mezcal', category: 'Shot', notes: 'con naranja', quantity: 1 },
      { name: 'Pastel de elote', category: 'Postre típico', notes: '', quantity: 99 },
    ];
    for (const c of cases) {
      const productId = await product(c.name, c.category);
      const order = await openOrder();
      const input = { orderId: order.id, productId, quantity: c.quantity, notes: c.notes };
      const before = counts();
      const quick = await quickAddItem(withoutKey(server.ctx), waiterUser, input);
      expect(quick, c.name).toBeDefined();
      expect(counts().taken).toBe(before.taken + 1);
      // The answer is what a read right after it gives: the order's figures and the new line.
      const read = (await waiter.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order;
      const { items: readItems, ...readOrder } = read;
      expect(quick!.change!.order).toEqual(readOrder);
      expect(quick!.change!.items).toEqual(readItems);
      const afterQuick = await rowsOf(order.id);
      // The TypeScript add would raise the pending line the statement made (the same product and
      // notes): the kitchen has it in hand meanwhile, and it reads pending again for the comparison.
      const quickLine = afterQuick.items[0]!.id;
      await db().updateTable('order_items').set({ status: 'en_preparacion' }).where('id', '=', quickLine).execute();
      const typed = await addItemInTypeScript(withoutKey(server.ctx), waiterUser, input);
      await db().updateTable('order_items').set({ status: INITIAL_ITEM_STATUS }).where('id', '=', quickLine).execute();
      const after = await rowsOf(order.id);

      // One line each, the same but for the ids and the order's version.
      expect(after.items).toHaveLength(2);
      const [q, t] = after.items;
      const line = ({ id: _id, created_at: _c, updated_at: _u, ...rest }: Record<string, unknown>) => rest;
      expect(line(q!)).toEqual(line(t!));
      expect(q!.created_at).toBe(q!.updated_at);
      // The same comandas: one per enabled printer of the line's station, the same document.
      // (Sorted by printer: the TypeScript add's comandas ride on one statement as CTEs, whose order PostgreSQL leaves open.)
      const byPrinter = (a: { printer_id: string }, b: { printer_id: string }) => a.printer_id.localeCompare(b.printer_id);
      const quickJobs = after.jobs.filter((j) => afterQuick.jobs.some((k) => k.id === j.id)).sort(byPrinter);
      const typedJobs = after.jobs.filter((j) => !quickJobs.includes(j)).sort(byPrinter);
      expect(quickJobs.length, c.name).toBe(q!.station === 'cocina' ? 2 : 1);
      expect(typedJobs.map((j) => j.printer_id)).toEqual(quickJobs.map((j) => j.printer_id));
      // The documents to the letter (a cancelation finds its comanda by the text), but for the line's id and the time.
      const job = (j: (typeof after.jobs)[number], itemId: string, at: number) => {
        // What the add writes; the print worker may already be delivering it (state, attempts, lease…).
        const { printer_id, role, order_id, kind, document } = j;
        return {
          printer_id,
          role,
          order_id,
          kind,
          document: document.replace(`"itemId":"${itemId}"`, '"itemId":"…"').replace(`"at":${at},`, '"at":0,'),
        };
      };
      expect(quickJobs.map((j) => job(j, q!.id, Number(q!.created_at)))).toEqual(
        typedJobs.map((j) => job(j, t!.id, Number(t!.created_at))),
      );
      // The audit entries, but for their ids.
      const entry = (e: (typeof after.audit)[number], itemId: string) => {
        const { id: _id, seq: _s, at: _at, ...rest } = e;
        return { ...rest, data: e.data!.replace(`"itemId":"${itemId}"`, '"itemId":"…"') };
      };
      expect(after.audit).toHaveLength(2);
      expect(entry(after.audit[0]!, q!.id)).toEqual(entry(after.audit[1]!, t!.id));
      expect(JSON.parse(after.audit[0]!.data!).itemId).toBe(q!.id);
      // The order's figures: each add bumps the version once and adds its line to the totals.
      expect(afterQuick.order.version).toBe(order.version + 1);
      expect(after.order.version).toBe(order.version + 2);
      expect(afterQuick.order.subtotal).toBe(Number(q!.product_price) * c.quantity);
      expect(after.order.subtotal).toBe(2 * Number(q!.product_price) * c.quantity);
      expect(after.order.total).toBe(after.order.subtotal);
      // The answers: the order after the write and the line it made.
      expect(quick!.change!.items[0]!.id).toBe(q!.id);
      expect(typed.change!.items[0]!.id).toBe(t!.id);
      const { id: _qi, createdAt: _qc, updatedAt: _qu, ...quickItem } = quick!.change!.items[0]!;
      const { id: _ti, createdAt: _tc, updatedAt: _tu, ...typedItem } = typed.change!.items[0]!;
      expect(quickItem).toEqual(typedItem);
      expect(quick!.change!.order.subtotal).toBe(afterQuick.order.subtotal);
      expect(quick!.change!.order.version).toBe(afterQuick.order.version);
    }
  });

  it('hands anything but the plain case to the TypeScript add and keeps nothing of its own', async () => {
    const plain = await product('Agua fresca', 'Bebida');
    const soldOut = await product('Pozole', 'Comida', 9_000, 0);
    const tab = await product('Ron', 'Bebida\t');
    const dear = await product('Botella reserva', 'Botella', 2_000_000);
    const other = await server.login(server.users.waiter2.email);
    const order = await openOrder();
    const add = (api: ApiClient, body: Record<string, unknown>, key = randomUUID()) =>
      api.post<OrderChangeResponse & { error?: { code: string } }>(`/api/orders/${order.id}/items`, body, {
        prefer: ORDER_CHANGE_PREFER,
        'idempotency-key': key,
      });
    const refusals: [string, () => ReturnType<typeof add>, number, string | null][] = [
      ['another waiter', () => add(other, { productId: plain, quantity: 1 }), 403, null],
      ['sold out', () => add(waiter, { productId: soldOut, quantity: 1 }), 409, 'product_unavailable'],
      ['unknown product', () => add(waiter, { productId: newId(), quantity: 1 }), 404, null],
      ['past the amount limit', () => add(waiter, { productId: dear, quantity: 99 }), 422, 'order_amount_limit'],
    ];
    for (const [name, send, status, code] of refusals) {
      const before = { rows: await rowsOf(order.id), counts: counts() };
      const res = await send();
      expect(res.status, name).toBe(status);
      if (code) expect(res.body.error?.code, name).toBe(code);
      expect(counts().handedOver, name).toBe(before.counts.handedOver + 1);
      const after = await rowsOf(order.id);
      expect(after.items, name).toEqual(before.rows.items);
      expect(after.jobs, name).toEqual(before.rows.jobs);
      expect(after.order.version, name).toBe(before.rows.order.version);
      expect(after.keys, name).toBe(before.rows.keys); // the refused write's key is not kept
    }
    // A category this statement cannot place with certainty goes the long way, and lands the same.
    const before = counts();
    const res = await add(waiter, { productId: tab, quantity: 1 });
    expect(res.status).toBe(200);
    expect(counts()).toMatchObject({ taken: before.taken, handedOver: before.handedOver + 1 });
    expect(res.body.change.items[0]!.station).toBe('barra');
    // A closed order: handed over, refused.
    expect((await admin.post(`/api/orders/${order.id}/cancel`, { reason: 'Otro', pin: server.users.admin.pin })).status).toBe(200);
    const closed = await add(waiter, { productId: plain, quantity: 1 });
    expect(closed.status).toBe(409);
    expect(closed.body.error?.code).toBe('order_closed');
  });

  it('adds once per key when the same add arrives twice at once, and answers the twin the same', async () => {
    const productId = await product('Michelada', 'Bebida');
    const order = await openOrder();
    const key = randomUUID();
    const send = () =>
      waiter.post<OrderChangeResponse>(
        `/api/orders/${order.id}/items`,
        { productId, quantity: 1 },
        { prefer: ORDER_CHANGE_PREFER, 'idempotency-key': key },
      );
    const answers = await Promise.all(Array.from({ length: 8 }, send));
    // The first commits; a twin that waited on the key is answered the stored answer, or told the
    // answer is on its way (409 idempotency_in_flight) in the moment before it is kept.
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    const ids = new Set(ok.map((a) => a.body.change.items[0]!.id));
    expect(ids.size).toBe(1);
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.body.change.items[0]!.id).toBe([...ids][0]);
    const rows = await rowsOf(order.id);
    expect(rows.items).toHaveLength(1);
    expect(rows.jobs).toHaveLength(1);
    expect(rows.audit).toHaveLength(1);
    expect(rows.order.version).toBe(order.version + 1);
  });

  it('keeps the exact count and total under 200 concurrent adds to one order', async () => {
    const productId = await product('Refresco', 'Bebida', 3_500);
    const order = await openOrder();
    const before = counts();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        waiter.post(
          `/api/orders/${order.id}/items`,
          // Each a line of its own: the same notes on a pending line would raise it (the long way).
          { productId, quantity: 1, notes: `${i}` },
          { prefer: ORDER_CHANGE_PREFER, 'idempotency-key': randomUUID() },
        ),
      ),
    );
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(counts().taken).toBe(before.taken + 200);
    const rows = await rowsOf(order.id);
    expect(rows.items).toHaveLength(200);
    expect(rows.jobs).toHaveLength(200);
    expect(rows.audit).toHaveLength(200);
    expect(rows.order.subtotal).toBe(200 * 3_500);
    expect(rows.order.version).toBe(order.version + 200);
    // 200 at once: those that came while both lanes were busy went in groups.
    expect(counts().groups).toBeGreaterThan(before.groups);
    expect(counts().grouped - before.grouped).toBeGreaterThan(counts().groups - before.groups);
    // The server's metrics count both ways an add went, and the groups.
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain(`comanda_quick_adds ${counts().taken}\n`);
    expect(metrics).toContain(`comanda_quick_add_handovers ${counts().handedOver}\n`);
    expect(metrics).toContain(`comanda_quick_add_groups ${counts().groups}\n`);
    expect(metrics).toContain(`comanda_quick_add_grouped ${counts().grouped}\n`);
  });

  it('adds raising a line while the board moves that very line back and forth: every answer 200, every unit counted', async () => {
    // The board locks the order before the line, as the add does: the other way round, PostgreSQL
    // could find a deadlock between the two and refuse one of them, and a touch that waited for the
    // lock in its own statement would write a subtotal from before the raises it waited for.
    const productId = await product('Agua mineral', 'Bebida', 2_000);
    const order = await openOrder();
    const add = () =>
      waiter.post(
        `/api/orders/${order.id}/items`,
        { productId, quantity: 1 },
        { prefer: ORDER_CHANGE_PREFER, 'idempotency-key': randomUUID() },
      );
    expect((await add()).status).toBe(200);
    const lineId = (await rowsOf(order.id)).items[0]!.id;
    const moves = Array.from({ length: 30 }, (_, i) =>
      admin.patch(`/api/orders/${order.id}/items/${lineId}/status`, { status: i % 2 === 0 ? 'listo' : 'pendiente' }),
    );
    const answers = await Promise.all([...moves, ...Array.from({ length: 30 }, add)]);
    expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
    const rows = await rowsOf(order.id);
    expect(rows.items.reduce((units, line) => units + line.quantity, 0)).toBe(31);
    // The status change's touch reads the lines after the lock: the subtotal counts every raise.
    expect(rows.order.subtotal).toBe(31 * 2_000);
  });

  it('in a group, a member that fails is undone alone: the others keep their rows, its key is not kept', async () => {
    const productId = await product('Agua mineral', 'Bebida', 3_000);
    const [a, b, c] = [await openOrder(), await openOrder(), await openOrder()];
    const taken = (await rowsOf(a.id)).items; // none yet
    expect(taken).toEqual([]);
    // b's member reuses an existing line's id: its insert fails inside the group (unique_violation).
    const existing = await db().selectFrom('order_items').select('id').executeTakeFirstOrThrow();
    const member = (orderId: string, itemId: string) => ({
      key: randomUUID(),
      scope: 'test',
      hash: 'h',
      orderId,
      productId,
      quantity: 2,
      notes: null,
      userId: waiterUser.id,
      userName: waiterUser.displayName,
      session: null,
      role: 'waiter',
      itemId,
      auditId: newId(),
      jobIds: [newId(), newId(), newId(), newId()].join(','),
    });
    const members = [member(a.id, newId()), member(b.id, existing.id), member(c.id, newId())];
    const keysBefore = await keyCount(server);
    const { rows } = await sql<{ result: ({ item: { id: string } } | { error: string } | { handedOver: true })[] }>`
      select comanda_quick_add_many(${JSON.stringify(members)}::json, ${Date.now()}::bigint, 3600000::bigint, 60000::bigint,
        ${[...BAR_CATEGORIES]}::text[], ${BAR_TABLE_NUMBER}::integer, ${ORDER_LIMITS.maxLines}::integer, ${ORDER_LIMITS.maxOrderAmount}::bigint,
        ${INITIAL_ITEM_STATUS}, ${[...CARD_LIVE_STATES]}::text[]) as result`.execute(db());
    const answers = rows[0]!.result;
    expect(answers).toHaveLength(3);
    expect(answers[0]).toMatchObject({ item: { id: members[0]!.itemId } });
    expect(answers[1]).toEqual({ error: '23505' });
    expect(answers[2]).toMatchObject({ item: { id: members[2]!.itemId } });
    for (const [order, lines] of [
      [a, 1],
      [b, 0],
      [c, 1],
    ] as const) {
      const r = await rowsOf(order.id);
      expect(r.items, order.id).toHaveLength(lines);
      expect(r.audit, order.id).toHaveLength(lines);
      expect(r.order.subtotal, order.id).toBe(lines * 6_000);
      expect(r.order.version, order.id).toBe(order.version + lines);
    }
    expect(await keyCount(server)).toBe(keysBefore + 2);
  });

  it('in a group, an add that is not the plain case is handed over alone and answered the long way; the rest of its group lands', async () => {
    const productId = await product('Limonada', 'Bebida', 2_500);
    const orders = await Promise.all(Array.from({ length: 12 }, () => openOrder()));
    const closed = orders[11]!;
    expect((await admin.post(`/api/orders/${closed.id}/cancel`, { reason: 'Otro', pin: server.users.admin.pin })).status).toBe(200);
    const before = counts();
    // Sent at once: the first two take the lanes, the rest wait and go together.
    const answers = await Promise.all(
      orders.map((o) =>
        waiter.post(
          `/api/orders/${o.id}/items`,
          { productId, quantity: 1 },
          { prefer: ORDER_CHANGE_PREFER, 'idempotency-key': randomUUID() },
        ),
      ),
    );
    expect(answers.slice(0, 11).map((r) => r.status)).toEqual(Array.from({ length: 11 }, () => 200));
    expect(answers[11]!.status).toBe(409);
    expect(counts().groups).toBeGreaterThan(before.groups);
    expect(counts().handedOver).toBe(before.handedOver + 1);
    for (const o of orders.slice(0, 11)) expect((await rowsOf(o.id)).items, o.id).toHaveLength(1);
    expect((await rowsOf(closed.id)).items).toHaveLength(0);
  });
});

describe.skipIf(!onPostgres).each(kinds)('a remembered session checked by the add itself on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let now = Date.UTC(2026, 10, 27, 20, 0);
  const clock = { now: () => now };
  let nextTable = 800;
  let productId: string;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
    admin = await server.login(server.users.admin.email);
    productId = (await server.ctx.db.db.selectFrom('products').select('id').where('category', '=', 'Comida').executeTakeFirstOrThrow()).id;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.ctx.db.db;
  const hashOf = sessionHashOf;
  /** A waiter signed in afresh, with an open order of their own. */
  const waiterWithOrder = async () => {
    const waiter = await server.login(server.users.waiter.email);
    const table = (await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ })).body.table;
    const order = (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`)).body.order;
    return { waiter, order };
  };
  const add = (api: ApiClient, orderId: string) =>
    api.post<OrderChangeResponse & { error?: { code: string } }>(
      `/api/orders/${orderId}/items`,
      // Notes of its own: the plain case, never a pending line to raise.
      { productId, quantity: 1, notes: randomUUID() },
      { prefer: ORDER_CHANGE_PREFER, 'idempotency-key': randomUUID() },
    );
  const linesOf = (orderId: string) => orderItemRowCount(db(), orderId);
  const statementsOf = (write: () => Promise<unknown>) => statementsDuring(server.ctx.db, write);

  it('does not read a session this process resolved lately: the add checks it, and marks it seen', async () => {
    const { waiter, order } = await waiterWithOrder();
    const seen = await statementsOf(async () => expect((await add(waiter, order.id)).status).toBe(200));
    expect(seen.filter((s) => /from "sessions"/.test(s))).toEqual([]);
    expect(seen.filter((s) => /comanda_quick_add/.test(s))).toHaveLength(1);
    // Two minutes on, the add itself marks the session seen (resolveSession does it once a minute).
    now += 2 * 60_000;
    expect((await add(waiter, order.id)).status).toBe(200);
    const row = await db().selectFrom('sessions').select('last_seen_at').where('token_hash', '=', hashOf(waiter)).executeTakeFirstOrThrow();
    expect(Number(row.last_seen_at)).toBe(now);
    expect(await linesOf(order.id)).toBe(2);
  });

  it('refuses, and writes nothing, when another process ended the session or changed its user', async () => {
    const cases = sessionChanges(db, { id: server.users.waiter.id, role: 'waiter' }, { role: 'kitchen', name: 'a cook' });
    for (const [name, change, status, undo] of cases) {
      const { waiter, order } = await waiterWithOrder();
      expect((await add(waiter, order.id)).status, name).toBe(200);
      const keys = await keyCount(server);
      const handedOver = server.ctx.db.quickAdds!.handedOver;
      await change(waiter);
      const res = await add(waiter, order.id);
      await undo();
      expect(res.status, name).toBe(status);
      expect(server.ctx.db.quickAdds!.handedOver, name).toBe(handedOver + 1);
      expect(await linesOf(order.id), name).toBe(1);
      expect(await keyCount(server), name).toBe(keys);
    }
  });

  it('refuses a session idle past its limit, and adds under a renamed user with the new name', async () => {
    const first = await waiterWithOrder();
    now += 12 * 60 * 60_000 + 1;
    expect((await add(first.waiter, first.order.id)).status).toBe(401);
    expect(await linesOf(first.order.id)).toBe(0);

    admin = await server.login(server.users.admin.email); // idle as long: signed in again
    const { waiter, order } = await waiterWithOrder();
    expect((await add(waiter, order.id)).status).toBe(200);
    await db().updateTable('users').set({ display_name: 'Mesero Renombrado' }).where('id', '=', server.users.waiter.id).execute();
    try {
      const res = await add(waiter, order.id);
      expect(res.status).toBe(200);
      const entry = await db()
        .selectFrom('audit_log')
        .select('actor_name')
        .where('entity_id', '=', order.id)
        .where('action', '=', 'order.item-added')
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow();
      expect(entry.actor_name).toBe('Mesero Renombrado');
    } finally {
      await db()
        .updateTable('users')
        .set({ display_name: server.users.waiter.displayName })
        .where('id', '=', server.users.waiter.id)
        .execute();
    }
  });
});

describe.skipIf(!onPostgres).each(kinds)(
  'two server processes on one %s database: a session ended on one is refused by the other',
  (kind) => {
    let a: TestServer;
    let b: RunningServer;
    let bUrl: string;
    let nextTable = 900;

    beforeAll(async () => {
      a = await startTestServer(kind);
      // The second server: the same database and data directory, as a second process of the bar's would.
      b = await createServer({
        config: testServerConfig({ url: a.ctx.config.DATABASE_URL, dataDir: a.ctx.config.DATA_DIR }, { BACKUP_EVERY: 'off' }),
        log: () => undefined,
      });
      bUrl = await listenOnLoopback(b);
    }, 60_000);
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    const lines = (orderId: string) => orderItemRowCount(a.ctx.db.db, orderId);

    it('signed out on B, or deactivated there by the admin: the next add on A is 401 and writes nothing', async () => {
      const productId = (await a.ctx.db.db.selectFrom('products').select('id').where('category', '=', 'Comida').executeTakeFirstOrThrow())
        .id;
      const admin = await a.login(a.users.admin.email);
      const endings: [string, (waiter: ApiClient) => Promise<unknown>][] = [
        ['signed out on B', (waiter) => apiClient(bUrl, waiter.cookie).post('/api/auth/logout')],
        [
          'deactivated on B',
          async () => {
            const adminOnB = apiClient(bUrl, admin.cookie);
            expect((await adminOnB.request('PATCH', `/api/users/${a.users.waiter.id}/active`, { active: false })).status).toBe(200);
          },
        ],
      ];
      for (const [name, end] of endings) {
        const waiter = await a.login(a.users.waiter.email);
        const table = (await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ })).body.table;
        const order = (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`)).body.order;
        const add = () =>
          waiter.post(
            `/api/orders/${order.id}/items`,
            { productId, quantity: 1, notes: randomUUID() },
            { prefer: ORDER_CHANGE_PREFER, 'idempotency-key': randomUUID() },
          );
        expect((await add()).status, name).toBe(200); // A now remembers the session
        expect((await add()).status, name).toBe(200);
        await end(waiter);
        expect((await add()).status, name).toBe(401);
        expect(await lines(order.id), name).toBe(2);
        await a.ctx.db.db.updateTable('users').set({ active: 1 }).where('id', '=', a.users.waiter.id).execute();
        // The order stays open and its owner signs in again to close the night: cancel it to keep the data whole.
        expect((await admin.post(`/api/orders/${order.id}/cancel`, { reason: 'Otro', pin: a.users.admin.pin })).status, name).toBe(200);
      }
    });
  },
);
