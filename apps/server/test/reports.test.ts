import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Order, ReportsResponse, Table } from '@comanda/contract';
import { testDatabaseKinds, type ApiClient } from '../src/testing/index.ts';
import { rollupsFromRaw } from '../src/model/reports/rollup-backfill.ts';
import { ROLLUP_TABLES, type RollupRow, type RollupTable } from '../src/model/reports/rollup-set.ts';
import { backfillRollups } from '../src/model/reports/rollup-backfill.ts';
import { serverOnManualClock } from './cash-close-fixture.ts';

type Res = { order: Order; error?: { message: string } };
/** Mexico City has no daylight saving time: local = UTC − 6 h. */
const local = (iso: string) => Date.parse(`${iso}-06:00`);

/** Issue #15 items 6–7: the owner reports, their exports and the summary rows behind them. */
/** Debian's LibreOffice, when installed. */
const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find((path) => existsSync(path)) ?? null;

describe.each(testDatabaseKinds())('owner reports on %s', (kind) => {
  let admin: ApiClient;
  let waiter: ApiClient;
  let waiter2: ApiClient;
  const suite = serverOnManualClock(kind, local('2026-11-20T20:00:00'), async (server) => {
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    waiter2 = await server.login(server.users.waiter2.email);
  });
  const { products, db } = suite;
  let nextTable = 700;
  /** Moves the clock; sessions follow it, so everyone signs in again. */
  const setTime = (iso: string) => suite.setTime(local(iso));
  const ok = <T extends { status: number; body: unknown }>(res: T): T => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res;
  };
  const openWith = async (who: ApiClient, lines: [string, number][]): Promise<Order> => {
    const table = ok(await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ })).body.table;
    let order = ok(await who.post<Res>(`/api/tables/${table.id}/open`)).body.order;
    for (const [name, quantity] of lines)
      order = ok(await who.post<Res>(`/api/orders/${order.id}/items`, { productId: products[name], quantity })).body.order;
    return order;
  };
  const deliverAll = async (order: Order) => {
    for (const item of order.items.filter((i) => !i.isDeleted))
      ok(await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' }));
  };
  const closeCash = (who: ApiClient, orderId: string, tipBps = 0) =>
    who.post<Res>(
      `/api/orders/${orderId}/close`,
      { method: 'efectivo', pin: '1111', tipBps, peopleCount: 2, receivedAmount: 1_000_000 },
      { 'idempotency-key': randomUUID() },
    );
  const pay = (orderId: string, body: Record<string, unknown>) =>
    waiter2.post<Res>(`/api/orders/${orderId}/payments`, { pin: '2222', ...body }, { 'idempotency-key': randomUUID() });
  const reports = async (from: string, to: string) => ok(await admin.get<ReportsResponse>(`/api/reports?from=${from}&to=${to}`)).body;

  /** The rollup tables as stored, and recomputed from the raw rows: they must be equal. */
  const normalise = (table: RollupTable, rows: RollupRow[]) => {
    const spec = ROLLUP_TABLES[table];
    return rows
      .map((r) =>
        Object.fromEntries(
          [...spec.keys, ...spec.sums, ...spec.labels].map((c) => [
            c,
            (spec.sums as readonly string[]).includes(c) || c === 'slot' ? Number(r[c]) : String(r[c]),
          ]),
        ),
      )
      .filter((r) => (spec.sums as readonly string[]).some((c) => r[c] !== 0))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  };
  const expectRollupsMatchRaw = async () => {
    const raw = await rollupsFromRaw(db(), 'America/Mexico_City');
    for (const table of Object.keys(ROLLUP_TABLES) as RollupTable[]) {
      const stored = (await db().selectFrom(table).selectAll().execute()) as unknown as RollupRow[];
      expect(normalise(table, stored), table).toEqual(normalise(table, [...raw[table].values()]));
    }
  };

  it('reports a Friday night by hour, weekday, product, category, waiter, losses and method, to the centavo', async () => {
    // A (Mario): 2 beers + tacos at 21:10, one beer comped, 10 % tip on the 150.00 owed.
    await setTime('2026-11-20T21:05:00');
    const a = await openWith(waiter, [
      ['Cerveza clara', 2],
      ['Tacos al pastor (3)', 1],
    ]);
    const beer = a.items.find((i) => i.productName === 'Cerveza clara')!;
    ok(
      await waiter.post(`/api/orders/${a.id}/adjustments`, {
        kind: 'comp',
        scope: 'item',
        itemId: beer.id,
        units: 1,
        reason: 'Cortesía de la casa',
        pin: suite.server.users.admin.pin,
      }),
    );
    await deliverAll(a);
    await setTime('2026-11-20T21:10:00');
    expect(ok(await closeCash(waiter, a.id, 1000)).body.order).toMatchObject({ status: 'pagado', total: 16_500, tip: 1_500 });

    // C: a shot cancelled at 22:00 by the admin.
    await setTime('2026-11-20T22:00:00');
    const c = await openWith(waiter, [['Shot de mezcal', 1]]);
    ok(await admin.post(`/api/orders/${c.id}/cancel`, { reason: 'Error de captura', pin: suite.server.users.admin.pin }));

    // B (Lucía): two margaritas (one voided at 01:20 Saturday) and a guacamole, paid at 01:30 in cash + transfer.
    await setTime('2026-11-21T01:15:00');
    const b = await openWith(waiter2, [
      ['Margarita', 2],
      ['Guacamole con totopos', 1],
    ]);
    await setTime('2026-11-21T01:20:00');
    const margarita = b.items.find((i) => i.productName === 'Margarita')!;
    const voided = ok(
      await waiter2.post<Res>(`/api/orders/${b.id}/items/${margarita.id}/void`, { quantity: 1, reason: 'Cliente cambió de opinión' }),
    ).body.order;
    await deliverAll(voided);
    await setTime('2026-11-21T01:30:00');
    ok(await pay(b.id, { method: 'efectivo', amount: 10_000, receivedAmount: 10_000 }));
    expect(ok(await pay(b.id, { method: 'transferencia', amount: 13_900 })).body.order.status).toBe('pagado');

    // D (Mario): Saturday night, outside a Friday-only range.
    await setTime('2026-11-21T20:00:00');
    const d = await openWith(waiter, [['Cerveza clara', 1]]);
    await deliverAll(d);
    ok(await closeCash(waiter, d.id));

    const friday = await reports('2026-11-20', '2026-11-20');
    expect(friday.totals).toEqual({
      orders: 2,
      items: 5,
      subtotal: 44_400,
      discount: 0,
      comp: 5_500,
      tips: 1_500,
      total: 40_400,
      averageTicket: 20_200,
    });
    expect(friday.dayStartHour).toBe(3);
    expect(friday.byHour.map((h) => h.hour).slice(0, 3)).toEqual([3, 4, 5]);
    expect(friday.byHour.filter((h) => h.orders > 0)).toEqual([
      { hour: 21, orders: 1, total: 16_500, tips: 1_500 },
      { hour: 1, orders: 1, total: 23_900, tips: 0 },
    ]);
    expect(friday.byWeekday[4]).toEqual({ weekday: 4, days: 1, orders: 2, total: 40_400, tips: 1_500 });
    expect(friday.byWeekday.filter((w) => w.orders > 0)).toHaveLength(1);
    expect(friday.products.map((p) => [p.productName, p.category, p.units, p.amount])).toEqual([
      ['Guacamole con totopos', 'Entrada', 1, 12_900],
      ['Cerveza clara', 'Bebida', 2, 11_000],
      ['Margarita', 'Bebida', 1, 11_000],
      ['Tacos al pastor (3)', 'Comida', 1, 9_500],
    ]);
    expect(friday.categories).toEqual([
      { category: 'Bebida', units: 3, amount: 22_000 },
      { category: 'Entrada', units: 1, amount: 12_900 },
      { category: 'Comida', units: 1, amount: 9_500 },
    ]);
    expect(friday.waiters).toEqual([
      { waiterId: suite.server.users.waiter2.id, waiterName: 'Lucía Mesera', tickets: 1, sales: 23_900, averageTicket: 23_900, tips: 0 },
      { waiterId: suite.server.users.waiter.id, waiterName: 'Mario Mesero', tickets: 1, sales: 16_500, averageTicket: 16_500, tips: 1_500 },
    ]);
    expect(friday.methods).toEqual([
      { method: 'efectivo', payments: 2, amount: 26_500, tips: 1_500 },
      { method: 'transferencia', payments: 1, amount: 13_900, tips: 0 },
    ]);
    expect(friday.losses.totals).toEqual([
      { kind: 'void', count: 1, units: 1, amount: 11_000 },
      { kind: 'cancel', count: 1, units: 1, amount: 7_000 },
      { kind: 'discount', count: 0, units: 0, amount: 0 },
      { kind: 'comp', count: 1, units: 1, amount: 5_500 },
    ]);
    expect(friday.losses.byReason.map((r) => [r.kind, r.reason, r.amount])).toEqual([
      ['void', 'Cliente cambió de opinión', 11_000],
      ['cancel', 'Error de captura', 7_000],
      ['comp', 'Cortesía de la casa', 5_500],
    ]);
    expect(friday.losses.byUser.map((u) => [u.kind, u.userName, u.count])).toEqual([
      ['void', 'Lucía Mesera', 1],
      ['cancel', 'Ana Administradora', 1],
      ['comp', 'Mario Mesero', 1],
    ]);

    const weekend = await reports('2026-11-20', '2026-11-21');
    expect(weekend.totals).toMatchObject({ orders: 3, total: 45_900 });
    expect(weekend.byWeekday[5]).toMatchObject({ weekday: 5, days: 1, orders: 1, total: 5_500 });
    expect((await reports('2026-11-22', '2026-11-30')).totals.orders).toBe(0);
    await expectRollupsMatchRaw();
  });

  it('exports the reports as CSV and as a real .xlsx with MXN-formatted numbers', async () => {
    const csv = await fetch(`${suite.server.url}/api/reports/export.csv?from=2026-11-20&to=2026-11-20`, {
      headers: { cookie: admin.cookie! },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain('reportes-2026-11-20-a-2026-11-20.csv');
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the BOM: Excel reads UTF-8
    const text = new TextDecoder().decode(bytes);
    const lines = text.split('\r\n');
    expect(lines).toContain('Meseros');
    expect(lines).toContain('Lucía Mesera,1,239.00,239.00,0.00');
    expect(lines).toContain('Efectivo,2,265.00,15.00');
    expect(lines).toContain('Cortesía,Motivo: Cortesía de la casa,1,1,55.00');

    const one = await fetch(`${suite.server.url}/api/reports/export.csv?from=2026-11-20&to=2026-11-20&report=metodos`, {
      headers: { cookie: admin.cookie! },
    });
    expect((await one.text()).split('\r\n').filter((l) => l.startsWith('Meseros'))).toEqual([]);

    const res = await fetch(`${suite.server.url}/api/reports/export.xlsx?from=2026-11-20&to=2026-11-20`, {
      headers: { cookie: admin.cookie! },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    expect(book.worksheets.map((w) => w.name)).toEqual([
      'Ventas por hora',
      'Ventas por día',
      'Productos',
      'Categorías',
      'Meseros',
      'Cancelaciones y descuentos',
      'Métodos de pago',
      'Impuestos',
    ]);
    const waiters = book.getWorksheet('Meseros')!;
    expect(waiters.getRow(1).values).toEqual([undefined, 'Mesero', 'Tickets', 'Ventas', 'Ticket promedio', 'Propinas']);
    expect(waiters.getRow(3).values).toEqual([undefined, 'Mario Mesero', 1, 165, 165, 15]);
    expect(waiters.getCell('C3').numFmt).toBe('"$"#,##0.00');
    expect(typeof waiters.getCell('C3').value).toBe('number');
    const methods = book.getWorksheet('Métodos de pago')!;
    expect(methods.getRow(2).values).toEqual([undefined, 'Efectivo', 2, 265, 15]);
    const hours = book.getWorksheet('Ventas por hora')!;
    const sum = (hours.getColumn(3).values as unknown[]).filter((v): v is number => typeof v === 'number').reduce((a, v) => a + v, 0);
    expect(sum).toBeCloseTo(404, 6);
  });

  // The file an owner double-clicks: LibreOffice (Debian's package, installed by .ci/run) opens the
  // .xlsx headless and writes each sheet as CSV with the values it read, which must be our figures.
  it.runIf(kind === 'sqlite' && (SOFFICE !== null || process.env.CI === 'true'))(
    'the .xlsx opens in LibreOffice with the same figures on every sheet',
    { timeout: 120_000 },
    async () => {
      expect(SOFFICE, 'LibreOffice (soffice) must be installed in CI').not.toBeNull();
      const dir = mkdtempSync(join(tmpdir(), 'comanda-xlsx-'));
      try {
        const res = await fetch(`${suite.server.url}/api/reports/export.xlsx?from=2026-11-20&to=2026-11-20`, {
          headers: { cookie: admin.cookie! },
        });
        writeFileSync(join(dir, 'reportes.xlsx'), new Uint8Array(await res.arrayBuffer()));
        // Field separator ",", quote '"', UTF-8 (76), from row 1; raw values, not as shown; every sheet (-1).
        const filter = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1';
        execFileSync(
          SOFFICE!,
          [
            '-env:UserInstallation=file://' + join(dir, 'profile'),
            '--headless',
            '--convert-to',
            filter,
            '--outdir',
            dir,
            join(dir, 'reportes.xlsx'),
          ],
          {
            stdio: 'pipe',
            timeout: 100_000,
          },
        );
        const sheet = (name: string) =>
          readFileSync(join(dir, `reportes-${name}.csv`), 'utf8')
            .trim()
            .split(/\r?\n/);
        const waiters = sheet('Meseros');
        expect(waiters[0]).toBe('Mesero,Tickets,Ventas,Ticket promedio,Propinas');
        expect(waiters).toContain('Mario Mesero,1,165,165,15');
        expect(waiters).toContain('Lucía Mesera,1,239,239,0');
        expect(sheet('Métodos de pago')).toContain('Efectivo,2,265,15');
        const hours = sheet('Ventas por hora')
          .slice(1)
          .map((line) => Number(line.split(',')[2]));
        expect(hours.reduce((a, v) => a + v, 0)).toBeCloseTo(404, 6);
        // The night's taxes: base + IVA = sales with taxes, plus the tips = what the hours add up to.
        expect(sheet('Impuestos')).toEqual([
          'Concepto,Importe',
          'Ventas netas,335.34',
          'IVA 16 %,53.66',
          'Ventas con impuestos,389',
          'Propinas (no causan IVA),15',
          'Total cobrado,404',
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('keeps the summary rows equal to the raw rows under concurrent closes', async () => {
    await setTime('2026-11-22T23:30:00');
    const orders: Order[] = [];
    for (let i = 0; i < 6; i++) {
      const order = await openWith(i % 2 ? waiter : waiter2, [
        ['Cerveza clara', 1 + i],
        ['Michelada', 1],
      ]);
      await deliverAll(order);
      orders.push(order);
    }
    // Voids on two other open orders race the closes (the same loss rows, hour, day and month).
    const open = [await openWith(waiter, [['Michelada', 3]]), await openWith(waiter, [['Michelada', 3]])];
    const voids = open.map((o) =>
      waiter.post(`/api/orders/${o.id}/items/${o.items[0]!.id}/void`, { quantity: 1, reason: 'Error de captura' }),
    );
    const closes = await Promise.all(orders.map((o, i) => closeCash(i % 2 ? waiter : waiter2, o.id, 500 * i)));
    expect(closes.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect((await Promise.all(voids)).map((r) => r.status)).toEqual([200, 200]);
    // The same order closed twice at once: one close, one refusal, counted once.
    const twice = await openWith(waiter, [['Margarita', 1]]);
    await deliverAll(twice);
    const race = await Promise.all([closeCash(waiter, twice.id), closeCash(waiter, twice.id)]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);

    const sunday = await reports('2026-11-22', '2026-11-22');
    expect(sunday.totals.orders).toBe(7);
    expect(sunday.losses.totals[0]).toEqual({ kind: 'void', count: 2, units: 2, amount: 17_000 });
    expect(sunday.products.find((p) => p.productName === 'Cerveza clara')?.units).toBe(1 + 2 + 3 + 4 + 5 + 6);
    await expectRollupsMatchRaw();
  });

  it('fills the summary rows from existing orders as the migration does', async () => {
    const before = await reports('2026-11-01', '2026-11-30');
    for (const table of Object.keys(ROLLUP_TABLES) as RollupTable[]) await db().deleteFrom(table).execute();
    expect((await reports('2026-11-01', '2026-11-30')).totals.orders).toBe(0);
    await backfillRollups(db());
    expect(await reports('2026-11-01', '2026-11-30')).toEqual(before);
    // From 31 October the whole of November is read from its month rows: the same figures.
    const byMonth = await reports('2026-10-31', '2026-11-30');
    expect({ ...byMonth, from: before.from }).toEqual(before);
  });

  it('refuses a bad range in Spanish and anyone but the admin', async () => {
    const backwards = await admin.get<{ error: { message: string } }>('/api/reports?from=2026-11-21&to=2026-11-20');
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.message).toContain('La fecha inicial debe ser anterior o igual a la final');
    expect((await admin.get('/api/reports?from=2020-01-01&to=2026-01-01')).status).toBe(400);
    expect((await admin.get('/api/reports?from=2026-11-20')).status).toBe(400);
    expect((await waiter.get('/api/reports?from=2026-11-20&to=2026-11-20')).status).toBe(403);
    expect((await waiter.get('/api/reports/export.xlsx?from=2026-11-20&to=2026-11-20')).status).toBe(403);
    expect((await suite.server.anonymous().get('/api/reports?from=2026-11-20&to=2026-11-20')).status).toBe(401);
  });
});
