import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CashCloseResponse, OutsideShiftResponse } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { writeConfig } from '../src/model/config-store.ts';
import { insertOrder, manualClock } from './cash-close-fixture.ts';

// Mexico City is UTC-6 all year (no DST since 2022): 17:00 local is 23:00Z.
const at = (iso: string) => Date.parse(iso);
const DAY = '2024-05-10';

describe.each(testDatabaseKinds())('cash close on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  const clock = manualClock(at('2024-05-11T08:59:00Z'));
  const ids: Record<string, string> = {};
  const mario = () => ({ id: server.users.waiter.id, name: server.users.waiter.displayName });
  const lucia = () => ({ id: server.users.waiter2.id, name: server.users.waiter2.displayName });

  beforeAll(async () => {
    // The server process runs in UTC; only the business time zone may decide the shift.
    vi.stubEnv('TZ', 'UTC');
    server = await startTestServer(kind, { clock, checkInvariants: false /* shift fixtures insert orders directly at chosen instants */ });
    admin = await server.login(server.users.admin.email);
    ids.before = (
      await insertOrder(server, {
        completedAt: at('2024-05-10T22:59:00Z'),
        waiter: mario(),
        items: [{ name: 'Limonada', price: 5_000, quantity: 1 }],
      })
    ).id;
    ids.start = (
      await insertOrder(server, {
        completedAt: at('2024-05-10T23:00:00Z'),
        tableNumber: 0,
        waiter: mario(),
        method: 'efectivo',
        tipBps: 1_500,
        items: [
          { name: 'Tacos', price: 5_000, quantity: 2 },
          { name: 'Flan', price: 6_500, quantity: 1, deleted: true },
        ],
      })
    ).id;
    ids.late = (
      await insertOrder(server, {
        completedAt: at('2024-05-11T05:59:00Z'),
        tableNumber: 4,
        waiter: lucia(),
        method: 'tarjeta',
        items: [{ name: 'Hamburguesa', price: 20_000, quantity: 1 }],
      })
    ).id;
    ids.lastMinute = (
      await insertOrder(server, {
        completedAt: at('2024-05-11T08:59:00Z'),
        tableNumber: 7,
        tableName: '=Cumpleaños, Ana',
        waiter: mario(),
        method: 'transferencia',
        tipBps: 1_000,
        items: [{ name: 'Cerveza', price: 10_000, quantity: 3 }],
      })
    ).id;
    ids.after = (
      await insertOrder(server, {
        completedAt: at('2024-05-11T09:00:00Z'),
        waiter: lucia(),
        items: [{ name: 'Café', price: 4_000, quantity: 1 }],
      })
    ).id;
    // Neither an open nor a cancelled order counts, even inside the window.
    await insertOrder(server, { completedAt: null, status: 'activo', items: [{ name: 'Tacos', price: 5_000, quantity: 9 }] });
    await insertOrder(server, { completedAt: null, status: 'cancelado', items: [{ name: 'Tacos', price: 5_000, quantity: 9 }] });
  });
  afterAll(async () => {
    await server?.close();
    vi.unstubAllEnvs();
  });

  const report = async (query = `?date=${DAY}`) => {
    const res = await admin.get<CashCloseResponse>(`/api/cash-close${query}`);
    expect(res.status).toBe(200);
    return res.body;
  };

  it('puts 17:00, 23:59 and 02:59 in the shift and leaves 16:59 and 03:00 out', async () => {
    const body = await report();
    expect(body.window).toEqual({ start: at('2024-05-10T23:00:00Z'), end: at('2024-05-11T09:00:00Z') });
    expect(body.summary.totalOrders).toBe(3);
    const previous = await report('?date=2024-05-09');
    expect(previous.summary.totalOrders).toBe(0);
    const next = await report('?date=2024-05-11');
    expect(next.summary.totalOrders).toBe(0);
  });

  it('sums the hand-made fixture in centavos', async () => {
    const { summary } = await report();
    expect(summary).toEqual({
      totalSales: 11_500 + 20_000 + 33_000,
      totalOrders: 3,
      totalItems: 2 + 1 + 3,
      totalTips: 1_500 + 3_000,
      totalSubtotal: 10_000 + 20_000 + 30_000,
      paymentMethods: { efectivo: 11_500, tarjeta: 20_000, transferencia: 33_000 },
      averageOrderValue: 21_500,
      // 15 % and 10 %; the order without a tip is not averaged in.
      averageTipPercent: 12.5,
      // The fixture writes paid orders straight into the tables, without folios; one payment each.
      folios: null,
      mixedOrders: 0,
    });
  });

  it('builds the statistics: business-local hours, top products without deleted items, waiters', async () => {
    const { statistics } = await report();
    expect(statistics.salesByHour.map((h) => h.hour)).toEqual([17, 18, 19, 20, 21, 22, 23, 0, 1, 2]);
    const busy = statistics.salesByHour.filter((h) => h.orders > 0).map((h) => [h.hour, h.orders, h.total]);
    expect(busy).toEqual([
      [17, 1, 11_500],
      [23, 1, 20_000],
      [2, 1, 33_000],
    ]);
    expect(statistics.topProducts.map((p) => [p.productName, p.quantity, p.amount])).toEqual([
      ['Cerveza', 3, 30_000],
      ['Tacos', 2, 10_000],
      ['Hamburguesa', 1, 20_000],
    ]);
    expect(statistics.topProductsByAmount.map((p) => p.productName)).toEqual(['Cerveza', 'Hamburguesa', 'Tacos']);
    expect(statistics.salesByWaiter.map((w) => [w.waiterName, w.orders, w.total, w.tips])).toEqual([
      [server.users.waiter.displayName, 2, 44_500, 4_500],
      [server.users.waiter2.displayName, 1, 20_000, 0],
    ]);
  });

  it('reports paid orders outside every shift for their business day, and lists them', async () => {
    expect((await report()).outsideShift).toEqual({ count: 1, total: 5_000 });
    expect((await report('?date=2024-05-11')).outsideShift).toEqual({ count: 1, total: 4_000 });
    const list = await admin.get<OutsideShiftResponse>(`/api/cash-close/outside?date=${DAY}`);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(1);
    expect(list.body.tickets.map((t) => t.id)).toEqual([ids.before]);
    expect(list.body.tickets[0]?.businessDate).toBe(DAY);
    const nextDay = await admin.get<OutsideShiftResponse>('/api/cash-close/outside?date=2024-05-11');
    expect(nextDay.body.tickets.map((t) => t.id)).toEqual([ids.after]);
  });

  it('defaults to last night before 17:00 business time and to today from 17:00, computed on the server', async () => {
    const defaultAt = async (iso: string) => {
      clock.set(at(iso));
      // Sessions follow the same clock: sign in again at each moment.
      const api = await server.login(server.users.admin.email);
      return (await api.get<CashCloseResponse>('/api/cash-close')).body.date;
    };
    try {
      expect(await defaultAt('2024-05-11T08:59:00Z')).toBe(DAY); // 02:59
      expect(await defaultAt('2024-05-11T22:59:00Z')).toBe(DAY); // 16:59 the next day: still last night's close
      expect(await defaultAt('2024-05-10T23:00:00Z')).toBe(DAY); // 17:00
      expect(await defaultAt('2024-05-10T22:59:00Z')).toBe('2024-05-09'); // 16:59
    } finally {
      clock.set(at('2024-05-11T08:59:00Z'));
      admin = await server.login(server.users.admin.email);
    }
  });

  it('exports the shift as an es-MX CSV with a BOM', async () => {
    const res = await fetch(`${server.url}/api/cash-close/export.csv?date=${DAY}`, { headers: { cookie: admin.cookie ?? '' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="cierre-de-caja-${DAY}.csv"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder('utf-8', { ignoreBOM: true })
      .decode(bytes)
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Ticket,Fecha,Hora,Mesa,Nombre de mesa,Mesero,Personas,Artículos,Método,Subtotal,Propina,Total,Recibido,Cambio,ID de pago,Cajero',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${ids.start!.slice(0, 6).toUpperCase()},10/05/2024,17:00,Barra,,Mario Mesero,2,2,Efectivo,100.00,15.00,115.00,115.00,0.00,`,
      ),
    );
    expect(lines[2]).toContain(',10/05/2024,23:59,Mesa 4,,');
    expect(lines[2]).toContain(',Tarjeta,200.00,0.00,200.00,,,');
    // A comma is quoted, and a leading '=' cannot run as a spreadsheet formula.
    expect(lines[3]).toContain(`,11/05/2024,02:59,Mesa 7,"'=Cumpleaños, Ana",`);
  });

  it('follows the business shift hours and time zone settings', async () => {
    await writeConfig(server.ctx.db.db, 'general', { name: 'Comanda Bar', shiftStartHour: 9, shiftEndHour: 17 }, clock.now());
    try {
      const day = await report();
      // 09:00–17:00 on the 10th holds only the 16:59 order; 17:00 and 23:59 that day are now outside.
      expect(day.window).toEqual({ start: at('2024-05-10T15:00:00Z'), end: at('2024-05-10T23:00:00Z') });
      expect(day.summary.totalOrders).toBe(1);
      expect(day.outsideShift).toEqual({ count: 2, total: 11_500 + 20_000 });
      await writeConfig(server.ctx.db.db, 'general', { name: 'Comanda Bar', timezone: 'America/Tijuana' }, clock.now());
      // Tijuana is UTC-7 in May (daylight time): 17:00 local is 00:00Z.
      expect((await report()).window.start).toBe(at('2024-05-11T00:00:00Z'));
    } finally {
      await writeConfig(server.ctx.db.db, 'general', { name: 'Comanda Bar' }, clock.now());
    }
  });

  it('says so when the shift has no sales', async () => {
    const body = await report('?date=2023-01-01');
    expect(body.summary).toMatchObject({ totalSales: 0, totalOrders: 0, averageOrderValue: 0, averageTipPercent: 0 });
    expect(body.statistics.topProducts).toEqual([]);
    expect(body.statistics.salesByHour.every((h) => h.orders === 0)).toBe(true);
  });

  it('refuses a date that is not a calendar day and unknown parameters', async () => {
    for (const query of ['?date=2024-02-30', '?date=ayer', '?date=2024-5-1', `?date=${DAY}&status=activo`]) {
      const res = await admin.get<{ error: { message: string } }>(`/api/cash-close${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message).toMatch(/inválid/i);
    }
  });

  it('is for admins only', async () => {
    const paths = [`/api/cash-close?date=${DAY}`, `/api/cash-close/outside?date=${DAY}`, `/api/cash-close/export.csv?date=${DAY}`];
    const clients = {
      anonymous: server.anonymous(),
      waiter: await server.login(server.users.waiter.email),
      kitchen: await server.login(server.users.kitchen.email),
      barra: await server.login(server.users.barra.email),
    };
    for (const path of paths) {
      expect((await admin.get(path)).status, path).toBe(200);
      for (const [who, api] of Object.entries(clients)) {
        expect((await api.get(path)).status, `${who} ${path}`).toBe(who === 'anonymous' ? 401 : 403);
      }
    }
  });
});
