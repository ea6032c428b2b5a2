import ExcelJS from 'exceljs';
import type { APIRequestContext } from '@playwright/test';
import { test, expect, expectNoSeriousViolations, login, stubPrint, withShiftHoldingNow, SHOTS } from './fixtures.ts';

// IVA included, broken down (tag @iva). Table 57 belongs to this file.
const TABLE = 57;

interface Group {
  treatment: string;
  rateBp: number;
  base: number;
  tax: number;
  amount: number;
}
interface Breakdown {
  groups: Group[];
  base: number;
  tax: number;
  amount: number;
}
interface OrderDto {
  id: string;
  total: number;
  tip: number;
  items: { id: string; productName: string; quantity: number }[];
  taxBreakdown?: Breakdown | null;
}
interface ProductDto {
  id: string;
  name: string;
  description: string;
  price: number;
  category: string;
  imageUrl: string | null;
  available: boolean;
  taxTreatment?: string;
}

const money = (c: number) => new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(c / 100);
const ivaOf = (b: Breakdown, rateBp: number) => b.groups.filter((g) => g.rateBp === rateBp).reduce((s, g) => s + g.tax, 0);
const key = (name: string) => ({ 'Idempotency-Key': `e2e-iva-${name}-${Date.now()}` });

async function setTreatment(request: APIRequestContext, product: ProductDto, taxTreatment: string): Promise<void> {
  const { id, name, description, price, category, imageUrl, available } = product;
  const res = await request.put(`/api/products/${id}`, {
    headers: key(`product-${taxTreatment}`),
    data: { name, description, price, category, imageUrl, available, taxTreatment },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** The reports sheet's cells by concept (pesos), for today's business date. */
async function taxSheet(request: APIRequestContext, date: string): Promise<Record<string, number>> {
  const res = await request.get(`/api/reports/export.xlsx?from=${date}&to=${date}&report=impuestos`);
  expect(res.ok()).toBeTruthy();
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Uint8Array.from(await res.body()).buffer);
  const sheet = book.getWorksheet('Impuestos')!;
  return Object.fromEntries(
    sheet
      .getSheetValues()
      .slice(2)
      .map((r) => [String((r as unknown[])[1]), Number((r as unknown[])[2])]),
  );
}

test.describe('IVA desglosado @iva', () => {
  test('a table with food at 16 % and a drink at 8 %, paid in two checks: the ticket, the reprint, the corte and the xlsx agree to the centavo', async ({
    page,
    api,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await stubPrint(page);
    await login(page, 'admin');
    const request = page.request;
    const products = ((await (await request.get('/api/products')).json()) as { products: ProductDto[] }).products;
    const beer = products.find((p) => p.name === 'Cerveza clara')!;
    const tacos = products.find((p) => p.name === 'Tacos al pastor (3)')!;
    await setTreatment(request, beer, 'iva8');
    try {
      await withShiftHoldingNow(request, async (date) => {
        const closeBefore = (await (await request.get(`/api/cash-close?date=${date}`)).json()) as { taxes: Breakdown };
        const sheetBefore = await taxSheet(request, date);

        // Food and drink on one table, then one beer and one order of tacos moved into a second check.
        const order = await api.openTable<OrderDto>(request, TABLE, [
          [tacos.name, 2],
          [beer.name, 3],
        ]);
        await api.deliverAll(request, order);
        const beerLine = order.items.find((i) => i.productName === beer.name)!;
        const tacoLine = order.items.find((i) => i.productName === tacos.name)!;
        const split = await request.post(`/api/orders/${order.id}/checks`, {
          headers: key('split'),
          data: {
            checks: [
              {
                lines: [
                  { itemId: beerLine.id, quantity: 1 },
                  { itemId: tacoLine.id, quantity: 1 },
                ],
              },
            ],
          },
        });
        expect(split.ok(), await split.text()).toBeTruthy();
        const second = ((await split.json()) as { orders: OrderDto[] }).orders.find((c) => c.id !== order.id)!;

        // The checkout shows the check's IVA by rate, as the server computes it from its lines.
        const live = ((await (await request.get(`/api/orders/${order.id}/taxes`)).json()) as { taxBreakdown: Breakdown }).taxBreakdown;
        expect(live.groups.map((g) => g.treatment)).toEqual(['iva16', 'iva8']);
        await page.goto(`/admin/checkout/${order.id}`);
        const card = page.getByRole('region', { name: 'Impuestos incluidos' });
        await expect(card).toContainText('Subtotal sin IVA');
        await expect(card).toContainText(`IVA 16 %${money(ivaOf(live, 1600))}`);
        await expect(card).toContainText(`IVA 8 %${money(ivaOf(live, 800))}`);
        await expect(card).toContainText('Precios con IVA incluido');
        await page.screenshot({ path: `${SHOTS}/iva-checkout-1440.png`, fullPage: true });
        await expectNoSeriousViolations(page, 'checkout con impuestos');

        // Both checks paid; each freezes its breakdown.
        const paid: OrderDto[] = [];
        for (const [check, tipBps] of [
          [order, 1000],
          [second, 1500],
        ] as const) {
          const closed = await request.post(`/api/orders/${check.id}/close`, {
            headers: key(`close-${check.id}`),
            data: { method: 'efectivo', pin: '1234', tipBps, peopleCount: 2, receivedAmount: 1_000_000 },
          });
          expect(closed.ok(), await closed.text()).toBeTruthy();
          paid.push(((await closed.json()) as { order: OrderDto }).order);
        }
        const frozen = paid.map((o) => o.taxBreakdown!);
        expect(frozen[0]).toEqual(live);
        const iva16 = frozen.reduce((s, b) => s + ivaOf(b, 1600), 0);
        const iva8 = frozen.reduce((s, b) => s + ivaOf(b, 800), 0);

        // The paid checkout's ticket (PASE DE SALIDA) shows the frozen breakdown.
        await page.goto(`/admin/checkout/${order.id}`);
        await expect(page.getByRole('region', { name: 'Impuestos incluidos' })).toContainText(`IVA 8 %${money(ivaOf(frozen[0]!, 800))}`);

        // The reprint from Tickets shows the same lines.
        await page.goto('/admin/tickets');
        const ticketCard = page.getByTestId('ticket-card').filter({ hasText: `#${paid[1]!.id.slice(0, 6).toUpperCase()}` });
        await ticketCard.getByRole('button', { name: 'Ver / Reimprimir' }).click();
        const dialog = page.getByRole('dialog');
        const ticket = dialog.getByTestId('ticket').first();
        await expect(ticket).toContainText('PASE DE SALIDA');
        const taxes = ticket.getByTestId('tax-summary');
        await expect(taxes).toContainText(`Subtotal sin IVA${money(frozen[1]!.base)}`);
        await expect(taxes).toContainText(`IVA 16 %${money(ivaOf(frozen[1]!, 1600))}`);
        await expect(taxes).toContainText(`IVA 8 %${money(ivaOf(frozen[1]!, 800))}`);
        await expect(taxes).toContainText(`Total${money(frozen[1]!.amount)}`);
        await expect(ticket).toContainText('Precios con IVA incluido');
        expect(frozen[1]!.amount).toBe(paid[1]!.total - paid[1]!.tip);
        await page.screenshot({ path: `${SHOTS}/iva-reprint-1440.png` });
        await expectNoSeriousViolations(page, 'reimpresión con impuestos');
        await page.keyboard.press('Escape');

        // The cash close: this table's two checks add exactly their frozen IVA by rate.
        const closeAfter = (await (await request.get(`/api/cash-close?date=${date}`)).json()) as { taxes: Breakdown };
        expect(ivaOf(closeAfter.taxes, 1600) - ivaOf(closeBefore.taxes, 1600)).toBe(iva16);
        expect(ivaOf(closeAfter.taxes, 800) - ivaOf(closeBefore.taxes, 800)).toBe(iva8);
        await page.goto('/admin/cierre');
        const corte = page.getByTestId('cash-close-taxes');
        await expect(corte).toContainText(`IVA trasladado · IVA 16 %${money(ivaOf(closeAfter.taxes, 1600))}`);
        await expect(corte).toContainText(`IVA trasladado · IVA 8 %${money(ivaOf(closeAfter.taxes, 800))}`);
        await expect(corte).toContainText(`Ventas netas${money(closeAfter.taxes.base)}`);
        await corte.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/iva-cierre-1440.png`, fullPage: true });
        await expectNoSeriousViolations(page, 'cierre con impuestos');

        // The reports' sheet: the same IVA added, to the centavo.
        const sheetAfter = await taxSheet(request, date);
        const delta = (label: string) => Math.round((sheetAfter[label]! - (sheetBefore[label] ?? 0)) * 100);
        expect(delta('IVA 16 %')).toBe(iva16);
        expect(delta('IVA 8 %')).toBe(iva8);
        expect(delta('Ventas netas')).toBe(frozen[0]!.base + frozen[1]!.base);
        expect(delta('Propinas (no causan IVA)')).toBe(paid[0]!.tip + paid[1]!.tip);
        await page.goto('/admin/reportes');
        const report = page.getByTestId('report-impuestos');
        await report.scrollIntoViewIfNeeded();
        await expect(report).toContainText('IVA trasladado · IVA 8 %');
        await page.screenshot({ path: `${SHOTS}/iva-reportes-1440.png`, fullPage: true });
        await expectNoSeriousViolations(page, 'reportes con impuestos');
      });
    } finally {
      await setTreatment(request, beer, 'iva16');
    }
  });
});
