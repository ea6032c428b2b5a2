import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Order, TicketsPage } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { insertOrder, manualClock } from './cash-close-fixture.ts';

const at = (iso: string) => Date.parse(iso);

describe.each(testDatabaseKinds())('ticket history on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  // "Now" is 2024-05-11 01:00 in Mexico City, so the business day is still the 11th.
  const clock = manualClock(at('2024-05-11T07:00:00Z'));

  beforeAll(async () => {
    vi.stubEnv('TZ', 'UTC');
    server = await startTestServer(kind, { clock, checkInvariants: false /* ticket fixtures insert orders directly */ });
    admin = await server.login(server.users.admin.email);
    const lucia = { id: server.users.waiter2.id, name: server.users.waiter2.displayName };
    await insertOrder(server, {
      id: 'abc123de-0000-4000-8000-000000000001',
      completedAt: at('2024-05-11T06:30:00Z'),
      tableNumber: 0,
      tableName: 'Cumpleaños Ana',
      items: [{ name: 'Cerveza', price: 12_275, quantity: 2 }],
    });
    await insertOrder(server, {
      id: 'abd99900-0000-4000-8000-000000000002',
      completedAt: at('2024-05-11T05:00:00Z'),
      tableNumber: 10,
      waiter: lucia,
      method: 'tarjeta',
      items: [{ name: 'Tacos', price: 24_500, quantity: 1 }],
    });
    await insertOrder(server, {
      id: 'f00d0000-0000-4000-8000-000000000003',
      completedAt: at('2024-05-10T02:00:00Z'),
      tableNumber: 3,
      tableName: '50%_off',
      items: [{ name: 'Flan', price: 6_500, quantity: 1 }],
    });
    await insertOrder(server, {
      completedAt: null,
      status: 'activo',
      tableNumber: 10,
      items: [{ name: 'Tacos', price: 24_500, quantity: 1 }],
    });
  });
  afterAll(async () => {
    await server?.close();
    vi.unstubAllEnvs();
  });

  const list = async (query = '') => {
    const res = await admin.get<TicketsPage>(`/api/tickets${query}`);
    expect(res.status, query).toBe(200);
    return res.body;
  };
  const ticketNumbers = (page: TicketsPage) => page.tickets.map((t) => t.ticketNumber);

  it('lists paid orders newest first with the business day, payment and today', async () => {
    const page = await list();
    expect(page.today).toBe('2024-05-11');
    expect(page.timezone).toBe('America/Mexico_City');
    expect(ticketNumbers(page)).toEqual(['ABC123', 'ABD999', 'F00D00']);
    // 00:30 and 23:00 local: the first is on the 11th, the second on the 10th; 20:00 on the 9th.
    expect(page.tickets.map((t) => t.businessDate)).toEqual(['2024-05-11', '2024-05-10', '2024-05-09']);
    const [first] = page.tickets;
    expect(first).toMatchObject({
      tableNumber: 0,
      tableName: 'Cumpleaños Ana',
      waiterName: server.users.waiter.displayName,
      total: 24_550,
      completedAt: at('2024-05-11T06:30:00Z'),
    });
    expect(first?.payment).toMatchObject({ method: 'efectivo', amount: 24_550 });
    expect(page.nextCursor).toBeNull();
  });

  it.each([
    ['ticket number, any case', 'ABC1', ['ABC123']],
    ['ticket number prefix shared', 'ab', ['ABC123', 'ABD999']],
    ['ticket number with #', '#f00d', ['F00D00']],
    ['table number', '10', ['ABD999']],
    ['mesa N', 'Mesa 3', ['F00D00']],
    ['the bar', 'barra', ['ABC123']],
    ['table name, any case', 'cumple', ['ABC123']],
    ['table name with LIKE wildcards taken literally', '50%_', ['F00D00']],
    ['waiter name', 'lucía', ['ABD999']],
    ['exact amount', '245.50', ['ABC123']],
    ['amount with sign and comma', '$245.00', ['ABD999']],
    ['whole pesos', '245', ['ABC123', 'ABD999']],
    ['nothing', 'zzz', []],
  ])('searches by %s', async (_label, term, expected) => {
    expect(ticketNumbers(await list(`?search=${encodeURIComponent(term)}`))).toEqual(expected);
  });

  it('pages by keyset without repeats or gaps, even when tickets arrive between pages', async () => {
    const base = at('2024-04-01T20:00:00Z');
    // Two tickets share each completion instant, so the id must break ties.
    for (let i = 0; i < 24; i++)
      await insertOrder(server, {
        completedAt: base + Math.floor(i / 2) * 60_000,
        tableNumber: 5,
        items: [{ name: 'Café', price: 3_000, quantity: 1 }],
      });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: TicketsPage = await list(`?search=mesa%205&limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.tickets.map((t) => t.id));
      cursor = page.nextCursor;
      pages++;
      // A new payment lands mid-browsing: it is newer, so it never shifts the pages being read.
      if (pages === 2)
        await insertOrder(server, {
          completedAt: at('2024-05-11T06:59:00Z'),
          tableNumber: 5,
          items: [{ name: 'Café', price: 3_000, quantity: 1 }],
        });
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toHaveLength(24);
    expect(new Set(seen).size).toBe(24);
  });

  it('shows one ticket with its items and payment, and only paid orders', async () => {
    const id = 'abc123de-0000-4000-8000-000000000001';
    const res = await admin.get<{ order: Order }>(`/api/tickets/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ id, status: 'pagado', total: 24_550, items: [{ productName: 'Cerveza', quantity: 2 }] });
    expect(res.body.order.payments).toHaveLength(1);
    expect((await admin.get('/api/tickets/no-existe')).status).toBe(404);
    const open = await insertOrder(server, { completedAt: null, status: 'activo', tableNumber: 9, items: [] });
    expect((await admin.get(`/api/tickets/${open.id}`)).status).toBe(404);
  });

  it('refuses bad queries with a 400', async () => {
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=abc',
      '?cursor=nope',
      '?cursor=1.a%20b',
      `?search=${'x'.repeat(101)}`,
      '?status=activo',
    ]) {
      expect((await admin.get(`/api/tickets${query}`)).status, query).toBe(400);
    }
  });

  it('is for admins only', async () => {
    const clients = {
      anonymous: server.anonymous(),
      waiter: await server.login(server.users.waiter.email),
      kitchen: await server.login(server.users.kitchen.email),
      barra: await server.login(server.users.barra.email),
    };
    for (const path of ['/api/tickets', '/api/tickets/abc123de-0000-4000-8000-000000000001']) {
      for (const [who, api] of Object.entries(clients)) {
        expect((await api.get(path)).status, `${who} ${path}`).toBe(who === 'anonymous' ? 401 : 403);
      }
    }
  });
});

describe.each(testDatabaseKinds())('ticket search index on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(kind, { checkInvariants: false /* fixtures insert paid orders directly */ });
    admin = await server.login(server.users.admin.email);
    await insertOrder(server, {
      id: 'cafe0100-0000-4000-8000-000000000001',
      completedAt: at('2024-05-11T06:30:00Z'),
      tableNumber: 4,
      tableName: 'Piña Colada Bar',
      items: [{ name: 'Cerveza', price: 5_000, quantity: 1 }],
    });
    await insertOrder(server, {
      id: 'cafe0200-0000-4000-8000-000000000002',
      completedAt: at('2024-05-11T05:00:00Z'),
      tableNumber: 6,
      tableName: 'CUMPLEAÑOS DE JOSÉ',
      waiter: { id: server.users.waiter2.id, name: server.users.waiter2.displayName },
      items: [{ name: 'Tacos', price: 9_500, quantity: 1 }],
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const search = async (term: string) => {
    const res = await admin.get<TicketsPage>(`/api/tickets?search=${encodeURIComponent(term)}`);
    expect(res.status, term).toBe(200);
    return res.body.tickets.map((t) => t.id.slice(0, 8));
  };

  it.each([
    ['pina', ['cafe0100']],
    ['PIÑA', ['cafe0100']],
    ['piña colada', ['cafe0100']],
    ['cumpleanos de jose', ['cafe0200']],
    ['josé', ['cafe0200']],
    ['lucia', ['cafe0200']],
    ['LUCÍA MESERA', ['cafe0200']],
    // Shorter than a trigram: answered by walking the tickets, with the same folding.
    ['ñ', ['cafe0100', 'cafe0200']],
    ['ÓS', ['cafe0200']],
    ['piñata', []],
  ])('finds %s without regard to accents or case', async (term, expected) => {
    expect(await search(term)).toEqual(expected);
  });

  it('finds a ticket paid through the close route after the index exists, by folio, table and waiter', async () => {
    const waiter = await server.login(server.users.waiter2.email);
    const barra = await server.login(server.users.barra.email);
    const tables = (await waiter.get<{ tables: { id: string; number: number }[] }>('/api/tables')).body.tables;
    const table = tables.find((t) => t.number === 9)!;
    const opened = await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`);
    const orderId = opened.body.order.id;
    const { products } = (await waiter.get<{ products: { id: string; name: string }[] }>('/api/products?available=1')).body;
    const beer = products.find((p) => p.name === 'Cerveza clara')!;
    const added = await waiter.post<{ order: Order }>(`/api/orders/${orderId}/items`, { productId: beer.id, quantity: 1 });
    for (const item of added.body.order.items)
      expect((await barra.patch(`/api/orders/${orderId}/items/${item.id}/status`, { status: 'entregado' })).status).toBe(200);
    expect(await search('lucía')).toEqual(['cafe0200']);
    const closed = await waiter.post(
      `/api/orders/${orderId}/close`,
      { method: 'efectivo', pin: server.users.waiter2.pin, tipBps: 0, peopleCount: 1, receivedAmount: 100_00 },
      { 'idempotency-key': `k-${orderId}` },
    );
    expect(closed.status).toBe(200);
    expect(await search('lucia')).toEqual([orderId.slice(0, 8), 'cafe0200']);
    expect(await search(`#${orderId.slice(0, 6).toUpperCase()}`)).toContain(orderId.slice(0, 8));
    expect(await search('mesa 9')).toEqual([orderId.slice(0, 8)]);
  });
});
