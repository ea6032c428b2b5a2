import type { Page } from '@playwright/test';
import { test, expect, expectNoSeriousViolations, type OrderDto, SHOTS } from './fixtures.ts';

// Tables 161–165 belong to this file: the tests add them themselves.

interface PaidOrder {
  status: string;
  peopleCount: number;
  splitCount: number | null;
  paymentMethod: string | null;
  payments: { method: string; reference: string | null; amount: number }[];
}

const orderOf = async (page: Page, id: string) =>
  ((await (await page.request.get(`/api/orders/${id}`)).json()) as { order: PaidOrder }).order;

test.describe('checkout on a phone: few taps, a transfer that is a transfer, guests that stay', () => {
  test('a transfer leads with its SPEI reference and the PIN, is recorded as a transfer, and is preselected next time', async ({
    adminApi,
    waiterPage: page,
    api,
  }) => {
    const order = await api.openTable<OrderDto>(page.request, 161, [['Michelada', 2]]);
    await api.deliverAll(adminApi, order);
    await page.goto(`/waiter/checkout/${order.id}`);
    await page.getByRole('button', { name: 'Transferencia' }).click();
    await page.getByRole('button', { name: 'Finalizar' }).click();

    const dialog = page.getByRole('dialog', { name: 'Cobro con Transferencia' });
    await expect(dialog.getByRole('button', { name: 'Registrar transferencia' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cobrar en terminal' })).toBeVisible();
    // Nothing on a transfer speaks of a card.
    await expect(dialog).not.toContainText(/tarjeta/i);
    await dialog.getByLabel('Referencia SPEI (opcional)').fill('SPEI 778899');
    await page.screenshot({ path: `${SHOTS}/checkout-transfer-390.png` });
    await expectNoSeriousViolations(page, 'transfer dialog');
    await dialog.getByRole('button', { name: 'Registrar transferencia' }).click();

    const pin = page.getByRole('dialog', { name: 'PIN de quien cobra' });
    await expect(pin).toContainText('registra la transferencia');
    for (const digit of '1111') await pin.getByRole('button', { name: digit, exact: true }).click();
    await expect(page.getByText('Pago registrado')).toBeVisible();
    await expect(page.getByTestId('status-chip')).toHaveText('PAGADO');

    const paid = await orderOf(page, order.id);
    expect(paid.status).toBe('pagado');
    expect(paid.paymentMethod).toBe('transferencia');
    expect(paid.payments).toHaveLength(1);
    expect(paid.payments[0]).toMatchObject({ method: 'transferencia', reference: 'SPEI 778899' });

    // The next checkout on this device starts on the method last used.
    const next = await api.openTable<OrderDto>(page.request, 162, [['Cerveza clara', 1]]);
    await api.deliverAll(adminApi, next);
    await page.goto(`/waiter/checkout/${next.id}`);
    await expect(page.getByRole('button', { name: 'Transferencia' })).toHaveAttribute('aria-pressed', 'true');
  });

  test('a 4-guest table divided by 2 with the calculator still prints Personas 4, and Dividido entre 2', async ({
    adminApi,
    waiterPage: page,
    api,
  }) => {
    const order = await api.openTable<OrderDto>(page.request, 163, [['Tacos al pastor (3)', 2]]);
    await api.deliverAll(adminApi, order);
    expect((await page.request.patch(`/api/orders/${order.id}`, { data: { peopleCount: 4 } })).ok()).toBeTruthy();
    await page.goto(`/waiter/checkout/${order.id}`);
    const calculator = page.getByRole('group', { name: 'Calculadora por persona' });
    await expect(page.getByText('Solo calcula cuánto paga cada quien')).toBeVisible();
    await calculator.getByRole('button', { name: '2', exact: true }).click();
    await page.getByRole('button', { name: 'Mostrar ticket' }).click();
    const ticket = page.locator('article[data-testid="ticket"]').first();
    await expect(ticket).toContainText('Personas4');
    await expect(ticket).toContainText('Dividido entre 2');
    await page.screenshot({ path: `${SHOTS}/checkout-split-390.png`, fullPage: true });
    await expectNoSeriousViolations(page, 'checkout with the calculator and ticket');

    await page.getByRole('button', { name: 'Exacto' }).click();
    await page.getByRole('button', { name: 'Finalizar' }).click();
    const pin = page.getByRole('dialog', { name: 'PIN de quien cobra' });
    await page.screenshot({ path: `${SHOTS}/checkout-pin-390.png` });
    for (const digit of '1111') await pin.getByRole('button', { name: digit, exact: true }).click();
    await expect(page.getByTestId('status-chip')).toHaveText('PAGADO');
    const paid = await orderOf(page, order.id);
    expect(paid).toMatchObject({ status: 'pagado', peopleCount: 4, splitCount: 2 });
    // The paid ticket (as reprinted) says the same.
    await expect(ticket).toContainText('Personas4');
    await expect(ticket).toContainText('Dividido entre 2');
  });

  test('a double tap on Finalizar opens the PIN once and charges once', async ({ adminApi, waiterPage: page, api }) => {
    const order = await api.openTable<OrderDto>(page.request, 164, [['Michelada', 1]]);
    await api.deliverAll(adminApi, order);
    await page.goto(`/waiter/checkout/${order.id}`);
    await page.getByRole('button', { name: 'Exacto' }).click();
    await page.getByRole('button', { name: 'Finalizar' }).dblclick();
    const pin = page.getByRole('dialog', { name: 'PIN de quien cobra' });
    // The second tap lands on the backdrop within the first half second: the dialog stays.
    await page.waitForTimeout(300);
    await expect(pin).toBeVisible();
    for (const digit of '1111') await pin.getByRole('button', { name: digit, exact: true }).click();
    await expect(page.getByTestId('status-chip')).toHaveText('PAGADO');
    const paid = await orderOf(page, order.id);
    expect(paid.payments).toHaveLength(1);
  });

  test('a short PIN still asks Verificar and gets the spec’s messages', async ({ adminApi, waiterPage: page, api }) => {
    const order = await api.openTable<OrderDto>(page.request, 165, [['Michelada', 1]]);
    await api.deliverAll(adminApi, order);
    await page.goto(`/waiter/checkout/${order.id}`);
    await page.getByRole('button', { name: 'Exacto' }).click();
    await page.getByRole('button', { name: 'Finalizar' }).click();
    const pin = page.getByRole('dialog', { name: 'PIN de quien cobra' });
    await pin.getByRole('button', { name: 'Verificar' }).click();
    await expect(pin.getByRole('alert')).toHaveText('Por favor ingresa el PIN');
    await pin.getByRole('button', { name: '1', exact: true }).click();
    await pin.getByRole('button', { name: 'Verificar' }).click();
    await expect(pin.getByRole('alert')).toHaveText('El PIN debe tener al menos 4 dígitos');
    await expectNoSeriousViolations(page, 'cashier PIN');
    expect((await orderOf(page, order.id)).status).toBe('activo');
  });

  test('the admin order screen names each line’s category (SPEC §2 Order detail)', async ({ adminPage: page, api }) => {
    const order = await api.openTable<OrderDto>(page.request, 166, [
      ['Michelada', 1],
      ['Tacos al pastor (3)', 1],
    ]);
    const { order: full } = (await (await page.request.get(`/api/orders/${order.id}`)).json()) as { order: { tableId: string } };
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/admin/order/${full.tableId}`);
    const categories = page.getByTestId('item-category');
    await expect(categories).toHaveCount(2);
    await expect(categories.first()).not.toBeEmpty();
    await page.screenshot({ path: `${SHOTS}/admin-order-390.png`, fullPage: true });
    await expectNoSeriousViolations(page, 'admin order');
  });
});
