import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, expectNoSeriousViolations, pickerDialog, pickerList, ACCOUNTS, type Api, SHOTS } from './fixtures.ts';

// Tables 470–474 belong to this file: it adds them itself.
const BANNER = 'Sin conexión con el servidor. Los cambios se guardan en este dispositivo y se enviarán al volver la conexión.';

type Item = { id: string; productName: string; isDeleted: boolean; quantity: number; modifiers: { optionName: string }[] };
type OrderBody = { order: { id: string; items: Item[] } };

const serverItems = async (request: APIRequestContext, orderId: string) =>
  ((await (await request.get(`/api/orders/${orderId}`)).json()) as OrderBody).order.items.filter((i) => !i.isDeleted);

const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
};

/** The catalogue entries the phone keeps in IndexedDB (products, modifiers, promotions, menu order, top sellers). */
const keptOnDevice = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<{ key: string; data: unknown }[]>((resolve) => {
        const req = indexedDB.open('comanda-device');
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('copies')) return resolve([]);
          const all = db.transaction('copies').objectStore('copies').getAll();
          all.onsuccess = () => resolve(all.result as { key: string; data: unknown }[]);
          all.onerror = () => resolve([]);
        };
        req.onerror = () => resolve([]);
      }),
  );

const availableNames = async (page: Page) => {
  const copy = (await keptOnDevice(page)).find((c) => c.key === JSON.stringify(['products', 'available']));
  return ((copy?.data as { name: string }[] | undefined) ?? []).map((p) => p.name);
};

/**
 * Opens the waiter's home as a signed-in first visit and waits until the phone holds what it
 * needs offline: the catalogue on the device, the order screens' and checkout's chunks, and the
 * orders of the given tables read ahead. Nothing of it has been opened on this page.
 */
async function signedInAndReady(w: Page, tableIds: string[]) {
  const orders = tableIds.map((id) => w.waitForResponse((r) => r.url().endsWith(`/api/tables/${id}/order`) && r.ok()));
  await w.goto('/waiter/home');
  await Promise.all(orders);
  await expect
    .poll(() => w.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/checkout-page[-.][^/]*\.js$/.test(e.name))))
    .toBe(true);
  await expect.poll(async () => (await keptOnDevice(w)).length, { timeout: 10_000 }).toBe(5);
}

async function openOwnTable(api: Api, request: APIRequestContext, number: number, lines: [string, number][]) {
  const table = await api.tableByNumber(number);
  const order = await api.openTable<OrderBody['order']>(request, number, lines);
  return { tableId: table.id, orderId: order.id, order };
}

test.describe('a phone that lost the Wi-Fi right after sign-in works from any screen', () => {
  test('home, order, picker, options step and checkout open for the first time offline; the adds reach the server once', async ({
    waiterPage: w,
    adminApi,
    api,
  }) => {
    const errors: string[] = [];
    w.on('pageerror', (e) => errors.push(e.message));
    const first = await openOwnTable(api, w.request, 470, [['Tacos al pastor (3)', 1]]);
    const paid = await openOwnTable(api, w.request, 471, [['Limonada mineral', 1]]);
    await api.deliverAll(adminApi, paid.order);

    await signedInAndReady(w, [first.tableId, paid.tableId]);
    await w.context().setOffline(true);
    await expect(w.getByText(BANNER)).toBeVisible({ timeout: 2_000 });
    await shot(w, 'offline-waiter-home');
    await expectNoSeriousViolations(w, 'waiter home offline');

    // The order screen, never opened on this page: drawn from the copy read ahead.
    await w.getByTestId('table-card-470').getByRole('button', { name: 'Ver Pedido' }).click();
    await expect(w.getByTestId('order-item')).toHaveCount(1);
    await expect(w.getByTestId('order-total')).toHaveText('$95.00');

    // The picker, never opened: the catalogue kept on the device, modifiers and all.
    await w.getByRole('button', { name: 'Agregar', exact: true }).click();
    const dialog = pickerDialog(w);
    await expect(pickerList(w).getByRole('button', { name: /^Tacos al pastor/ })).toBeVisible();
    await expect(dialog.getByText('Cargando')).toHaveCount(0);
    await shot(w, 'offline-picker');
    await dialog.getByRole('searchbox', { name: 'Buscar producto...' }).fill('cerveza');
    await dialog.getByRole('button', { name: 'Nota o cantidad para Cerveza clara', exact: true }).click();
    await dialog
      .getByTestId('modifier-choices')
      .getByRole('button', { name: /Michelada/ })
      .click();
    await shot(w, 'offline-modifiers-step');
    await expectNoSeriousViolations(w, 'modifiers step offline');
    await dialog.getByRole('button', { name: /^Agregar · \$80\.00/ }).click();
    await expect(dialog.getByTestId('round-line').filter({ hasText: 'Cerveza clara' })).toContainText('Pendiente de envío');
    await dialog.getByRole('button', { name: 'Cerrar' }).first().click();

    // The header's total counts what waits to be sent, and says so.
    await expect(w.getByTestId('pending-item')).toHaveCount(1);
    await expect(w.getByTestId('order-total')).toHaveText('$175.00');
    await expect(w.getByTestId('order-total-pending')).toHaveText('incluye $80.00 pendiente de enviar');
    await shot(w, 'offline-order-pending-total');
    await expectNoSeriousViolations(w, 'order screen offline with a pending line');

    // The checkout of the other table, never opened either.
    await w.getByRole('link', { name: 'Mesas' }).click();
    await w.getByTestId('table-card-471').getByRole('button', { name: 'Cobrar' }).click();
    await expect(w.getByRole('heading', { name: 'Cobro · Mesa 471' })).toBeVisible();
    await expect(w.getByRole('button', { name: 'Finalizar' })).toBeVisible();
    await shot(w, 'offline-checkout');
    await expect(w.getByText('Algo salió mal')).toHaveCount(0);

    await w.context().setOffline(false);
    await expect(w.getByText(BANNER)).toBeHidden({ timeout: 15_000 });
    await expect.poll(async () => (await serverItems(adminApi, first.orderId)).length, { timeout: 30_000 }).toBe(2);
    const beer = (await serverItems(adminApi, first.orderId)).find((i) => i.productName === 'Cerveza clara')!;
    expect(beer.modifiers.map((m) => m.optionName)).toEqual(['Michelada']);
    // Sent once: nothing doubles after a moment more.
    await w.waitForTimeout(1_000);
    expect(await serverItems(adminApi, first.orderId)).toHaveLength(2);
    expect(errors).toEqual([]);
  });

  test('the catalogue comes back from the device after a reload, and an agotado heard live leaves it', async ({
    waiterPage: w,
    adminApi,
    api,
  }) => {
    const { tableId } = await openOwnTable(api, w.request, 472, []);
    await signedInAndReady(w, [tableId]);
    expect(await availableNames(w)).toContain('Flan napolitano');

    // Marked agotado by the admin: the live event refreshes the device's copy, with no picker open.
    const products = ((await (await adminApi.get('/api/products')).json()) as { products: { id: string; name: string }[] }).products;
    const flan = products.find((p) => p.name === 'Flan napolitano')!;
    try {
      expect((await adminApi.patch(`/api/products/${flan.id}/availability`, { data: { available: false } })).ok()).toBeTruthy();
      await expect.poll(() => availableNames(w), { timeout: 10_000 }).not.toContain('Flan napolitano');

      // Reloaded while the catalogue's routes cannot answer, then offline: the picker still has it, from IndexedDB.
      for (const path of ['**/api/products**', '**/api/modifier-groups', '**/api/promotions/active', '**/api/config/menu'])
        await w.route(path, (route) => route.abort('internetdisconnected'));
      await w.goto(`/waiter/order/${tableId}`);
      await expect(w.getByRole('button', { name: 'Agregar', exact: true })).toBeVisible();
      await w.context().setOffline(true);
      await w.getByRole('button', { name: 'Agregar', exact: true }).click();
      await expect(pickerList(w).getByRole('button', { name: /^Tacos al pastor/ })).toBeVisible();
      await expect(pickerList(w).getByRole('button', { name: /^Flan napolitano/ })).toHaveCount(0);
      await expect(pickerList(w).getByRole('button', { name: /^Churros con cajeta/ })).toBeVisible();
    } finally {
      await adminApi.patch(`/api/products/${flan.id}/availability`, { data: { available: true } });
    }
  });

  test('an order the phone never read shows why offline instead of spinning or the error page', async ({ waiterPage: w, api }) => {
    const { tableId } = await openOwnTable(api, w.request, 473, []);
    await w.goto('/waiter/home');
    // Cut before anything was read ahead.
    await w.context().setOffline(true);
    await w.evaluate((path) => {
      history.pushState({}, '', path);
      dispatchEvent(new PopStateEvent('popstate'));
    }, `/waiter/order/${tableId}`);
    // Within the first second the screen's chunk may not be on the phone yet either: that says so too.
    const why = w
      .getByText('Sin conexión: esta orden no está guardada en este teléfono. Se mostrará al volver la conexión.')
      .or(w.getByText('Esta pantalla todavía no está en este teléfono. Se abrirá sola al volver la conexión.'));
    await expect(why).toBeVisible({ timeout: 10_000 });
    await shot(w, 'offline-order-not-on-device');
    await expect(w.getByText('Algo salió mal')).toHaveCount(0);
    // Back online, the order screen comes by itself.
    await w.context().setOffline(false);
    await expect(w.getByRole('button', { name: 'Agregar', exact: true })).toBeVisible({ timeout: 15_000 });
  });
});

test.describe('order editing on the phone', () => {
  test('the search looks in every category whatever chip is selected', async ({ waiterPage: w, api }) => {
    const { tableId } = await openOwnTable(api, w.request, 474, []);
    await w.goto(`/waiter/order/${tableId}`);
    await w.getByRole('button', { name: 'Agregar', exact: true }).click();
    const dialog = pickerDialog(w);
    await dialog.getByRole('button', { name: 'Comida', exact: true }).click();
    await expect(pickerList(w).getByRole('button', { name: /^Limonada mineral/ })).toHaveCount(0);
    await dialog.getByRole('searchbox', { name: 'Buscar producto...' }).fill('limonada');
    await expect(pickerList(w).getByRole('button', { name: /^Limonada mineral/ })).toBeVisible();
    await shot(w, 'picker-search-every-category');
  });

  test("a bar tab shows once on the waiter's home, with its name", async ({ waiterPage: w, adminApi }) => {
    await w.goto('/waiter/home');
    const name = `Cuenta ${Date.now() % 100_000}`;
    await w.getByTestId('bar-tabs').getByRole('button', { name: 'Nueva cuenta' }).click();
    await w.getByLabel('Nombre de la cuenta').fill(name);
    await w.getByTestId('open-tab').click();
    await expect(w).toHaveURL(/\/waiter\/order\/.*cuenta=/);
    const tabId = new URL(w.url()).searchParams.get('cuenta')!;
    await w.getByRole('link', { name: 'Mesas' }).click();
    await expect(w.getByTestId('bar-tabs').getByTestId('bar-tab').filter({ hasText: name })).toHaveCount(1);
    // The Barra's own card would repeat the first tab without its name: it is not among the tables.
    await expect(w.getByTestId('table-card-0')).toHaveCount(0);
    await shot(w, 'waiter-home-bar-tab');
    await expectNoSeriousViolations(w, 'waiter home with a bar tab');
    // The Barra is every spec's: the empty tab is cancelled, so it is free again.
    const cancelled = await adminApi.post(`/api/orders/${tabId}/cancel`, { data: { pin: ACCOUNTS.admin.pin } });
    expect(cancelled.ok(), await cancelled.text()).toBeTruthy();
  });
});
