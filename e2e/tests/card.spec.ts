import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, login, signedInContext, signedInRequest, MOBILE, type Line, SHOTS } from './fixtures.ts';

const TABLE = 9;
const TERMINAL = 'SIMULADOR_POINT__DEMO-0001';
// The config starts the demo simulator on the server's port + 1 so these tests can steer it.
const SIM = `http://127.0.0.1:${Number(process.env.E2E_PORT) + 1}`;

/** What each test orders: tacos and a beer. */
const READY: Line[] = [
  ['Tacos al pastor (3)', 1],
  ['Cerveza clara', 1],
];

const sim = (request: APIRequestContext, path: string, data: unknown = {}) => request.post(SIM + path, { data });

async function chooseCardAndFinish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Tarjeta', exact: true }).click();
  await page.getByRole('button', { name: 'Finalizar' }).click();
}

test.describe('card payments through the demo terminal', () => {
  test('a waiter charges table 9 by card: the simulator approves and the order is PAGADO', async ({ browser, api }) => {
    const { context, page } = await signedInContext(browser, 'waiter', MOBILE);
    const order = await api.openTable(page.request, TABLE, READY);
    // The admin only delivers the items: signed in through the API, no screen opened.
    const admin = await signedInRequest('admin');
    await api.deliverAll(admin, order);

    await page.goto(`/waiter/checkout/${order.id}`);
    await page.getByRole('button', { name: '15%' }).click();
    await chooseCardAndFinish(page);
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Cobro con Tarjeta')).toBeVisible();
    // One enabled terminal: it is chosen for the waiter. 2 × … = 150.00 + 15 % = 172.50.
    await expect(dialog.getByText('$172.50')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Enviar cobro a la terminal' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/card-initial-mobile.png` });
    await dialog.getByRole('button', { name: 'Enviar cobro a la terminal' }).click();
    await expect(dialog.getByText('Esperando al cliente en la terminal...')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/card-processing-mobile.png` });
    await expect(dialog.getByText('¡Pago aprobado!')).toBeVisible({ timeout: 15_000 });
    await page.screenshot({ path: `${SHOTS}/card-success-mobile.png` });
    await expect(page.getByTestId('status-chip')).toHaveText('PAGADO', { timeout: 10_000 });
    await expect(page.getByRole('dialog')).toBeHidden();

    const paid = (await (await page.request.get(`/api/orders/${order.id}`)).json()) as {
      order: { status: string; payments: { cashierId: string; method: string; amount: number }[] };
    };
    expect(paid.order.status).toBe('pagado');
    expect(paid.order.payments).toEqual([expect.objectContaining({ cashierId: 'mp-terminal', method: 'tarjeta', amount: 17_250 })]);
    await context.close();
    await admin.dispose();
  });

  test('a rejected card can be retried; closing mid-payment asks first; a reload resumes the payment', async ({ page, api }) => {
    await login(page, 'admin');
    const order = await api.openTable(page.request, TABLE, READY);
    await api.deliverAll(page.request, order);
    await page.goto(`/admin/checkout/${order.id}`);

    // The next payment on the demo terminal is declined.
    expect((await sim(page.request, `/_sim/terminals/${TERMINAL}/script`, { outcomes: ['reject'] })).ok()).toBeTruthy();
    await chooseCardAndFinish(page);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Enviar cobro a la terminal' }).click();
    await expect(dialog.getByText('Pago rechazado')).toBeVisible({ timeout: 15_000 });
    await page.screenshot({ path: `${SHOTS}/card-rejected.png` });
    await expect(page.getByTestId('status-chip')).toHaveText('PENDIENTE');

    // Retry, but this time nobody taps: the terminal waits for the control API.
    await sim(page.request, '/_sim/demo', { autoFinishMs: null });
    try {
      await dialog.getByRole('button', { name: 'Reintentar' }).click();
      await dialog.getByRole('button', { name: 'Enviar cobro a la terminal' }).click();
      await expect(dialog.getByText('Esperando al cliente en la terminal...')).toBeVisible();

      await page.keyboard.press('Escape');
      await expect(dialog.getByText('¿Cerrar sin terminar el cobro?')).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/card-confirm-close.png` });
      await dialog.getByRole('button', { name: 'Seguir esperando' }).click();

      // A reload brings the running payment back on screen by itself.
      await page.reload();
      await expect(page.getByRole('dialog').getByText('Esperando al cliente en la terminal...')).toBeVisible();
      await expect(page.getByText('Se recuperó un cobro en curso')).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/card-resumed.png` });
      const current = (await (await page.request.get(`${SIM}/_sim/terminals/${TERMINAL}/current`)).json()) as {
        payment: { id: string } | null;
      };
      expect(current.payment).not.toBeNull();
      await sim(page.request, `/_sim/payments/${current.payment!.id}/tap`);
      await sim(page.request, `/_sim/payments/${current.payment!.id}/approve`);
      await expect(page.getByRole('dialog').getByText('¡Pago aprobado!')).toBeVisible({ timeout: 15_000 });
      await expect(page.getByTestId('status-chip')).toHaveText('PAGADO', { timeout: 10_000 });
    } finally {
      await sim(page.request, '/_sim/demo', { autoFinishMs: 1500 });
    }
  });

  test('while the customer holds the card the order is frozen; a charge that cannot close it is shown everywhere and settled once', async ({
    page,
    api,
  }) => {
    await login(page, 'admin');
    // A table of its own (added when missing), so the other tests' orders never get in the way.
    const order = await api.openTable(page.request, 61, READY);
    await api.deliverAll(page.request, order);
    await sim(page.request, '/_sim/demo', { autoFinishMs: null });
    try {
      await page.goto(`/admin/checkout/${order.id}`);
      await chooseCardAndFinish(page);
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Enviar cobro a la terminal' }).click();
      await expect(dialog.getByText('Esperando al cliente en la terminal...')).toBeVisible();

      // The waiter's '+ item' while the customer holds the card is refused: the amount on the terminal stays true.
      const { products } = (await (await page.request.get('/api/products?available=1')).json()) as { products: { id: string }[] };
      const added = await page.request.post(`/api/orders/${order.id}/items`, { data: { productId: products[0]!.id, quantity: 1 } });
      expect(added.status()).toBe(409);
      expect(((await added.json()) as { error: { message: string } }).error.message).toBe(
        'Hay un cobro con tarjeta en curso para esta orden. Espera a que termine o cancélalo.',
      );

      // The terminal charges another amount than asked: the charge is kept for review, not lost.
      const current = (await (await page.request.get(`${SIM}/_sim/terminals/${TERMINAL}/current`)).json()) as {
        payment: { id: string; amountCents: number };
      };
      await sim(page.request, `/_sim/payments/${current.payment.id}/amount`, { amountCents: current.payment.amountCents + 100 });
      await sim(page.request, `/_sim/payments/${current.payment.id}/tap`);
      await sim(page.request, `/_sim/payments/${current.payment.id}/approve`);
      await expect(dialog.getByText('La terminal cobró $151.00, distinto de los $150.00 solicitados.')).toBeVisible({ timeout: 15_000 });

      // After a reload the checkout still shows it, and the table card carries the badge.
      await page.reload();
      const banner = page.getByTestId('card-review-banner');
      await expect(banner.getByText('Cobro con tarjeta por revisar')).toBeVisible();
      await expect(banner.getByText('Cobrado en la terminal: $151.00')).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/card-review-checkout.png` });
      await page.goto('/admin/home');
      await expect(page.getByTestId('card-review-badge')).toHaveText('Cobro por revisar');

      // The admin's list in Configurar Terminal settles it: recorded as the order's payment, once.
      await page.goto('/admin/settings');
      await page.getByRole('tab', { name: 'Configurar Terminal' }).click();
      const entry = page.getByTestId('card-reviews').getByTestId('card-review').filter({ hasText: '$151.00' });
      await expect(entry).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/card-reviews-list.png`, fullPage: true });
      await entry.getByRole('button', { name: 'Registrar como pago' }).click();
      await expect(page.getByText('Cobro registrado como pago de la orden')).toBeVisible();
      await expect(page.getByTestId('card-reviews').getByText('No hay cobros por revisar')).toBeVisible();
      const paid = (await (await page.request.get(`/api/orders/${order.id}`)).json()) as {
        order: { status: string; total: number; payments: { amount: number; cashierId: string }[] };
      };
      expect(paid.order).toMatchObject({ status: 'pagado', total: 151_00 });
      expect(paid.order.payments).toEqual([expect.objectContaining({ amount: 151_00, cashierId: 'mp-terminal' })]);
    } finally {
      await sim(page.request, '/_sim/demo', { autoFinishMs: 1500 });
    }
  });

  test('settings: terminal status, enable switch, refresh, $5.00 test charge and the warning at payment time', async ({ page, api }) => {
    await login(page, 'admin');
    await page.goto('/admin/settings');
    await page.getByRole('tab', { name: 'Configurar Terminal' }).click();
    const status = page.getByTestId('terminal-status');
    await expect(status.getByText('Modo demostración')).toBeVisible();
    await expect(status.getByText('Conectado')).toBeVisible();
    // The token and API are the technician's: folded under "Para el técnico", closed by default.
    const technical = page.getByTestId('terminal-technical');
    await expect(technical.getByText('demo', { exact: true })).toBeHidden();
    await technical.getByText('Para el técnico').click();
    await expect(technical.getByText('demo', { exact: true })).toBeVisible();
    await expect(technical.getByText(/MP_ACCESS_TOKEN/).first()).toBeVisible();
    await expect(status).not.toContainText('MP_ACCESS_TOKEN');
    const row = page.getByTestId('terminal-row').filter({ hasText: TERMINAL });
    await expect(row).toBeVisible();
    await page.getByRole('button', { name: 'Actualizar' }).click();
    await expect(page.getByText('1 terminales encontradas')).toBeVisible();

    const test = page.getByTestId('test-charge');
    await test.getByRole('button', { name: 'Enviar pago de prueba de $5.00' }).click();
    await expect(test).toHaveAttribute('data-state', 'testing');
    await expect(test.getByText('¡Pago de prueba exitoso! La terminal está funcionando correctamente.')).toBeVisible({ timeout: 15_000 });
    await expect(test.getByText('¡Terminal configurada correctamente!')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/terminal-tab.png`, fullPage: true });
    await test.getByRole('button', { name: 'Resetear' }).click();
    await expect(test).toHaveAttribute('data-state', 'idle');

    const toggle = row.getByRole('switch');
    await toggle.click();
    await expect(page.getByText('Terminal deshabilitada')).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    try {
      const order = await api.openTable(page.request, TABLE, READY);
      await api.deliverAll(page.request, order);
      await page.goto(`/admin/checkout/${order.id}`);
      await chooseCardAndFinish(page);
      await expect(
        page.getByRole('dialog').getByText('No hay terminales habilitadas. Actívalas en Configuración > Configurar Terminal.'),
      ).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/card-no-terminals.png` });
      await page.getByRole('dialog').getByRole('button', { name: 'Cerrar' }).first().click();
    } finally {
      await page.request.put(`/api/terminals/${TERMINAL}`, { data: { enabled: true } });
    }
    await page.goto('/admin/settings');
    await page.getByRole('tab', { name: 'Configurar Terminal' }).click();
    await expect(page.getByTestId('terminal-row').getByRole('switch')).toHaveAttribute('aria-checked', 'true');
  });

  test('a debit card on the terminal: the factura of its ticket takes forma de pago 28', async ({ page, api }) => {
    await login(page, 'admin');
    // A table of its own (added when missing).
    const order = await api.openTable(page.request, 64, READY);
    await api.deliverAll(page.request, order);
    expect((await sim(page.request, `/_sim/terminals/${TERMINAL}/script`, { outcomes: ['approve_debit'] })).ok()).toBeTruthy();
    await page.goto(`/admin/checkout/${order.id}`);
    await chooseCardAndFinish(page);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Enviar cobro a la terminal' }).click();
    await expect(dialog.getByText('¡Pago aprobado!')).toBeVisible({ timeout: 15_000 });
    await expect
      .poll(
        async () =>
          ((await (await page.request.get(`/api/tickets/${order.id}`)).json()) as { invoicing: { state: string } | null }).invoicing?.state,
        { timeout: 15_000 },
      )
      .toBe('emitido');
    await page.goto('/admin/tickets');
    const card = page.getByTestId('ticket-card').filter({ hasText: `#${order.id.slice(0, 6).toUpperCase()}` });
    await card.getByRole('button', { name: 'Ver / Reimprimir' }).click();
    const section = page.getByRole('dialog').getByRole('region', { name: 'Facturación' });
    await section.getByRole('button', { name: 'Facturar' }).click();
    await expect(section).toContainText('28 · Tarjeta de débito');
  });
});
