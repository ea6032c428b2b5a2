import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, login, expectNoSeriousViolations, ACCOUNTS, MOBILE, type Api, type OrderDto, SHOTS } from './fixtures.ts';

// Tables 171–173 belong to this file: it adds them itself (161–166 are checkout-friction's).
mkdirSync(SHOTS, { recursive: true });
const TABLET = { width: 1280, height: 900 };

interface TicketBody {
  invoicing: { state: string; selfInvoiceUrl: string | null; receiptKey: string | null } | null;
}

/** A check paid in cash through the API, its receipt issued at the PAC (the simulator in demo mode). */
async function paidTicket(request: APIRequestContext, api: Api, table: number) {
  const order = await api.openTable<OrderDto & { subtotal: number; folio: number | null }>(request, table, [['Michelada', 2]]);
  await api.deliverAll(request, order);
  const closed = await request.post(`/api/orders/${order.id}/close`, {
    headers: { 'Idempotency-Key': `e2e-factura-${order.id}` },
    data: { method: 'efectivo', pin: ACCOUNTS.admin.pin, tipBps: 1000, peopleCount: 1, receivedAmount: order.subtotal * 2 },
  });
  expect(closed.ok(), await closed.text()).toBeTruthy();
  const paid = ((await closed.json()) as { order: OrderDto & { folio: number } }).order;
  let ticket: TicketBody | null = null;
  await expect
    .poll(
      async () => {
        ticket = (await (await request.get(`/api/tickets/${order.id}`)).json()) as TicketBody;
        return ticket.invoicing?.state;
      },
      { timeout: 15_000 },
    )
    .toBe('emitido');
  return { order: paid, invoicing: ticket!.invoicing! };
}

async function openTicket(page: Page, orderId: string) {
  await page.goto('/admin/tickets');
  const card = page.getByTestId('ticket-card').filter({ hasText: `#${orderId.slice(0, 6).toUpperCase()}` });
  await card.getByRole('button', { name: 'Ver / Reimprimir' }).click();
  return page.getByRole('dialog');
}

test.describe('facturación', () => {
  test('@factura the cashier invoices a ticket, a customer invoices another on a phone, the period’s global appears and an invoice is cancelled with motivo 02', async ({
    page,
    api,
    browser,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(TABLET);
    await login(page, 'admin');
    const cashier = await paidTicket(page.request, api, 171);
    const customer = await paidTicket(page.request, api, 172);
    const rest = await paidTicket(page.request, api, 173);

    // The cashier: Tickets › the ticket › Facturar with the customer's Constancia.
    const dialog = await openTicket(page, cashier.order.id);
    const section = dialog.getByRole('region', { name: 'Facturación' });
    await section.getByRole('button', { name: 'Facturar' }).click();
    await section.getByLabel('RFC').fill('COSC8001137NA');
    await section.getByLabel('Código postal').fill('01000');
    await section.getByLabel(/Nombre o razón social/).fill('CARLOS CORTES SOTO SA DE CV');
    await expect(section.getByText('Sin el régimen societario')).toBeVisible();
    await section.getByLabel(/Nombre o razón social/).fill('CARLOS CORTES SOTO');
    // A persona física: no régimen of a persona moral is offered; the usos follow the régimen.
    await expect(section.getByLabel('Régimen fiscal').locator('option', { hasText: '601 ·' })).toHaveCount(0);
    await section.getByLabel('Régimen fiscal').selectOption('605');
    await expect(section.getByLabel('Uso del CFDI').locator('option', { hasText: 'G03 ·' })).toHaveCount(0);
    await section.getByLabel('Régimen fiscal').selectOption('612');
    await section.getByLabel('Uso del CFDI').selectOption('G03');
    await section.getByLabel(/Correo electrónico/).fill('carlos@example.mx');
    await expect(section).toContainText('01 · Efectivo');
    await section.getByRole('button', { name: 'Facturar' }).click();
    await expect(section.getByRole('status')).toContainText('Factura timbrada:');
    await expect(section.getByRole('status')).toContainText('Enviada a carlos@example.mx');
    await expect(section.getByRole('link', { name: 'PDF' })).toBeVisible();
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/factura-cajero.png` });
    await expectNoSeriousViolations(page, 'Facturar en el ticket');
    const pdf = await page.request.get((await section.getByRole('link', { name: 'PDF' }).getAttribute('href'))!);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    await dialog.getByRole('button', { name: 'Cerrar' }).last().click();

    // The customer, at home: the ticket's QR opens the PAC's self-invoice page on the phone.
    const phone = await browser.newContext({ viewport: MOBILE, isMobile: true, hasTouch: true });
    const portal = await phone.newPage();
    await portal.goto(customer.invoicing.selfInvoiceUrl!);
    await expect(portal.getByRole('heading', { name: 'Factura tu consumo' })).toBeVisible();
    await portal.getByLabel('RFC').fill('EKU9003173C9');
    await portal.getByLabel(/Nombre o razón social/).fill('ESCUELA KEMPER URGATE');
    await portal.getByLabel('Código postal').fill('42501');
    await portal.getByLabel('Régimen fiscal').selectOption('601');
    await portal.getByLabel('Uso del CFDI').selectOption('G03');
    await portal.screenshot({ path: `${SHOTS}/factura-autofactura-telefono.png`, fullPage: true });
    await portal.getByRole('button', { name: 'Facturar' }).click();
    await expect(portal.getByRole('heading', { name: 'Factura emitida' })).toBeVisible();
    await portal.screenshot({ path: `${SHOTS}/factura-autofactura-emitida.png` });
    await phone.close();

    // Facturación sees the self-invoice without anyone asking: the PAC is read in the background
    // and the screen is told live (no reload, no "Actualizar").
    await page.goto('/admin/facturacion');
    await page.getByRole('tab', { name: 'Recibos' }).click();
    const selfInvoiced = page.locator(`[data-receipt="${customer.order.id}"]`);
    await expect(selfInvoiced).toBeVisible();
    await expect(selfInvoiced).toContainText('Facturado', { timeout: 30_000 });
    await page.screenshot({ path: `${SHOTS}/factura-autofactura-vista.png` });

    // The period ends: its global takes every receipt nobody invoiced.
    await expect(page.getByRole('heading', { name: 'Facturación' })).toBeVisible();
    await page.getByRole('button', { name: 'Emitir global ahora' }).click();
    await expect(page.getByText('Factura global emitida')).toBeVisible();
    await page.getByRole('tab', { name: 'Facturas globales' }).click();
    const global = page.locator('[data-invoice]').filter({ hasText: 'Timbrada' }).first();
    await expect(global).toBeVisible();
    await expect(global.getByRole('link', { name: 'XML' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/factura-global.png` });
    await expectNoSeriousViolations(page, 'Facturación › globales');
    const receipts = await (await page.request.get('/api/invoicing')).json();
    const stateOf = (id: string) =>
      (receipts as { receipts: { orderId: string; state: string }[] }).receipts.find((r) => r.orderId === id)?.state;
    expect([stateOf(cashier.order.id), stateOf(customer.order.id), stateOf(rest.order.id)]).toEqual([
      'facturado',
      'facturado',
      'en_global',
    ]);

    // The cashier's invoice is cancelled with motivo 02, the admin's PIN.
    await page.getByRole('tab', { name: 'Facturas', exact: true }).click();
    // Found by its ticket's folio: a retry on the same server leaves another invoice to the same customer.
    const invoice = page.locator('[data-invoice]').filter({ hasText: `Ticket #${cashier.order.folio} · CARLOS CORTES SOTO` });
    await expect(invoice.getByText('Autofactura')).toHaveCount(0);
    await invoice.getByRole('button', { name: 'Cancelar' }).click();
    const cancel = page.getByRole('dialog');
    await expect(cancel.getByLabel('Motivo')).toHaveValue('02');
    await cancel.getByLabel('Motivo').selectOption('01');
    await expect(cancel.getByLabel(/que la sustituye/)).toBeVisible();
    await cancel.getByLabel('Motivo').selectOption('02');
    await cancel.getByLabel('PIN de administrador').fill(ACCOUNTS.admin.pin);
    await page.screenshot({ path: `${SHOTS}/factura-cancelar.png` });
    await expectNoSeriousViolations(page, 'Cancelar factura');
    await cancel.getByRole('button', { name: 'Cancelar factura' }).click();
    await expect(invoice.getByText('Cancelada', { exact: true })).toBeVisible();
    await expect(invoice).toContainText('Motivo 02');
    await page.screenshot({ path: `${SHOTS}/factura-cancelada.png` });
  });
});
