import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { CashCloseResponse, Corte, Order, Product, ReportsResponse } from '@comanda/contract';
import { sumBreakdowns, taxBreakdown, taxSummary, type TaxBreakdown } from '@comanda/domain';
import { testDatabaseKinds, type ApiClient } from '../src/testing/index.ts';
import { serverForSuite } from '../src/testing/suite.ts';
import { renderDocument } from '../src/features/printing/render.ts';
import type { CorteDocument, ReceiptDocument } from '../src/model/printing/documents.ts';
import { manualClock } from './cash-close-fixture.ts';

type Err = { error: { code: string; message: string } };
const key = () => ({ 'idempotency-key': `k-${randomUUID()}` });
// 21:00 in Mexico City on 2026-11-20: inside that night's shift (17:00–03:00).
const NOW = Date.parse('2026-11-21T03:00:00Z');
const DAY = '2026-11-20';
/** What the ESC/POS bytes say, as text: the lines are ASCII apart from the accents. */
const printed = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
const pesos = (c: number) => `$${Math.floor(c / 100).toLocaleString('en-US')}.${String(c % 100).padStart(2, '0')}`;

/**
 * The frozen breakdown shown wherever money is (docs/decisions/0051-tax-breakdown.md): the
 * checkout's live answer, the ESC/POS receipt, the cash close, the drawer's corte, the reports
 * and their sheet, all equal to the sum of the paid checks' frozen breakdowns to the centavo.
 */
describe.each(testDatabaseKinds())('taxes shown on %s', (kind) => {
  let admin: ApiClient;
  let waiter: ApiClient;
  const clock = manualClock(NOW);
  const suite = serverForSuite(kind, { clock }, async (server) => {
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
  });
  const db = () => suite.server.ctx.db.db;
  const products = async () => (await admin.get<{ products: Product[] }>('/api/products')).body.products;
  const editProduct = (p: Product, over: Record<string, unknown>) =>
    admin.put<{ product: Product } & Err>(
      `/api/products/${p.id}`,
      {
        name: p.name,
        description: p.description,
        price: p.price,
        category: p.category,
        imageUrl: p.imageUrl,
        available: p.available,
        ...over,
      },
      key(),
    );

  async function orderOn(table: number, lines: [Product, number][]): Promise<Order> {
    const t = (await admin.post<{ table: { id: string } }>('/api/tables', { number: table }, key())).body.table;
    let order = (await waiter.post<{ order: Order }>(`/api/tables/${t.id}/open`, {}, key())).body.order;
    for (const [p, quantity] of lines)
      order = (await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: p.id, quantity }, key())).body.order;
    for (const item of order.items)
      expect((await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' }, key())).status).toBe(200);
    return (await waiter.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order;
  }
  const close = async (order: Order, tipBps: number) => {
    const res = await waiter.post<{ order: Order } & Err>(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: suite.server.users.waiter.pin, tipBps, peopleCount: 2, receivedAmount: 100_000_00 },
      key(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.order;
  };

  it('shows the same IVA, by rate, on the checkout, the receipt, the corte, the cash close and the reports', async () => {
    const all = await products();
    const beer = all.find((p) => p.name === 'Cerveza clara')!;
    const tacos = all.find((p) => p.name === 'Tacos al pastor (3)')!;
    expect((await editProduct(beer, { taxTreatment: 'iva8' })).status).toBe(200);
    expect((await admin.post('/api/printers', { name: 'Caja', host: '192.168.250.250', port: 9100, role: 'caja' }, key())).status).toBe(
      200,
    );
    expect((await admin.put('/api/drawer/settings', { enabled: true })).status).toBe(200);
    const session = (await admin.post<{ session: { id: string } }>('/api/drawer/open', { count: { b50000: 1 } })).body.session;

    // The checks are paid a minute into the drawer's session, the corte taken a minute later.
    const later = async (ms: number) => {
      clock.set(clock.now() + ms);
      await suite.signInAgain();
    };
    await later(60_000);
    const one = await orderOn(961, [
      [tacos, 2],
      [beer, 3],
    ]);
    const two = await orderOn(962, [[beer, 5]]);

    // The checkout: the server answers what the close would freeze now, from the same domain function.
    const live = await waiter.get<{ taxBreakdown: TaxBreakdown }>(`/api/orders/${one.id}/taxes`);
    expect(live.status).toBe(200);
    const expectedOne = taxBreakdown(
      one.items.map((i) => ({
        id: i.id,
        productPrice: i.productPrice,
        quantity: i.quantity,
        isDeleted: false,
        treatment: i.productId === beer.id ? ('iva8' as const) : ('iva16' as const),
        iepsRateBp: null,
      })),
      [],
    );
    expect(live.body.taxBreakdown).toEqual(expectedOne);
    const kitchen = await suite.server.login(suite.server.users.kitchen.email);
    expect((await kitchen.get(`/api/orders/${one.id}/taxes`)).status).toBe(403);

    const paid = [await close(one, 1_000), await close(two, 1_500)];
    expect(paid[0]!.taxBreakdown).toEqual(expectedOne);
    const frozen = paid.map((o) => o.taxBreakdown!);
    const night = sumBreakdowns(frozen);
    // A paid check's answer is its frozen breakdown.
    expect((await waiter.get<{ taxBreakdown: TaxBreakdown }>(`/api/orders/${one.id}/taxes`)).body.taxBreakdown).toEqual(frozen[0]);

    // The receipt on the caja printer: its document carries the frozen breakdown and prints its lines.
    const job = await db()
      .selectFrom('print_jobs')
      .select('document')
      .where('order_id', '=', one.id)
      .where('kind', '=', 'ticket')
      .executeTakeFirstOrThrow();
    const doc = JSON.parse(job.document) as ReceiptDocument;
    expect(doc.taxes).toEqual(frozen[0]);
    const text = printed(renderDocument(doc, { width: 80, jobNumber: 1, resend: false, timeZone: 'America/Mexico_City' }));
    const summary = taxSummary(frozen[0]!);
    expect(text).toContain('PASE DE SALIDA');
    expect(text).toMatch(new RegExp(`Subtotal sin IVA +\\${pesos(summary.subtotal)}`));
    expect(text).toMatch(new RegExp(`IVA 16 % +\\${pesos(frozen[0]!.groups[0]!.tax)}`));
    expect(text).toMatch(new RegExp(`IVA 8 % +\\${pesos(frozen[0]!.groups[1]!.tax)}`));
    expect(text).toMatch(new RegExp(`Total +\\${pesos(frozen[0]!.amount)}`));
    expect(text).toContain('Precios con IVA incluido');

    await later(60_000);
    // The cash close of the night and the drawer's corte X: the sum of the frozen breakdowns.
    const cashClose = await admin.get<CashCloseResponse>(`/api/cash-close?date=${DAY}`);
    expect(cashClose.body.taxes).toEqual(night);
    expect(cashClose.body.taxes.amount).toBe(cashClose.body.summary.totalSales - cashClose.body.summary.totalTips);
    const corte = (await admin.get<{ corte: Corte }>(`/api/drawer/sessions/${session.id}`)).body.corte;
    expect(corte.figures.taxes).toEqual(night);

    // The owner reports, from the tax rollup filled at each close, and their sheet.
    const reports = await admin.get<ReportsResponse>(`/api/reports?from=${DAY}&to=${DAY}`);
    expect(reports.body.taxes).toEqual(night);
    const res = await fetch(`${suite.server.url}/api/reports/export.xlsx?from=${DAY}&to=${DAY}&report=impuestos`, {
      headers: { cookie: admin.cookie! },
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.getWorksheet('Impuestos')!;
    const cells = Object.fromEntries(
      sheet
        .getSheetValues()
        .slice(2)
        .map((r) => [(r as unknown[])[1], (r as unknown[])[2]]),
    );
    const iva16 = night.groups.find((g) => g.treatment === 'iva16')!.tax;
    const iva8 = night.groups.find((g) => g.treatment === 'iva8')!.tax;
    expect(cells).toEqual({
      'Ventas netas': night.base / 100,
      'IVA 16 %': iva16 / 100,
      'IVA 8 %': iva8 / 100,
      'Ventas con impuestos': night.amount / 100,
      'Propinas (no causan IVA)': (paid[0]!.tip + paid[1]!.tip) / 100,
      'Total cobrado': (paid[0]!.total + paid[1]!.total) / 100,
    });

    // A later rate change alters no paid figure: everything reads the frozen breakdowns.
    expect((await editProduct(beer, { taxTreatment: 'exento' })).status).toBe(200);
    expect((await admin.get<CashCloseResponse>(`/api/cash-close?date=${DAY}`)).body.taxes).toEqual(night);
    expect((await admin.get<ReportsResponse>(`/api/reports?from=${DAY}&to=${DAY}`)).body.taxes).toEqual(night);

    // The corte Z stores the session's taxes with its figures, and its slip prints them.
    const z = await admin.post<{ corte: Corte } & Err>(
      `/api/drawer/sessions/${session.id}/corte-z`,
      {
        count: { b50000: 1 },
        comment: 'Cuadre de prueba',
        cashierPin: suite.server.users.waiter.pin,
        adminPin: suite.server.users.admin.pin,
      },
      key(),
    );
    expect(z.status, JSON.stringify(z.body)).toBe(200);
    expect(z.body.corte.figures.taxes).toEqual(night);
    const slip = await db()
      .selectFrom('print_jobs')
      .select('document')
      .where('kind', '=', 'corte')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    const corteDoc = JSON.parse(slip.document) as CorteDocument;
    expect(corteDoc.variant).toBe('Z');
    const slipText = printed(renderDocument(corteDoc, { width: 80, jobNumber: 2, resend: false, timeZone: 'America/Mexico_City' }));
    expect(slipText).toMatch(new RegExp(`Ventas netas +\\${pesos(night.base)}`));
    expect(slipText).toContain('IVA trasladado:');
    expect(slipText).toMatch(new RegExp(`IVA 16 % +\\${pesos(iva16)}`));
    expect(slipText).toMatch(new RegExp(`IVA 8 % +\\${pesos(iva8)}`));
  });
});
