import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, addInPicker, signedInContext, MOBILE, ensureTable, type TableDto } from './fixtures.ts';

// Separate checks and bar tabs (docs/decisions/0014-checks-are-orders.md). Tables 111–120 belong
// to this file (the admin adds them); tabs on the Barra get names no other run uses.

interface OrderDto {
  id: string;
  subtotal: number;
  status: string;
  items: { id: string }[];
}

const money = (c: number) => new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(c / 100);

async function tableByNumber(request: APIRequestContext, n: number): Promise<TableDto> {
  const list = async () => ((await (await request.get('/api/tables')).json()) as { tables: TableDto[] }).tables;
  return (await list()).find((t) => t.number === n)!;
}

async function addItems(request: APIRequestContext, orderId: string, lines: [string, number][]): Promise<OrderDto> {
  const { products } = (await (await request.get('/api/products?available=1')).json()) as { products: { id: string; name: string }[] };
  let order: OrderDto | undefined;
  for (const [name, quantity] of lines) {
    const res = await request.post(`/api/orders/${orderId}/items`, {
      data: { productId: products.find((p) => p.name === name)!.id, quantity },
    });
    expect(res.ok(), await res.text()).toBeTruthy();
    order = ((await res.json()) as { order: OrderDto }).order;
  }
  return order!;
}

async function deliverAll(admin: APIRequestContext, orderId: string): Promise<void> {
  const { order } = (await (await admin.get(`/api/orders/${orderId}`)).json()) as { order: OrderDto };
  for (const item of order.items) {
    const res = await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { data: { status: 'entregado' } });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
}

/** The table opened by the waiter with 2 tacos (95), 3 beers (55) and a michelada (85): 6 items, $440.00, all delivered. */
async function tableWithSixItems(
  admin: APIRequestContext,
  waiter: APIRequestContext,
  n: number,
): Promise<{ table: TableDto; order: OrderDto }> {
  const table = await ensureTable(admin, n);
  expect(table.status, `table ${n} must be free`).toBe('libre');
  const opened = await waiter.post(`/api/tables/${table.id}/open`);
  expect(opened.ok(), await opened.text()).toBeTruthy();
  const { order: fresh } = (await opened.json()) as { order: OrderDto };
  const order = await addItems(waiter, fresh.id, [
    ['Tacos al pastor (3)', 2],
    ['Cerveza clara', 3],
    ['Michelada', 1],
  ]);
  expect(order.subtotal).toBe(440_00);
  await deliverAll(admin, order.id);
  return { table, order };
}

/** Cash, exact amount, the cashier's PIN: returns the taps it took from the checkout screen. */
async function payExactCash(page: Page, pin: string): Promise<number> {
  await expect(page).toHaveURL(/\/checkout\//);
  await page.getByRole('group', { name: 'Billetes rápidos' }).getByRole('button', { name: 'Exacto' }).click();
  await page.getByRole('button', { name: 'Finalizar' }).click();
  const dialog = page.getByRole('dialog');
  for (const digit of pin) await dialog.getByRole('button', { name: digit, exact: true }).click();
  await expect(page.getByText('Pago registrado')).toBeVisible();
  return 2 + pin.length + 1;
}

/** The whole balance of a check by transfer (no terminal), through Agregar pago and the cashier's PIN. */
async function payByTransfer(page: Page, pin: string): Promise<void> {
  await expect(page).toHaveURL(/\/checkout\//);
  await page.getByRole('button', { name: 'Agregar pago' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agregar pago' });
  await dialog.getByRole('button', { name: 'Transferencia', exact: true }).click();
  await dialog.getByLabel('Referencia de la transferencia (opcional)').fill('SPEI 1207');
  await page.getByTestId('add-payment-submit').click();
  const keypad = page.getByRole('dialog', { name: 'PIN del cajero' });
  for (const digit of pin) await keypad.getByRole('button', { name: digit, exact: true }).click();
  await expect(page.getByTestId('status-chip')).toHaveText('PAGADO', { timeout: 10_000 });
}

/** The whole balance of a check on the card terminal (the demo simulator approves it by itself). */
async function payByCard(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/checkout\//);
  await page.getByRole('button', { name: 'Agregar pago' }).click();
  await page.getByRole('dialog', { name: 'Agregar pago' }).getByRole('button', { name: 'Tarjeta', exact: true }).click();
  await page.getByTestId('add-payment-submit').click();
  const card = page.getByRole('dialog');
  await card.getByRole('button', { name: 'Enviar cobro a la terminal' }).click();
  await expect(card.getByText('¡Pago aprobado!')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('status-chip')).toHaveText('PAGADO', { timeout: 15_000 });
}

test.describe('separate checks and bar tabs @service', () => {
  // Several screens and payments per test, on a machine shared with other work.
  test.describe.configure({ timeout: 180_000 });
  test('a table split into 3 checks by item, paid by transfer, card and cash; the table is freed after the last @service', async ({
    browser,
  }) => {
    const admin = await signedInContext(browser, 'admin');
    const { context, page } = await signedInContext(browser, 'waiter', MOBILE);
    const n = 111 + test.info().retry;
    const { table, order } = await tableWithSixItems(admin.page.request, page.request, n);

    await page.goto('/waiter/home');
    await page.getByTestId(`table-card-${n}`).getByRole('button', { name: 'Ver Pedido' }).click();
    await page.getByTestId('split-checks').click();
    const dialog = page.getByRole('dialog', { name: 'Cuentas separadas' });
    await dialog.getByRole('button', { name: 'Otra cuenta' }).click();
    await dialog.getByRole('button', { name: 'Una Cerveza clara más para Cuenta B' }).click();
    await dialog.getByRole('button', { name: 'Una Cerveza clara más para Cuenta B' }).click();
    await dialog.getByRole('button', { name: 'Una Tacos al pastor (3) más para Cuenta C' }).click();
    await dialog.getByRole('button', { name: 'Una Cerveza clara más para Cuenta C' }).click();
    // Live sums per check, and all of it assigned.
    await expect(dialog.getByTestId('split-sum')).toHaveText([/Cuenta A\s*\$180\.00/, /Cuenta B\s*\$110\.00/, /Cuenta C\s*\$150\.00/]);
    await expect(dialog.getByRole('status')).toHaveText(`Todo asignado: las cuentas suman ${money(440_00)}`);
    await dialog.getByRole('button', { name: 'Dividir' }).click();
    await expect(dialog).toBeHidden();

    const checks = page.getByTestId('table-check');
    await expect(checks).toHaveCount(3);
    await expect(page.getByTestId('table-check-total')).toHaveText(['$180.00', '$110.00', '$150.00']);
    await page.screenshot({ path: test.info().outputPath('service-checks-split-390.png') });

    // Each check is charged on its own, by its own order id: B by transfer, A on the card terminal.
    for (const [name, left, pay] of [
      ['Cuenta B', 2, () => payByTransfer(page, '1111')],
      ['Cuenta A', 1, () => payByCard(page)],
    ] as const) {
      await page.goto(`/waiter/order/${table.id}`);
      await page.getByRole('button', { name: `Cobrar ${name}` }).click();
      await pay();
      await page.goto(`/waiter/order/${table.id}`);
      await expect(page.getByTestId('table-check').or(page.getByTestId('order-tab-name'))).toHaveCount(left === 1 ? 1 : left);
      expect((await tableByNumber(page.request, n)).status).toBe('ocupada');
    }
    // The last one: Cuenta C, now the table's order.
    await expect(page.getByTestId('order-tab-name')).toHaveText('Cuenta C');
    await page.getByRole('button', { name: 'Cobrar', exact: true }).click();
    await payExactCash(page, '1111');
    expect(await tableByNumber(page.request, n)).toMatchObject({ status: 'libre', currentOrderId: null });
    const first = (await (await admin.page.request.get(`/api/orders/${order.id}`)).json()) as { order: OrderDto };
    expect(first.order.status).toBe('pagado');
    await Promise.all([admin.context.close(), context.close()]);
  });

  test('taps: split a 6-item table into 2 checks by item and pay one in cash @service', async ({ browser }) => {
    const admin = await signedInContext(browser, 'admin');
    const { context, page } = await signedInContext(browser, 'waiter', MOBILE);
    const n = 113 + test.info().retry;
    await tableWithSixItems(admin.page.request, page.request, n);

    let taps = 0;
    await page.goto('/waiter/home');
    await page.getByTestId(`table-card-${n}`).getByRole('button', { name: 'Ver Pedido' }).click();
    taps += 1;
    await page.getByTestId('split-checks').click();
    taps += 1;
    const dialog = page.getByRole('dialog', { name: 'Cuentas separadas' });
    // The three beers go to Cuenta B.
    for (let i = 0; i < 3; i++) {
      await dialog.getByRole('button', { name: 'Una Cerveza clara más para Cuenta B' }).click();
      taps += 1;
    }
    await expect(dialog.getByTestId('split-sum')).toHaveText([/Cuenta A\s*\$275\.00/, /Cuenta B\s*\$165\.00/]);
    await dialog.getByRole('button', { name: 'Dividir' }).click();
    taps += 1;
    await page.getByRole('button', { name: 'Cobrar Cuenta B' }).click();
    taps += 1;
    await expect(page.getByTestId('bar-total')).toHaveText('$165.00');
    taps += await payExactCash(page, '1111');
    console.log(`TAPS split a 6-item table into 2 checks by item and pay one in cash: ${taps}`);
    expect(taps).toBe(14);
    expect((await tableByNumber(page.request, n)).status).toBe('ocupada');
    await Promise.all([admin.context.close(), context.close()]);
  });

  test('a tab at the bar opened, worked and paid while another tab stays open @service', async ({ browser }) => {
    const admin = await signedInContext(browser, 'admin');
    const { context, page } = await signedInContext(browser, 'waiter', MOBILE);
    const stamp = Date.now().toString(36);
    const juan = `Juan ${stamp}`;
    const ana = `Ana ${stamp}`;
    const bar = await tableByNumber(admin.page.request, 0);

    // Another tab is already open at the bar (the second waiter's).
    const other = await signedInContext(browser, 'waiter2', MOBILE);
    const anaRes = await other.page.request.post(`/api/tables/${bar.id}/tabs`, { data: { name: ana } });
    expect(anaRes.ok(), await anaRes.text()).toBeTruthy();
    const anaTab = ((await anaRes.json()) as { order: OrderDto }).order;

    await page.goto('/waiter/home');
    await page.getByTestId('bar-tabs').getByRole('button', { name: 'Nueva cuenta' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nueva cuenta en la Barra' });
    await dialog.getByLabel('Nombre de la cuenta').fill(juan);
    await dialog.getByRole('button', { name: 'Abrir cuenta' }).click();
    await expect(page).toHaveURL(new RegExp(`/waiter/order/${bar.id}\\?cuenta=`));
    const tabId = new URL(page.url()).searchParams.get('cuenta')!;

    // Worked like a table's order: a beer from the picker, then delivered at the bar.
    await page.getByRole('button', { name: 'Agregar', exact: true }).click();
    await addInPicker(page, { search: 'cerveza', name: 'Cerveza clara' });
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('order-total')).toHaveText('$55.00');
    await deliverAll(admin.page.request, tabId);

    // The home lists the waiter's tab (not the other waiter's) with its total.
    await page.goto('/waiter/home');
    const tab = page.getByTestId('bar-tabs').getByTestId('bar-tab').filter({ hasText: juan });
    await expect(tab).toContainText('$55.00');
    await expect(page.getByTestId('bar-tabs').getByTestId('bar-tab').filter({ hasText: ana })).toHaveCount(0);
    // The admin's tables panel shows both.
    await admin.page.goto('/admin/home');
    await expect(admin.page.getByTestId('bar-tabs').getByTestId('bar-tab').filter({ hasText: juan })).toBeVisible();
    await expect(admin.page.getByTestId('bar-tabs').getByTestId('bar-tab').filter({ hasText: ana })).toBeVisible();

    await tab.click();
    await expect(page).toHaveURL(new RegExp(`cuenta=${tabId}`));
    await expect(page.getByTestId('order-tab-name')).toHaveText(juan);
    await page.getByRole('button', { name: 'Cobrar', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/waiter/checkout/${tabId}$`));
    await payExactCash(page, '1111');

    // Ana's tab is still open at the bar, which stays ocupada.
    const after = (await (await admin.page.request.get(`/api/orders/${anaTab.id}`)).json()) as { order: OrderDto };
    expect(after.order.status).toBe('activo');
    expect((await tableByNumber(admin.page.request, 0)).status).toBe('ocupada');
    await admin.page.reload();
    await expect(admin.page.getByTestId('bar-tabs').getByTestId('bar-tab').filter({ hasText: juan })).toHaveCount(0);
    await expect(admin.page.getByTestId('bar-tabs').getByTestId('bar-tab').filter({ hasText: ana })).toBeVisible();

    // Ana pays too: the Barra is as this test found it for the specs after this one.
    await addItems(other.page.request, anaTab.id, [['Michelada', 1]]);
    await deliverAll(admin.page.request, anaTab.id);
    const closed = await other.page.request.post(`/api/orders/${anaTab.id}/close`, {
      headers: { 'Idempotency-Key': `e2e-checks-${anaTab.id}` },
      data: { method: 'efectivo', pin: '2222', tipBps: 0, peopleCount: 1, receivedAmount: 85_00 },
    });
    expect(closed.ok(), await closed.text()).toBeTruthy();
    expect((await tableByNumber(admin.page.request, 0)).status).toBe(bar.status);
    await Promise.all([admin.context.close(), context.close(), other.context.close()]);
  });
});
