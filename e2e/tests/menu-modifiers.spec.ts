import { test, expect, expectNoSeriousViolations, signedInContext, BOARD } from './fixtures.ts';

// Tables 300–309 belong to this file. Modifier groups: issue #17 item 1, decision 0026.

interface OrderDto {
  id: string;
  subtotal: number;
  items: { id: string; productName: string; productPrice: number; modifiers: { groupName: string; optionName: string }[] }[];
}

test.describe('modifier groups @menu', () => {
  test('a waiter orders a beer as a michelada and tacos without onion; both boards show the options', async ({
    waiterPage,
    api,
    browser,
  }, testInfo) => {
    const table = await api.tableByNumber(300);
    const w = waiterPage;
    const opened = await w.request.post(`/api/tables/${table.id}/open`);
    expect(opened.ok(), await opened.text()).toBeTruthy();
    const orderId = ((await opened.json()) as { order: OrderDto }).order.id;
    const kitchen = await signedInContext(browser, 'kitchen', BOARD);
    const bar = await signedInContext(browser, 'barra', BOARD);

    await w.goto(`/waiter/order/${table.id}`);
    await w.getByRole('button', { name: 'Agregar', exact: true }).click();
    const dialog = w.getByRole('dialog', { name: 'Agregar productos' });
    await dialog.getByRole('searchbox', { name: 'Buscar producto...' }).fill('cerveza');
    // Optional groups only: a tap would add it plain; the row's Nota step offers the options.
    await dialog.getByRole('button', { name: 'Nota o cantidad para Cerveza clara', exact: true }).click();
    const choices = dialog.getByTestId('modifier-choices');
    await expect(choices.getByText('Preparación')).toBeVisible();
    await expect(dialog.getByRole('button', { name: /^Agregar · \$55\.00/ })).toBeVisible();
    await choices.getByRole('button', { name: /Preparada/ }).click();
    await expect(dialog.getByRole('button', { name: /^Agregar · \$70\.00/ })).toBeVisible();
    // A group of one: the second tap swaps the choice.
    await choices.getByRole('button', { name: /Michelada/ }).click();
    await expect(choices.getByRole('button', { name: /Preparada/ })).toHaveAttribute('aria-pressed', 'false');
    await expect(dialog.getByRole('button', { name: /^Agregar · \$80\.00/ })).toBeVisible();
    await w.screenshot({ path: testInfo.outputPath('picker-modifiers.png') });
    await expectNoSeriousViolations(w, 'picker with modifiers');
    await dialog.getByRole('button', { name: /^Agregar · / }).click();
    await expect(w.getByText('Cerveza clara agregado')).toBeVisible();

    await dialog.getByRole('searchbox', { name: 'Buscar producto...' }).fill('tacos');
    await dialog.getByRole('button', { name: 'Nota o cantidad para Tacos al pastor (3)', exact: true }).click();
    await dialog.getByTestId('modifier-choices').getByRole('button', { name: 'cebolla' }).click();
    await dialog.getByRole('button', { name: /^Agregar · \$95\.00/ }).click();
    await expect(w.getByText('Tacos al pastor (3) agregado')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cerrar' }).first().click();

    // The order screen lists the options under each line; the subtotal counts the michelada's $25.00.
    const lines = w.getByTestId('order-item');
    await expect(lines.filter({ hasText: 'Cerveza clara' }).getByTestId('item-modifiers')).toHaveText(/Michelada/);
    await expect(lines.filter({ hasText: 'Tacos al pastor' }).getByTestId('item-modifiers')).toHaveText(/sin cebolla/);
    const order = ((await (await w.request.get(`/api/orders/${orderId}`)).json()) as { order: OrderDto }).order;
    expect(order.subtotal).toBe(80_00 + 95_00);
    await w.screenshot({ path: testInfo.outputPath('order-modifiers.png'), fullPage: true });
    await expectNoSeriousViolations(w, 'order with modifiers');

    const beer = order.items.find((i) => i.productName === 'Cerveza clara')!;
    const tacos = order.items.find((i) => i.productName === 'Tacos al pastor (3)')!;
    const barCard = bar.page.locator(`[data-item-id="${beer.id}"]`);
    await expect(barCard).toBeVisible({ timeout: 10_000 });
    await expect(barCard.getByTestId('item-modifiers')).toHaveText(/Michelada/);
    const kitchenCard = kitchen.page.locator(`[data-item-id="${tacos.id}"]`);
    await expect(kitchenCard).toBeVisible({ timeout: 10_000 });
    await expect(kitchenCard.getByTestId('item-modifiers')).toHaveText(/sin cebolla/);
    await bar.page.screenshot({ path: testInfo.outputPath('board-barra-modifiers.png') });
    await kitchen.page.screenshot({ path: testInfo.outputPath('board-cocina-modifiers.png') });
    await expectNoSeriousViolations(bar.page, 'bar board with modifiers');
    await kitchen.context.close();
    await bar.context.close();
  });

  test('a required group is asked for before adding; the admin manages the groups', async ({ waiterPage, adminPage, api }, testInfo) => {
    const admin = adminPage.request;
    const stamp = Date.now().toString(36);
    const product = await admin.post('/api/products', { data: { name: `Arrachera ${stamp}`, price: 250_00, category: 'Comida' } });
    expect(product.ok(), await product.text()).toBeTruthy();
    const productId = ((await product.json()) as { product: { id: string } }).product.id;
    const group = await admin.post('/api/modifier-groups', {
      data: {
        name: `Término ${stamp}`,
        minSelect: 1,
        maxSelect: 1,
        options: [{ name: 'Rojo' }, { name: 'Medio' }, { name: 'Tres cuartos' }, { name: 'Bien cocido' }],
        productIds: [productId],
      },
    });
    expect(group.ok(), await group.text()).toBeTruthy();

    // A retry finds 301 still open from the first attempt: it takes a table of its own.
    const table = await api.tableByNumber(301 + 4 * testInfo.retry);
    const w = waiterPage;
    const opened = await w.request.post(`/api/tables/${table.id}/open`);
    expect(opened.ok(), await opened.text()).toBeTruthy();
    await w.goto(`/waiter/order/${table.id}`);
    await w.getByRole('button', { name: 'Agregar', exact: true }).click();
    const dialog = w.getByRole('dialog', { name: 'Agregar productos' });
    await dialog.getByRole('searchbox', { name: 'Buscar producto...' }).fill(stamp);
    await dialog
      .getByRole('list', { name: 'Elige un producto' })
      .getByRole('button', { name: new RegExp(`^Arrachera ${stamp}`) })
      .click();
    await expect(dialog.getByText('Obligatorio')).toBeVisible();
    await dialog.getByRole('button', { name: /^Agregar · / }).click();
    await expect(dialog.getByText(`Elige una opción de «Término ${stamp}»`)).toBeVisible();
    await w.screenshot({ path: testInfo.outputPath('picker-required.png') });
    await dialog.getByRole('button', { name: 'Medio' }).click();
    await dialog.getByRole('button', { name: /^Agregar · \$250\.00/ }).click();
    await expect(w.getByText(`Arrachera ${stamp} agregado`)).toBeVisible();

    // The admin finds the groups next to the products and switches an option off.
    await adminPage.goto('/admin/manage-products');
    await adminPage.getByRole('tab', { name: 'Modificadores' }).click();
    const card = adminPage.getByTestId('modifier-group').filter({ hasText: `Término ${stamp}` });
    await expect(card).toContainText(`Arrachera ${stamp}`);
    // The switch follows the server's answer: click, then wait for it to turn off.
    await card.getByRole('switch', { name: 'Rojo disponible' }).click();
    await expect(card.getByRole('switch', { name: 'Rojo disponible' })).not.toBeChecked();
    await expect(card.getByText('Agotada')).toBeVisible();
    await adminPage.screenshot({ path: testInfo.outputPath('admin-modifiers.png'), fullPage: true });
    await expectNoSeriousViolations(adminPage, 'admin modifiers');
    // The waiter's open picker sees it run out (live), and cannot choose it.
    await dialog.getByRole('searchbox', { name: 'Buscar producto...' }).fill(stamp);
    await dialog
      .getByRole('list', { name: 'Elige un producto' })
      .getByRole('button', { name: new RegExp(`^Arrachera ${stamp}`) })
      .click();
    await expect(dialog.getByRole('button', { name: /Rojo/ })).toBeDisabled({ timeout: 10_000 });

    await adminPage.getByRole('button', { name: 'Nuevo grupo' }).click();
    const form = adminPage.getByRole('dialog', { name: 'Nuevo grupo de modificadores' });
    await expect(form.getByLabel('Nombre del grupo')).toBeVisible();
    await adminPage.screenshot({ path: testInfo.outputPath('admin-modifier-form.png') });
    await expectNoSeriousViolations(adminPage, 'admin modifier form');
  });
});
