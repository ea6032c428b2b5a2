import type { Page, TestInfo } from '@playwright/test';
import { test, expect, expectNoSeriousViolations, signedInContext, withShiftHoldingNow, MOBILE, type TableDto } from './fixtures.ts';

// Tables 320–329 belong to this file. The promotion prices only a product this spec creates, so
// no other spec's totals change; it is deleted at the end.
const money = (c: number) => new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(c / 100);

const shot = (page: Page, info: TestInfo, name: string) => page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: true });

test.describe('promotions (happy hour) @menu', () => {
  test('the admin creates a promotion; the picker shows PROMO with its price; the order and the ticket show it', async ({
    browser,
  }, info) => {
    // Four screens, each with an axe scan, on a shared two-core machine.
    test.setTimeout(180_000);
    const suffix = Date.now() % 100000;
    const productName = `Cerveza de barril ${suffix}`;
    const promoName = `Happy hour ${suffix}`;
    const admin = await signedInContext(browser, 'admin');
    const a = admin.page;
    const created = await a.request.post('/api/products', {
      data: { name: productName, description: 'Tarro', price: 8000, category: 'Bebida' },
    });
    expect(created.ok(), await created.text()).toBeTruthy();
    const { product } = (await created.json()) as { product: { id: string } };

    // The admin's Promociones screen: 25 % off that product, every day, all day (00:00–00:00).
    await a.goto('/admin/promociones');
    await expect(a.getByRole('heading', { name: 'Promociones', exact: true })).toBeVisible();
    await a.getByRole('button', { name: 'Nueva promoción' }).click();
    const form = a.getByRole('dialog', { name: 'Nueva promoción' });
    await form.getByLabel('Nombre').fill(promoName);
    await form.getByLabel('Descuento (%)').fill('25');
    for (const day of ['Dom', 'Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb']) await form.getByLabel(day, { exact: true }).check();
    await form.getByLabel('Desde').fill('00:00');
    await form.getByLabel('Hasta').fill('00:00');
    await form.getByLabel(productName).check();
    await shot(a, info, 'promotion-form');
    await expectNoSeriousViolations(a, 'promotion form');
    await form.getByRole('button', { name: 'Guardar' }).click();
    await expect(form).toBeHidden();
    const card = a.getByTestId('promotion-card').filter({ hasText: promoName });
    await expect(card).toContainText('−25 %');
    await shot(a, info, 'promotions-page');
    await expectNoSeriousViolations(a, 'promotions page');

    // The waiter's picker: PROMO with the promotion price on the product's row.
    const waiter = await signedInContext(browser, 'waiter', MOBILE);
    const w = waiter.page;
    const added = await a.request.post('/api/tables', { data: { number: 320 } });
    expect([200, 201, 409]).toContain(added.status());
    const tables = ((await (await a.request.get('/api/tables')).json()) as { tables: TableDto[] }).tables;
    const table = tables.find((t) => t.number === 320)!;
    if (table.status === 'libre') expect((await w.request.post(`/api/tables/${table.id}/open`)).ok()).toBeTruthy();
    await w.goto(`/waiter/order/${table.id}`);
    await w.getByRole('button', { name: 'Agregar', exact: true }).click();
    const picker = w.getByRole('dialog', { name: 'Agregar productos' });
    await picker.getByRole('searchbox').fill(productName);
    const row = picker.getByRole('button', { name: new RegExp(`^${productName}`) });
    await expect(row.getByTestId('promo-badge')).toHaveText(`PROMO −25 % · ${money(6000)}`);
    await shot(w, info, 'picker-promo');
    await expectNoSeriousViolations(w, 'picker with PROMO');
    // A simple product: one tap adds it (the faster picker, decision 0027).
    await row.click();
    await expect(w.getByText(`${productName} agregado`)).toBeVisible();
    await picker.getByRole('button', { name: 'Cerrar' }).first().click();
    await expect(picker).toBeHidden();

    // The order: the line at the promotion price, marked PROMO.
    const line = w.getByTestId('order-item').filter({ hasText: productName });
    await expect(line.getByTestId('promo-tag')).toHaveText(`PROMO ${promoName}`);
    await expect(line).toContainText(money(6000));
    await shot(w, info, 'order-promo');
    await expectNoSeriousViolations(w, 'order with PROMO');

    // Paid: the ticket shows the promotion price and PROMO under the line.
    const order = (await (await a.request.get(`/api/tables/${table.id}/order`)).json()) as {
      order: { id: string; subtotal: number; items: { id: string }[] };
    };
    expect(order.order.subtotal).toBe(6000);
    for (const item of order.order.items)
      expect(
        (await a.request.patch(`/api/orders/${order.order.id}/items/${item.id}/status`, { data: { status: 'entregado' } })).ok(),
      ).toBeTruthy();
    const closed = await a.request.post(`/api/orders/${order.order.id}/close`, {
      headers: { 'Idempotency-Key': `e2e-promo-${order.order.id}` },
      data: { method: 'efectivo', pin: '1234', tipBps: 0, peopleCount: 1, receivedAmount: 6000 },
    });
    expect(closed.ok(), await closed.text()).toBeTruthy();
    await a.goto('/admin/tickets');
    await a.getByRole('searchbox', { name: 'Buscar tickets' }).fill('mesa 320');
    await a.getByTestId('ticket-card').filter({ hasText: 'Mesa 320' }).first().getByRole('button', { name: 'Ver / Reimprimir' }).click();
    const ticket = a.getByRole('dialog');
    await expect(ticket.getByText('PASE DE SALIDA').first()).toBeVisible();
    await expect(ticket.getByTestId('ticket-promo').first()).toHaveText(`PROMO ${promoName}`);
    await expect(ticket.getByText(productName).first()).toBeVisible();
    await expect(ticket.getByText(money(6000)).first()).toBeVisible();
    await shot(a, info, 'ticket-promo');
    await expectNoSeriousViolations(a, 'ticket with PROMO');

    // The cash close lists it under "Descuentos por promoción": a sale made between shifts is held
    // by one only while the hours are widened (fixtures: withShiftHoldingNow).
    await withShiftHoldingNow(a.request, async () => {
      await a.goto('/admin/cierre');
      const panel = a.getByTestId('cash-close-promotions');
      await expect(panel).toContainText('Descuentos por promoción', { timeout: 30_000 });
      await expect(panel.getByRole('row').filter({ hasText: promoName })).toContainText(money(2000));
      await shot(a, info, 'cash-close-promotions');
      await expectNoSeriousViolations(a, 'cash close with promotions');
    });

    // Clean up: the promotion goes, the product leaves the menu.
    const list = (await (await a.request.get('/api/promotions')).json()) as { promotions: { id: string; name: string }[] };
    for (const p of list.promotions.filter((p) => p.name === promoName))
      expect((await a.request.delete(`/api/promotions/${p.id}`)).ok()).toBeTruthy();
    expect((await a.request.patch(`/api/products/${product.id}/availability`, { data: { available: false } })).ok()).toBeTruthy();
    await admin.context.close();
    await waiter.context.close();
  });
});
