import type { APIRequestContext } from '@playwright/test';
import { test, expect, login, type Api, type Line, printCount, stubPrint, SHOTS } from './fixtures.ts';

const TZ = 'America/Mexico_City';

interface OrderDto {
  id: string;
  subtotal: number;
  total: number;
  items: { id: string; productName: string }[];
}

/** Opens table n, orders the products, delivers them and pays in cash with the admin PIN: a paid ticket. */
async function payTable(api: Api, request: APIRequestContext, n: number, lines: Line[]): Promise<OrderDto> {
  const order = await api.openTable<OrderDto>(request, n, lines);
  await api.deliverAll(request, order);
  const closed = await request.post(`/api/orders/${order.id}/close`, {
    headers: { 'Idempotency-Key': `e2e-tickets-${order.id}` },
    data: { method: 'efectivo', pin: '1234', tipBps: 1000, peopleCount: 2, receivedAmount: order.subtotal * 2 },
  });
  expect(closed.ok(), await closed.text()).toBeTruthy();
  return ((await closed.json()) as { order: OrderDto }).order;
}

const money = (c: number) => new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(c / 100);

/** The business date and hour right now in Mexico City (the e2e server's business time zone). */
function businessNow(): { date: string; hour: number; yesterday: string } {
  const parts = (at: Date) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  const now = new Date();
  const hour = Number(new Intl.DateTimeFormat('en-US', { timeZone: TZ, hour: 'numeric', hourCycle: 'h23' }).format(now));
  return { date: parts(now), hour, yesterday: parts(new Date(now.getTime() - 24 * 3600_000)) };
}

test.describe('tickets history and cash close', () => {
  test('two paid orders appear in Tickets and in the cash close; one is reprinted', async ({ page, api }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await stubPrint(page);
    await login(page, 'admin');
    const table10 = await payTable(api, page.request, 10, [
      ['Hamburguesa de la casa', 1],
      ['Michelada', 2],
    ]);
    const bar = await payTable(api, page.request, 0, [['Shot de mezcal', 3]]);

    // Tickets: grouped under today, newest first, one card per paid order.
    await page.goto('/admin/tickets');
    await expect(page.getByRole('heading', { name: 'Tickets', exact: true })).toBeVisible();
    const today = page.getByRole('region', { name: /^Hoy, / });
    await expect(today).toBeVisible();
    const cards = today.getByTestId('ticket-card');
    const barCard = cards
      .filter({ hasText: 'Barra' })
      .filter({ hasText: money(bar.total) })
      .first();
    const tableCard = cards
      .filter({ hasText: 'Mesa 10' })
      .filter({ hasText: money(table10.total) })
      .first();
    await expect(barCard).toBeVisible();
    await expect(tableCard).toBeVisible();
    await expect(tableCard).toContainText(`#${table10.id.slice(0, 6).toUpperCase()}`);
    await expect(tableCard).toContainText('Ana Administradora');
    // Newest first: the bar was paid after table 10.
    const order = await cards.allInnerTexts();
    const barIndex = order.findIndex((text) => text.includes('Barra') && text.includes(money(bar.total)));
    const tableIndex = order.findIndex((text) => text.includes('Mesa 10') && text.includes(money(table10.total)));
    expect(barIndex).toBeLessThan(tableIndex);
    await page.screenshot({ path: `${SHOTS}/tickets-list.png` });

    // Search narrows the list on the server.
    await page.getByRole('searchbox', { name: 'Buscar tickets' }).fill('mesa 10');
    await expect(page.getByTestId('ticket-card').filter({ hasText: 'Barra' })).toHaveCount(0);
    await expect(
      page
        .getByTestId('ticket-card')
        .filter({ hasText: money(table10.total) })
        .first(),
    ).toBeVisible();
    await page.getByRole('searchbox', { name: 'Buscar tickets' }).fill('');

    // Reprint: the modal shows the ticket and its payment; Imprimir calls the browser's print.
    await tableCard.getByRole('button', { name: 'Ver / Reimprimir' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('PASE DE SALIDA').first()).toBeVisible();
    await expect(dialog.getByText('ID de pago')).toBeVisible();
    await expect(dialog.getByLabel('Pago')).toContainText('Efectivo');
    await expect(dialog.getByLabel('Pago')).toContainText(money(table10.total));
    await expect(dialog.getByText('Hamburguesa de la casa').first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/tickets-reprint-modal.png` });
    await dialog.getByRole('button', { name: 'Imprimir', exact: true }).click();
    expect(await printCount(page)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: `${SHOTS}/tickets-reprint-print.png` });
    await page.emulateMedia({ media: 'screen' });
    await dialog.getByRole('button', { name: 'Cerrar' }).last().click();
    await expect(dialog).toBeHidden();

    // Cash close: 17:00–03:00 business time is the shift; between 03:00 and 17:00 the orders
    // fall outside every shift and the screen must say so. Pick the date explicitly.
    const now = businessNow();
    const inShift = now.hour >= 17 || now.hour < 3;
    const date = now.hour < 3 ? now.yesterday : now.date;
    await page.goto('/admin/cierre');
    await expect(page.getByRole('heading', { name: 'Cierre de Caja' })).toBeVisible();
    await page.getByLabel('Fecha del turno').fill(date);
    await expect(page.getByLabel('Fecha del turno')).toHaveValue(date);
    const report = (await (await page.request.get(`/api/cash-close?date=${date}`)).json()) as {
      summary: { totalOrders: number; totalSales: number };
      outsideShift: { count: number };
    };
    if (inShift) {
      expect(report.summary.totalOrders).toBeGreaterThanOrEqual(2);
      await expect(page.getByTestId('summary-cards')).toContainText(money(report.summary.totalSales));
      await expect(page.getByTestId('by-waiter')).toContainText('Ana Administradora');
      await expect(page.getByTestId('top-products')).toContainText('Shot de mezcal');
    } else {
      expect(report.outsideShift.count).toBeGreaterThanOrEqual(2);
      const notice = page.getByTestId('outside-shift');
      await expect(notice).toContainText(`${report.outsideShift.count} órdenes pagadas`);
      await notice.getByRole('button', { name: 'Ver órdenes' }).click();
      await expect(notice).toContainText(`#${table10.id.slice(0, 6).toUpperCase()}`);
      await expect(notice.getByText(money(bar.total)).first()).toBeVisible();
    }
    await page.screenshot({ path: `${SHOTS}/cash-close.png`, fullPage: true });

    // The CSV export of that shift and the printable report.
    const csv = await page.request.get(`/api/cash-close/export.csv?date=${date}`);
    expect(csv.ok()).toBeTruthy();
    const body = await csv.body();
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(body.toString('utf8')).toContain('Ticket,Fecha,Hora,Mesa');
    await expect(page.getByRole('link', { name: 'Exportar CSV' })).toHaveAttribute('href', `/api/cash-close/export.csv?date=${date}`);
    await page.getByRole('button', { name: 'Imprimir reporte' }).click();
    // page.goto reloaded the app, so the recorder starts again from zero here.
    expect(await printCount(page)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: `${SHOTS}/cash-close-print.png`, fullPage: true });
  });

  test('a shift without sales says so', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, 'admin');
    await page.goto('/admin/cierre');
    await page.getByLabel('Fecha del turno').fill('2020-01-15');
    await expect(page.getByText('No hay ventas registradas en este turno')).toBeVisible();
    await expect(page.getByTestId('shift-window')).toContainText('Turno del 15 ene 2020, 17:00 al 16 ene 2020, 03:00');
    await page.screenshot({ path: `${SHOTS}/cash-close-empty.png` });
  });
});
