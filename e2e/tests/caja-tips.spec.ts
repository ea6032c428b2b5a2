import type { APIRequestContext } from '@playwright/test';
import { test, expect, expectNoSeriousViolations, login, signedInContext, ADMIN, MOBILE, SHOTS } from './fixtures.ts';

// Tables 80–84 belong to this file (the admin adds them).
const TERMINAL = 'SIMULADOR_POINT__DEMO-0001';
const money = (c: number) => new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(c / 100);

interface OrderDto {
  id: string;
  status: string;
  items: { id: string }[];
  payments: { method: string; tipAmount: number }[];
}

/** Table n opened by the waiter (its order is the waiter's), delivered by the admin, charged by card with a 10 % tip. */
async function cardSaleWithTip(admin: APIRequestContext, waiter: APIRequestContext, n: number): Promise<number> {
  const created = await admin.post('/api/tables', { data: { number: n } });
  expect([200, 409], await created.text()).toContain(created.status());
  const { tables } = (await (await waiter.get('/api/tables')).json()) as { tables: { id: string; number: number }[] };
  const table = tables.find((t) => t.number === n)!;
  let res = await waiter.post(`/api/tables/${table.id}/open`);
  if (!res.ok()) res = await waiter.get(`/api/tables/${table.id}/order`);
  expect(res.ok(), await res.text()).toBeTruthy();
  let { order } = (await res.json()) as { order: OrderDto };
  const { products } = (await (await waiter.get('/api/products?available=1')).json()) as { products: { id: string; name: string }[] };
  if (order.items.length === 0) {
    const added = await waiter.post(`/api/orders/${order.id}/items`, {
      data: { productId: products.find((p) => p.name === 'Cerveza clara')!.id, quantity: 2 },
    });
    expect(added.ok(), await added.text()).toBeTruthy();
    order = ((await added.json()) as { order: OrderDto }).order;
  }
  for (const item of order.items) await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { data: { status: 'entregado' } });
  const charge = await waiter.post('/api/card-payments', {
    headers: { 'Idempotency-Key': `e2e-tips-${order.id}` },
    data: { orderId: order.id, terminalId: TERMINAL, method: 'tarjeta', tipBps: 1000, peopleCount: 1 },
  });
  expect(charge.ok(), await charge.text()).toBeTruthy();
  // The demo terminal approves by itself in a few seconds.
  await expect
    .poll(async () => ((await (await waiter.get(`/api/orders/${order.id}`)).json()) as { order: OrderDto }).order.status, {
      timeout: 20_000,
    })
    .toBe('pagado');
  const paid = ((await (await waiter.get(`/api/orders/${order.id}`)).json()) as { order: OrderDto }).order;
  return paid.payments.filter((p) => p.method === 'tarjeta').reduce((a, p) => a + p.tipAmount, 0);
}

async function setCajaPrinters(request: APIRequestContext, enabled: boolean): Promise<void> {
  const res = await request.get('/api/printers');
  if (!res.ok()) return;
  const { printers } = (await res.json()) as { printers: { id: string; role: string; emulated: boolean }[] };
  for (const p of printers.filter((p) => p.role === 'caja' && p.emulated))
    await request.patch(`/api/printers/${p.id}`, { data: { enabled } });
}

test.describe('caja: tips per waiter and tip payouts @caja', () => {
  test('two card sales with tips, the admin pays the tips out with the waiter PIN, the corte X shows it', async ({ page, browser }) => {
    await page.setViewportSize(ADMIN);
    await page.addInitScript(() => {
      window.print = () => undefined;
    });
    await login(page, 'admin');
    await setCajaPrinters(page.request, false);
    const waiter = await signedInContext(browser, 'waiter', MOBILE);
    let sessionId = '';
    try {
      const state = (await (await page.request.get('/api/drawer')).json()) as { session: { id: string } | null };
      if (state.session) sessionId = state.session.id;
      else {
        const opened = await page.request.post('/api/drawer/open', { data: { count: { b50000: 1 } } });
        expect(opened.ok(), await opened.text()).toBeTruthy();
        sessionId = ((await opened.json()) as { session: { id: string } }).session.id;
      }
      const retry = 100 * test.info().retry;
      const tip1 = await cardSaleWithTip(page.request, waiter.page.request, 80 + retry);
      const tip2 = await cardSaleWithTip(page.request, waiter.page.request, 81 + retry);
      expect(tip1).toBeGreaterThan(0);
      const before = (await (await page.request.get('/api/drawer/tips')).json()) as {
        rows: { name: string; card: number; owed: number }[];
      };
      const mario = before.rows.find((r) => r.name === 'Mario Mesero')!;
      expect(mario.card).toBeGreaterThanOrEqual(tip1 + tip2);
      const owed = mario.owed;

      await page.goto('/admin/caja');
      await page.getByRole('tab', { name: 'Propinas' }).click();
      const row = page.getByTestId('tips-row').filter({ hasText: 'Mario Mesero' });
      await expect(row).toContainText(money(mario.card));
      await expect(row.getByTestId('tips-owed')).toHaveText(money(owed));
      await page.screenshot({ path: `${SHOTS}/caja-tips.png`, fullPage: true });
      await expectNoSeriousViolations(page, 'caja propinas');

      // Pagar: the amount defaults to what is owed; a wrong PIN is refused in Spanish.
      await row.getByRole('button', { name: 'Pagar propinas a Mario Mesero' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByLabel('Monto a pagar')).toHaveValue((owed / 100).toFixed(2));
      await dialog.getByLabel('PIN de Mario Mesero').fill('2222');
      await dialog.getByRole('button', { name: 'Pagar propinas' }).click();
      await expect(dialog.getByRole('alert')).toContainText('PIN');
      await dialog.getByLabel('PIN de Mario Mesero').fill('1111');
      await page.screenshot({ path: `${SHOTS}/caja-tips-pay.png` });
      await expectNoSeriousViolations(page, 'caja propinas pagar');
      await dialog.getByRole('button', { name: 'Pagar propinas' }).click();

      // The slip: the payout prints like any other movement.
      const slip = page.getByRole('dialog').getByTestId('movement-slip');
      await expect(slip).toContainText('COMPROBANTE DE PROPINAS');
      await expect(slip).toContainText(money(owed));
      await expect(slip).toContainText('Recibió');
      await page.getByRole('dialog').getByRole('button', { name: 'Cerrar' }).first().click();
      await expect(row.getByTestId('tips-owed')).toHaveText(money(0));
      await expect(row.getByRole('button', { name: 'Pagar propinas a Mario Mesero' })).toHaveCount(0);

      // Corte X: the tip payouts line, out of the expected cash.
      await page.getByRole('tab', { name: 'Turno de caja' }).click();
      await page.getByRole('button', { name: 'Corte X' }).click();
      const corteX = page.getByRole('dialog').getByTestId('corte-x');
      await expect(corteX).toContainText('Propinas pagadas');
      await expect(corteX).toContainText(`-${money(owed)}`);
      const x = (await (await page.request.get(`/api/drawer/sessions/${sessionId}`)).json()) as {
        corte: { figures: { tipPayouts: number } };
      };
      expect(x.corte.figures.tipPayouts).toBeGreaterThanOrEqual(owed);
      await page.screenshot({ path: `${SHOTS}/caja-tips-corte-x.png` });
      await page.getByRole('dialog').getByRole('button', { name: 'Cerrar' }).first().click();
    } finally {
      await waiter.context.close();
      await setCajaPrinters(page.request, true);
      // Close the session so the other specs find the drawer closed.
      if (sessionId)
        await page.request.post(`/api/drawer/sessions/${sessionId}/corte-z`, {
          data: { count: {}, comment: 'Cierre de la prueba de propinas', cashierPin: '1111', adminPin: '1234' },
        });
    }
  });
});
