import { test, expect, enterPin, login, signedInContext, MOBILE, withShiftHoldingNow } from './fixtures.ts';

/** Tables 141–150 belong to this spec: created through the admin API when missing. */
const TABLE = 141;

interface OrderDto {
  id: string;
  status: string;
  subtotal: number;
  discount?: number;
  comp?: number;
  tip: number;
  total: number;
  items: { id: string; productName: string }[];
  payments: { amount: number; tipAmount: number }[];
}

test.describe('discounts and comps @service', () => {
  test('a comp of one beer and a 10 % check discount with the admin PIN; checkout shows every figure and cash closes the right total @service', async ({
    page,
    browser,
    api,
  }) => {
    test.setTimeout(180_000); // two browsers and a dozen steps on a shared machine
    const { context: adminContext, page: adminPage } = await signedInContext(browser, 'admin');
    const admin = adminPage.request;
    const table = await api.tableByNumber(TABLE);
    expect(table.status, `table ${TABLE} must be free for this spec`).toBe('libre');
    const tableId = table.id;

    await page.setViewportSize(MOBILE);
    await login(page, 'waiter');
    const opened = await page.request.post(`/api/tables/${tableId}/open`);
    expect(opened.ok(), await opened.text()).toBeTruthy();
    let order = ((await opened.json()) as { order: OrderDto }).order;
    const { products } = (await (await page.request.get('/api/products?available=1')).json()) as {
      products: { id: string; name: string }[];
    };
    for (const [name, quantity] of [
      ['Cerveza clara', 2],
      ['Tacos al pastor (3)', 1],
    ] as const) {
      const added = await page.request.post(`/api/orders/${order.id}/items`, {
        data: { productId: products.find((p) => p.name === name)!.id, quantity },
      });
      expect(added.ok(), await added.text()).toBeTruthy();
      order = ((await added.json()) as { order: OrderDto }).order;
    }
    for (const item of order.items) {
      const res = await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { data: { status: 'entregado' } });
      expect(res.ok(), await res.text()).toBeTruthy();
    }

    // 2 × $55.00 + $95.00 = $205.00.
    await page.goto(`/waiter/order/${tableId}`);
    await expect(page.getByTestId('order-total')).toHaveText('$205.00');
    const panel = page.getByTestId('order-adjustments');

    // Cortesía: one of the two beers, on the house.
    await panel.getByRole('button', { name: 'Cortesía' }).click();
    let dialog = page.getByRole('dialog', { name: 'Cortesía' });
    await dialog.getByLabel('Aplicar a').selectOption({ label: '2 × Cerveza clara · $110.00' });
    await dialog.getByLabel('Unidades de cortesía').fill('1');
    await dialog.getByLabel('Motivo').selectOption('Cortesía de la casa');
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    await expect(page.getByRole('dialog')).toContainText('Autoriza: Cortesía · 1 × Cerveza clara');
    await enterPin(page, '1111'); // a waiter's PIN does not authorise
    await expect(page.getByRole('dialog').getByRole('alert')).toBeVisible();
    await enterPin(page, '1234');
    await expect(page.getByText('Ajuste aplicado')).toBeVisible();
    await expect(page.getByTestId('order-total')).toHaveText('$150.00');

    // Descuento: 10 % of the whole check, on what is left ($150.00).
    await panel.getByRole('button', { name: 'Descuento' }).click();
    dialog = page.getByRole('dialog', { name: 'Descuento' });
    await dialog.getByLabel('Porcentaje (%)').fill('10');
    await dialog.getByLabel('Motivo').selectOption('Cliente frecuente');
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    await enterPin(page, '1234');
    await expect(page.getByTestId('order-total')).toHaveText('$135.00');
    await expect(panel.getByTestId('adjustment-row')).toHaveCount(2);
    await expect(panel).toContainText('Descuento 10% · Toda la cuenta');
    await expect(panel).toContainText('-$15.00');
    await expect(panel).toContainText('-$55.00');
    await expect(panel).toContainText('Autorizó Ana Administradora');

    // Checkout: Subtotal, Descuentos, Cortesías, Propina (on what is owed), Total.
    await page.getByRole('button', { name: 'Cobrar' }).click();
    await expect(page.getByRole('heading', { name: new RegExp(`Cobro · Mesa ${TABLE}`) })).toBeVisible();
    await page.getByRole('button', { name: '10%' }).click();
    const summary = page.locator('main');
    await expect(summary).toContainText('Subtotal');
    await expect(summary).toContainText('$205.00');
    await expect(summary).toContainText('Descuentos');
    await expect(summary).toContainText('-$15.00');
    await expect(summary).toContainText('Cortesías');
    await expect(summary).toContainText('-$55.00');
    await expect(summary).toContainText('Propina');
    await expect(summary).toContainText('$13.50');
    await expect(page.getByTestId('checkout-total')).toHaveText('$148.50');

    await page.getByRole('button', { name: 'Efectivo' }).click();
    await page.getByRole('button', { name: 'Exacto' }).click();
    await expect(page.getByLabel('Monto recibido')).toHaveValue('148.50');
    await page.getByRole('button', { name: 'Finalizar' }).click();
    await enterPin(page, '1111');
    await expect(page.getByText('Pago registrado')).toBeVisible();

    const paid = ((await (await admin.get(`/api/orders/${order.id}`)).json()) as { order: OrderDto }).order;
    expect(paid).toMatchObject({ status: 'pagado', subtotal: 20_500, discount: 1_500, comp: 5_500, tip: 1_350, total: 14_850 });
    expect(paid.payments).toEqual([expect.objectContaining({ amount: 14_850, tipAmount: 1_350 })]);

    // The cash close lists them by reason and by user. A sale made between shifts is held by one only while
    // the hours are widened (fixtures: withShiftHoldingNow).
    await withShiftHoldingNow(admin, async () => {
      const summary2 = (await (await admin.get('/api/cash-close/adjustments')).json()) as {
        byReason: { key: string }[];
        byUser: { key: string }[];
      };
      expect(summary2.byReason.map((r) => r.key)).toEqual(expect.arrayContaining(['Cortesía de la casa', 'Cliente frecuente']));
      await adminPage.goto('/admin/cierre');
      const close = adminPage.getByTestId('cash-close-adjustments');
      await expect(close).toContainText('Descuentos y cortesías', { timeout: 30_000 });
      await expect(close).toContainText('Cortesía de la casa');
      await expect(close).toContainText('Cliente frecuente');
      await expect(close).toContainText('Mario Mesero');
    });
    await adminContext.close();
  });
});
