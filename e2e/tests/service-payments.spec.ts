import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, login, ACCOUNTS, ADMIN, ensureTable } from './fixtures.ts';

// Tables 121–130 belong to this spec (created by the admin if missing).
const TABLE = 121;

interface OrderDto {
  id: string;
  subtotal: number;
  items: { id: string }[];
}

/** Opens the table, orders tacos and a beer ($150.00) and delivers them. */
async function readyOrder(request: APIRequestContext, number: number): Promise<OrderDto> {
  const tableId = (await ensureTable(request, number)).id;
  const opened = await request.post(`/api/tables/${tableId}/open`);
  expect(opened.ok(), await opened.text()).toBeTruthy();
  let order = ((await opened.json()) as { order: OrderDto }).order;
  const { products } = (await (await request.get('/api/products?available=1')).json()) as { products: { id: string; name: string }[] };
  for (const name of ['Tacos al pastor (3)', 'Cerveza clara']) {
    const added = await request.post(`/api/orders/${order.id}/items`, {
      data: { productId: products.find((p) => p.name === name)!.id, quantity: 1 },
    });
    expect(added.ok(), await added.text()).toBeTruthy();
    order = ((await added.json()) as { order: OrderDto }).order;
  }
  for (const item of order.items) {
    const res = await request.patch(`/api/orders/${order.id}/items/${item.id}/status`, { data: { status: 'entregado' } });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
  return order;
}

async function enterPin(page: Page, pin: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'PIN del cajero' });
  for (const digit of pin) await dialog.getByRole('button', { name: digit, exact: true }).click();
}

async function addPayment(page: Page, method: 'Efectivo' | 'Tarjeta' | 'Transferencia', amount: string): Promise<void> {
  await page.getByRole('button', { name: 'Agregar pago' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agregar pago' });
  await dialog.getByRole('button', { name: method, exact: true }).click();
  await dialog.getByLabel('Monto a pagar').fill(amount);
}

test.describe('mixed payments and folios @service', () => {
  test('one table paid part card, part cash, part transfer; the history shows the folio and the three methods @service', async ({
    page,
  }) => {
    await page.setViewportSize(ADMIN);
    await login(page, 'admin');
    const order = await readyOrder(page.request, TABLE);
    expect(order.subtotal).toBe(15_000);
    await page.goto(`/admin/checkout/${order.id}`);
    const panel = page.getByTestId('payments-panel');
    await expect(panel.getByTestId('order-balance')).toHaveText('$150.00');

    // $50.00 by card on the demo terminal (the simulator approves it by itself).
    await addPayment(page, 'Tarjeta', '50');
    await page.getByTestId('add-payment-submit').click();
    const card = page.getByRole('dialog');
    await expect(card.getByText('$50.00')).toBeVisible();
    await card.getByRole('button', { name: 'Enviar cobro a la terminal' }).click();
    await expect(card.getByText('¡Pago aprobado!')).toBeVisible({ timeout: 15_000 });
    await expect(panel.getByTestId('order-balance')).toHaveText('$100.00', { timeout: 10_000 });
    await expect(page.getByTestId('status-chip')).toHaveText('PENDIENTE');

    // $60.00 in cash, handed over exactly.
    await addPayment(page, 'Efectivo', '60');
    await page.getByRole('dialog', { name: 'Agregar pago' }).getByLabel('Monto recibido').fill('60');
    await page.getByTestId('add-payment-submit').click();
    await enterPin(page, ACCOUNTS.admin.pin);
    await expect(page.getByText('Pago parcial registrado').last()).toBeVisible();
    await expect(panel.getByTestId('order-balance')).toHaveText('$40.00');

    // The rest by transfer, with its reference: nothing goes to the terminal; the order is paid.
    await page.getByRole('button', { name: 'Agregar pago' }).click();
    const last = page.getByRole('dialog', { name: 'Agregar pago' });
    await expect(last.getByLabel('Monto a pagar')).toHaveValue('40.00');
    await last.getByRole('button', { name: 'Transferencia', exact: true }).click();
    await last.getByLabel('Referencia de la transferencia (opcional)').fill('SPEI 778812');
    await page.getByTestId('add-payment-submit').click();
    await enterPin(page, ACCOUNTS.admin.pin);
    await expect(page.getByTestId('status-chip')).toHaveText('PAGADO', { timeout: 10_000 });
    const folio = page.getByTestId('order-folio');
    await expect(folio).toHaveText(/^Folio \d+$/);
    const folioNumber = Number((await folio.textContent())!.replace(/\D/g, ''));
    await expect(page.getByTestId('payment-line')).toHaveCount(3);

    const paid = (await (await page.request.get(`/api/orders/${order.id}`)).json()) as {
      order: { status: string; folio: number; total: number; payments: { method: string; amount: number; reference: string | null }[] };
    };
    expect(paid.order).toMatchObject({ status: 'pagado', folio: folioNumber, total: 15_000 });
    expect(paid.order.payments.map((p) => p.method)).toEqual(['tarjeta', 'efectivo', 'transferencia']);
    expect(paid.order.payments[2]).toMatchObject({ amount: 4_000, reference: 'SPEI 778812' });

    // The tickets history finds it by folio and shows the folio and all three methods.
    await page.goto('/admin/tickets');
    await page.getByRole('searchbox', { name: 'Buscar tickets' }).fill(String(folioNumber));
    const ticket = page
      .getByTestId('ticket-card')
      .filter({ has: page.getByTestId('ticket-card-folio').getByText(`Folio ${folioNumber}`, { exact: true }) });
    await expect(ticket).toHaveCount(1, { timeout: 10_000 });
    for (const method of ['Tarjeta', 'Efectivo', 'Transferencia']) await expect(ticket.getByText(method, { exact: true })).toBeVisible();
    await ticket.getByRole('button', { name: 'Ver / Reimprimir' }).click();
    const modal = page.getByTestId('ticket-payments-detail');
    await expect(modal).toContainText(String(folioNumber));
    await expect(modal).toContainText('Ref. SPEI 778812');
  });
});

test.describe('equal shares @service', () => {
  // Equal shares are separate checks (decision 0022): each share is an order of its own.
  test('a table split in 3 equal shares becomes 3 checks, each paid on its own with its folio; the last frees the table @service', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(ADMIN);
    await login(page, 'admin');
    const order = await readyOrder(page.request, TABLE + 1);
    await page.goto(`/admin/checkout/${order.id}`);
    const panel = page.getByTestId('payments-panel');
    await panel.getByLabel('Partes').fill('3');
    await panel.getByRole('button', { name: 'Dividir en 3 cuentas' }).click();
    // Back on the table's order screen, with this check (Cuenta A) selected.
    await expect(page).toHaveURL(new RegExp(`/admin/order/[^/?]+\\?cuenta=${order.id}$`));
    await expect(page.getByTestId('table-check-total')).toHaveText(['$50.00', '$50.00', '$50.00']);
    const tableUrl = page.url().split('?')[0]!;
    const folios: number[] = [];
    for (const name of ['Cuenta B', 'Cuenta C', 'Cuenta A']) {
      await page.goto(tableUrl);
      if (name === 'Cuenta A') {
        // The last open check is the table's order again: its own Cobrar.
        await expect(page.getByTestId('order-tab-name')).toHaveText('Cuenta A');
        await page.getByRole('button', { name: 'Proceder al Pago' }).click();
      } else await page.getByRole('button', { name: `Cobrar ${name}` }).click();
      await expect(page).toHaveURL(/\/checkout\//);
      await page.getByRole('button', { name: 'Agregar pago' }).click();
      const dialog = page.getByRole('dialog', { name: 'Agregar pago' });
      await expect(dialog.getByLabel('Monto a pagar')).toHaveValue('50.00');
      await dialog.getByRole('button', { name: 'Transferencia', exact: true }).click();
      await page.getByTestId('add-payment-submit').click();
      await enterPin(page, ACCOUNTS.admin.pin);
      await expect(page.getByTestId('status-chip')).toHaveText('PAGADO', { timeout: 10_000 });
      await expect(page.getByTestId('order-folio')).toHaveText(/^Folio \d+$/);
      folios.push(Number((await page.getByTestId('order-folio').textContent())!.replace('Folio ', '')));
      await expect(page.getByTestId('payment-line')).toHaveCount(1);
    }
    expect(new Set(folios).size).toBe(3);
    const tables = ((await (await page.request.get('/api/tables')).json()) as { tables: { number: number; status: string }[] }).tables;
    expect(tables.find((t) => t.number === TABLE + 1)!.status).toBe('libre');
  });
});
