import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { IDEMPOTENCY_KEEP_MS, sweep } from '../src/features/maintenance/housekeeping.ts';
import { sha256 } from '../src/http/ids.ts';
import { RESPONSE_GRACE_MS } from '../src/http/idempotency.ts';

type Err = { error: { code: string; message: string } };
const REUSED = 'La clave de idempotencia ya se usó con otra solicitud';
const key = () => randomUUID();

describe.each(testDatabaseKinds())('Idempotency-Key on every mutating route on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let kitchen: ApiClient;
  let now = Date.UTC(2026, 10, 21, 20, 0);
  const clock = { now: () => now };
  let nextTable = 300;
  let productId: string;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    kitchen = await server.login(server.users.kitchen.email);
    const product = await server.ctx.db.db.selectFrom('products').select('id').where('category', '=', 'Comida').executeTakeFirstOrThrow();
    productId = product.id;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const count = async (table: 'audit_log' | 'order_items' | 'orders' | 'tables' | 'products' | 'users' | 'idempotency_keys') => {
    const db = server.ctx.db.db;
    const row = await db.selectFrom(table).select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const send = <T = unknown>(api: ApiClient, method: string, path: string, body: unknown, k: string | null) =>
    api.request<T & Err>(method, path, body, k ? { 'idempotency-key': k } : {});
  const newTable = async (): Promise<Table> => {
    const res = await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ });
    expect(res.status).toBe(200);
    return res.body.table;
  };
  const openOrder = async (): Promise<Order> => {
    const table = await newTable();
    const res = await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`);
    expect(res.status).toBe(200);
    return res.body.order;
  };
  /** With `started`, the kitchen has the line in hand: added units make a row of their own (a pending line would be raised). */
  const orderWithItem = async (started = false) => {
    const order = await openOrder();
    const res = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId, quantity: 1 });
    const itemId = res.body.order.items[0]!.id;
    if (started) await server.ctx.db.db.updateTable('order_items').set({ status: 'en_preparacion' }).where('id', '=', itemId).execute();
    return { order, itemId };
  };

  interface Case {
    name: string;
    api: () => ApiClient;
    /** The request to repeat, and another one for the same route under the same key. */
    prepare: () => Promise<{ method: string; path: string; body?: unknown; other: { path: string; body?: unknown } }>;
    /** The row count that the write grows, besides the audit log. */
    rows?: Parameters<typeof count>[0];
  }

  const cases: Case[] = [
    {
      name: 'open a table',
      api: () => waiter,
      rows: 'orders',
      prepare: async () => {
        const [a, b] = [await newTable(), await newTable()];
        return { method: 'POST', path: `/api/tables/${a.id}/open`, other: { path: `/api/tables/${b.id}/open` } };
      },
    },
    {
      name: 'add an item',
      api: () => waiter,
      rows: 'order_items',
      prepare: async () => {
        const order = await openOrder();
        const path = `/api/orders/${order.id}/items`;
        return { method: 'POST', path, body: { productId, quantity: 1 }, other: { path, body: { productId, quantity: 2 } } };
      },
    },
    {
      name: 'add units',
      api: () => waiter,
      rows: 'order_items',
      prepare: async () => {
        const { order, itemId } = await orderWithItem(true);
        const path = `/api/orders/${order.id}/items/${itemId}/units`;
        return { method: 'POST', path, body: { quantity: 1 }, other: { path, body: { quantity: 3 } } };
      },
    },
    {
      name: 'update an order (guests and name)',
      api: () => waiter,
      prepare: async () => {
        const order = await openOrder();
        const path = `/api/orders/${order.id}`;
        return { method: 'PATCH', path, body: { peopleCount: 4, tableName: 'Terraza' }, other: { path, body: { peopleCount: 5 } } };
      },
    },
    {
      name: 'delete an item with a PIN',
      api: () => waiter,
      prepare: async () => {
        const { order, itemId } = await orderWithItem(true);
        const second = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId, quantity: 2 });
        const otherId = second.body.order.items.find((i) => i.id !== itemId)!.id;
        const pin = { pin: server.users.admin.pin };
        return {
          method: 'POST',
          path: `/api/orders/${order.id}/items/${itemId}/delete`,
          body: pin,
          other: { path: `/api/orders/${order.id}/items/${otherId}/delete`, body: pin },
        };
      },
    },
    {
      name: 'change an item status on the board',
      api: () => kitchen,
      prepare: async () => {
        const { order, itemId } = await orderWithItem();
        const path = `/api/orders/${order.id}/items/${itemId}/status`;
        return { method: 'PATCH', path, body: { status: 'en_preparacion' }, other: { path, body: { status: 'listo' } } };
      },
    },
    {
      name: 'create a product',
      api: () => admin,
      rows: 'products',
      prepare: async () => {
        const body = { name: `Sope ${key().slice(0, 6)}`, price: 4500, category: 'Comida' };
        return { method: 'POST', path: '/api/products', body, other: { path: '/api/products', body: { ...body, price: 5000 } } };
      },
    },
    {
      name: 'save the general settings',
      api: () => admin,
      prepare: async () => {
        const path = '/api/config/general';
        const general = { name: '', logoUrl: '', address: 'Centro', phone: '555' };
        return { method: 'PUT', path, body: { ...general, name: 'La Cantina' }, other: { path, body: { ...general, name: 'Otra' } } };
      },
    },
    {
      name: 'create a user',
      api: () => admin,
      rows: 'users',
      prepare: async () => {
        const email = `mesero-${key().slice(0, 8)}@example.com`;
        const body = { displayName: 'Mesero Nuevo', email, role: 'waiter' };
        return { method: 'POST', path: '/api/users', body, other: { path: '/api/users', body: { ...body, email: `otro-${email}` } } };
      },
    },
    {
      name: 'create a table',
      api: () => admin,
      rows: 'tables',
      prepare: async () => {
        const number = nextTable++;
        return { method: 'POST', path: '/api/tables', body: { number }, other: { path: '/api/tables', body: { number: nextTable++ } } };
      },
    },
    {
      name: 'delete a table',
      api: () => admin,
      rows: 'tables',
      prepare: async () => {
        const [a, b] = [await newTable(), await newTable()];
        return { method: 'DELETE', path: `/api/tables/${a.id}`, other: { path: `/api/tables/${b.id}` } };
      },
    },
  ];

  it.each(cases)('$name: the same key answers the first response and writes once; another request under it is refused', async (c) => {
    const req = await c.prepare();
    const k = key();
    const auditBefore = await count('audit_log');
    const rowsBefore = c.rows ? await count(c.rows) : 0;
    const first = await send(c.api(), req.method, req.path, req.body, k);
    expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
    const auditAfter = await count('audit_log');
    const rowsAfter = c.rows ? await count(c.rows) : 0;
    expect(auditAfter).toBeGreaterThan(auditBefore);

    const again = await send(c.api(), req.method, req.path, req.body, k);
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(await count('audit_log')).toBe(auditAfter);
    if (c.rows) expect(await count(c.rows)).toBe(rowsAfter);
    if (c.rows) expect(Math.abs(rowsAfter - rowsBefore)).toBe(1);

    const other = await send(c.api(), req.method, req.other.path, req.other.body, k);
    expect(other.status).toBe(422);
    expect(other.body.error).toEqual({ code: 'idempotency_key_reused', message: REUSED });
    expect(await count('audit_log')).toBe(auditAfter);

    // Without the header nothing changes: each request is its own.
    const plain = await send(c.api(), req.method, req.other.path, req.other.body, null);
    expect(plain.status).toBeLessThan(300);
  });

  it('scopes keys per user, method and route', async () => {
    const k = key();
    const a = await openOrder();
    const b = await openOrder();
    const items = await count('order_items');
    expect((await send(waiter, 'POST', `/api/orders/${a.id}/items`, { productId, quantity: 1 }, k)).status).toBe(200);
    // Another route under the same key is another request.
    expect((await send(waiter, 'PATCH', `/api/orders/${a.id}`, { peopleCount: 2 }, k)).status).toBe(200);
    // Another user under the same key is another request (the admin may work any order).
    expect((await send(admin, 'POST', `/api/orders/${b.id}/items`, { productId, quantity: 1 }, k)).status).toBe(200);
    expect(await count('order_items')).toBe(items + 2);
  });

  it('refuses a malformed key, and stores nothing for a refused request', async () => {
    const order = await openOrder();
    const bad = await send(waiter, 'POST', `/api/orders/${order.id}/items`, { productId, quantity: 1 }, 'x');
    expect(bad.status).toBe(400);
    const k = key();
    const keys = await count('idempotency_keys');
    const refused = await send(waiter, 'POST', `/api/orders/${order.id}/items`, { productId: randomUUID(), quantity: 1 }, k);
    expect(refused.status).toBe(404);
    expect(await count('idempotency_keys')).toBe(keys);
    // The client may retry the refused request; it runs again (and is refused again).
    expect((await send(waiter, 'POST', `/api/orders/${order.id}/items`, { productId: randomUUID(), quantity: 1 }, k)).status).toBe(404);
  });

  it('never stores a PIN that could be read back from the request hash', async () => {
    const { order, itemId } = await orderWithItem();
    const k = key();
    const res = await send(waiter, 'POST', `/api/orders/${order.id}/items/${itemId}/delete`, { pin: server.users.admin.pin }, k);
    expect(res.status).toBe(200);
    const rows = await server.ctx.db.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(`"${server.users.admin.pin}"`);
    expect(rows.some((r) => r.key.includes(k))).toBe(false); // stored scoped, not as sent
  });

  it('answers the same key twice at once with one write', async () => {
    const order = await openOrder();
    const k = key();
    const items = await count('order_items');
    const path = `/api/orders/${order.id}/items`;
    const results = await Promise.all([1, 2, 3].map(() => send(waiter, 'POST', path, { productId, quantity: 1 }, k)));
    expect(await count('order_items')).toBe(items + 1);
    for (const r of results) expect([200, 409]).toContain(r.status);
    expect(results.some((r) => r.status === 200)).toBe(true);
  });

  it('a response lost after the commit: the retry under the same key writes nothing and gets the first answer', async () => {
    const order = await openOrder();
    const k = key();
    const path = `/api/orders/${order.id}/items`;
    const body = JSON.stringify({ productId, quantity: 1 });
    const items = await count('order_items');
    const url = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', 'idempotency-key': k, cookie: waiter.cookie ?? '' },
      });
      // The live event is published right after the commit: drop the connection then, unread.
      const off = server.ctx.live.onEvent((e) => {
        if (e.id !== order.id) return;
        off();
        req.destroy();
        resolve();
      });
      req.on('response', () => reject(new Error('the response should have been dropped')));
      req.on('error', () => undefined);
      req.end(body);
    });
    expect(await count('order_items')).toBe(items + 1);
    // The client retries (it may do so before the first response was written: 409, retry again).
    let retry = await send<{ order: Order }>(waiter, 'POST', path, JSON.parse(body), k);
    for (let i = 0; retry.status === 409 && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 20));
      retry = await send<{ order: Order }>(waiter, 'POST', path, JSON.parse(body), k);
    }
    expect(retry.status).toBe(200);
    expect(retry.body.order.items).toHaveLength(1);
    expect(await count('order_items')).toBe(items + 1);
  });

  /** One write whose key the claim meets first (claim-first), one whose key is read before its handler. */
  const keyedWrites = [
    {
      name: 'an add (its claim meets the key)',
      route: 'POST /api/orders/:orderId/items',
      prepare: async () => ({ path: `/api/orders/${(await openOrder()).id}/items`, body: { productId, quantity: 1 } }),
    },
    {
      name: 'added units (the key read before the handler)',
      route: 'POST /api/orders/:orderId/items/:itemId/units',
      prepare: async () => {
        const { order, itemId } = await orderWithItem(true);
        return { path: `/api/orders/${order.id}/items/${itemId}/units`, body: { quantity: 1 } };
      },
    },
  ];

  it.each(keyedWrites)(
    '$name: a process that died between the commit and storing the answer: retries never write, and say it was applied',
    async (w) => {
      const { path, body } = await w.prepare();
      const k = key();
      expect((await send(waiter, 'POST', path, body, k)).status).toBe(200);
      const items = await count('order_items');
      const audits = await count('audit_log');
      // What a crash right after the commit leaves: the claim, without its answer.
      const db = server.ctx.db.db;
      const stored = storedKey(k, w.route);
      expect(await db.selectFrom('idempotency_keys').select('key').where('key', '=', stored).executeTakeFirst()).toBeDefined();
      await answerWritten(stored); // the answer is written a moment after it is sent: then the "crash" erases it
      await db.updateTable('idempotency_keys').set({ status_code: null, response: null }).where('key', '=', stored).execute();
      const soon = await send(waiter, 'POST', path, body, k);
      expect(soon.status).toBe(409);
      expect(soon.body.error.code).toBe('idempotency_in_flight');
      now += RESPONSE_GRACE_MS - 1; // a live process would have written it long before: still waiting for it
      const stillSoon = await send(waiter, 'POST', path, body, k);
      expect(stillSoon.status).toBe(409);
      expect(stillSoon.body.error.code).toBe('idempotency_in_flight');
      now += 1;
      const later = await send(waiter, 'POST', path, body, k);
      expect(later.status).toBe(409);
      expect(later.body.error.code).toBe('idempotency_applied');
      expect(await count('order_items')).toBe(items);
      expect(await count('audit_log')).toBe(audits);
    },
  );

  const storedKey = (k: string, route = 'POST /api/orders/:orderId/items') => `r:${sha256(`${server.users.waiter.id} ${route}\n${k}`)}`;
  const answerWritten = async (stored: string) => {
    for (let i = 0; i < 100; i++) {
      const row = await server.ctx.db.db.selectFrom('idempotency_keys').select('response').where('key', '=', stored).executeTakeFirst();
      if (row?.response) return row.response;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the answer was never written');
  };

  it.each(keyedWrites)(
    '$name: the answer leaves before it is written: a repeat at once replays it, and it is written moments later with the others',
    async (w) => {
      const writes = await Promise.all([1, 2, 3, 4, 5, 6].map(() => w.prepare()));
      const keys = writes.map(() => key());
      const items = await count('order_items');
      const first = await Promise.all(writes.map((x, i) => send<{ order: Order }>(waiter, 'POST', x.path, x.body, keys[i]!)));
      expect(first.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      // Repeated at once (the answer may not be written yet): the same answer, no second write.
      const again = await send<{ order: Order }>(waiter, 'POST', writes[0]!.path, writes[0]!.body, keys[0]!);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first[0]!.body);
      expect(await count('order_items')).toBe(items + 6);
      for (const [i, k] of keys.entries()) expect(JSON.parse(await answerWritten(storedKey(k, w.route)))).toEqual(first[i]!.body);
    },
  );

  it("stores a time-ordered key (the web's) behind its time; a repeat of it replays, with no second write", async () => {
    const order = await openOrder();
    const path = `/api/orders/${order.id}/items`;
    // Two version-7 keys a millisecond apart, the later sent first (one with a prefix, as the web's attempt keys).
    const later = '0194f3a1-0002-7abc-8def-0123456789ab';
    const earlier = 'add-0194f3a1-0001-7abc-9def-0123456789ab';
    const audits = await count('audit_log');
    for (const k of [later, earlier, later]) expect((await send(waiter, 'POST', path, { productId, quantity: 1 }, k)).status).toBe(200);
    expect(await count('audit_log')).toBe(audits + 2);
    const scope = `${server.users.waiter.id} POST /api/orders/:orderId/items`;
    const rows = await server.ctx.db.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', 'like', 't:0194f3a1%')
      .orderBy('key')
      .execute();
    expect(rows.map((r) => r.key)).toEqual([
      `t:0194f3a10001${sha256(`${scope}\n${earlier}`)}`,
      `t:0194f3a10002${sha256(`${scope}\n${later}`)}`,
    ]);
  });

  it('keeps answering a key until housekeeping expires it; then the key is free again', async () => {
    const order = await openOrder();
    const k = key();
    const path = `/api/orders/${order.id}/items`;
    const items = await count('order_items');
    expect((await send(waiter, 'POST', path, { productId, quantity: 1 }, k)).status).toBe(200);
    now += IDEMPOTENCY_KEEP_MS - 60_000;
    await sweep(server.ctx);
    waiter = await server.login(server.users.waiter.email); // the old session idled out meanwhile
    expect((await send(waiter, 'POST', path, { productId, quantity: 1 }, k)).status).toBe(200);
    expect(await count('order_items')).toBe(items + 1);
    now += 120_000;
    await sweep(server.ctx);
    // The line is in the kitchen's hands by then: a new add makes a line of its own.
    await server.ctx.db.db.updateTable('order_items').set({ status: 'listo' }).where('order_id', '=', order.id).execute();
    // Expired: a week later the key is a new request (no client retries that long).
    expect((await send(waiter, 'POST', path, { productId, quantity: 1 }, k)).status).toBe(200);
    expect(await count('order_items')).toBe(items + 2);
  });
});
