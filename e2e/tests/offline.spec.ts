import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, enterPin, expectNoSeriousViolations, pickerDialog, pickerList, ACCOUNTS, type Api } from './fixtures.ts';

// Tables 61–67, 340–341 and 348 (340's retry) belong to this file: it adds them itself.
const BANNER = 'Sin conexión con el servidor. Los cambios se guardan en este dispositivo y se enviarán al volver la conexión.';
const FOODS = ['Tacos al pastor', 'Hamburguesa de la casa', 'Enchiladas verdes', 'Alitas BBQ', 'Tacos al pastor'];

type Item = {
  id: string;
  productName: string;
  productPrice: number;
  quantity: number;
  status: string;
  isDeleted: boolean;
  modifiers: { groupName: string; optionName: string }[];
};
type OrderBody = { order: { id: string; items: Item[] } };

/** Table n (added when missing), opened by the waiter when free; its order. */
async function tableWithOrder(api: Api, waiter: APIRequestContext, number: number) {
  const table = await api.tableByNumber(number);
  if (table.status === 'libre') expect((await waiter.post(`/api/tables/${table.id}/open`)).ok()).toBeTruthy();
  const order = ((await (await waiter.get(`/api/tables/${table.id}/order`)).json()) as OrderBody).order;
  return { tableId: table.id, orderId: order.id };
}

const serverItems = async (admin: APIRequestContext, orderId: string) =>
  ((await (await admin.get(`/api/orders/${orderId}`)).json()) as OrderBody).order.items.filter((i) => !i.isDeleted);
/** Units on the server: the same product added twice while its line is pending is one line of 2. */
const serverUnits = async (admin: APIRequestContext, orderId: string) =>
  (await serverItems(admin, orderId)).reduce((n, i) => n + i.quantity, 0);

/** Adds one product with one tap in the picker (it stays open for the next one); offline it waits in the outbox. */
async function addThroughPicker(page: Page, search: string) {
  const dialog = pickerDialog(page);
  await dialog.getByRole('searchbox', { name: 'Buscar producto...' }).fill(search);
  await pickerList(page)
    .getByRole('button', { name: new RegExp(`^${search}`) })
    .first()
    .click();
  // Shown at once in "Esta ronda"; the next product's tap (or closing the picker) sends it to the outbox.
  await expect(dialog.getByTestId('round-line').filter({ hasText: search }).last()).toBeVisible();
}

/** Cuts the phone's connection and waits for the banner, which must say so within 2 s. */
async function goOffline(page: Page) {
  await page.context().setOffline(true);
  await expect(page.getByText(BANNER)).toBeVisible({ timeout: 2_000 });
}

async function addOffline(page: Page, names: string[]) {
  await goOffline(page);
  await page.getByRole('button', { name: 'Agregar', exact: true }).click();
  for (const name of names) await addThroughPicker(page, name);
  const round = pickerDialog(page).getByTestId('round-line');
  await expect(round.last()).toContainText('Pendiente de envío');
  await expect(round.filter({ hasText: 'Pendiente de envío' })).toHaveCount(names.length);
  await pickerDialog(page).getByRole('button', { name: 'Cerrar' }).first().click();
  await expect(page.getByTestId('pending-item')).toHaveCount(names.length);
}

/** The waiter's phone with a table of its own open, on its order screen, the product list loaded once while online. */
async function waiterOnOrder(w: Page, api: Api, number: number) {
  const { tableId, orderId } = await tableWithOrder(api, w.request, number);
  await w.goto(`/waiter/order/${tableId}`);
  await w.getByRole('button', { name: 'Agregar', exact: true }).click();
  const dialog = pickerDialog(w);
  await expect(pickerList(w).getByRole('button', { name: /^Tacos al pastor/ })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cerrar' }).first().click();
  return { tableId, orderId };
}

test.describe('nothing is lost when the Wi-Fi drops', () => {
  test('five items added offline survive a reload and reach the server and the kitchen exactly once', async ({
    adminApi,
    kitchenPage,
    waiterPage: w,
    api,
  }) => {
    const { orderId } = await waiterOnOrder(w, api, 61);

    await addOffline(w, FOODS);
    await expect(w.getByTestId('pending-item').first()).toContainText('pendiente de envío');
    await w.screenshot({ path: test.info().outputPath('offline-order-pending.png') });
    expect(await serverItems(adminApi, orderId)).toHaveLength(0);

    // Reload. Without a service worker the app shell cannot load offline, so the connection
    // comes back first but every item request is held (aborted like a dead network) until
    // after the reload: the queue must come back from IndexedDB, not from memory.
    await w.route('**/api/orders/*/items', (route) => route.abort('internetdisconnected'));
    await w.context().setOffline(false);
    await w.reload();
    await expect(w.getByTestId('pending-item')).toHaveCount(5);
    expect(await serverItems(adminApi, orderId)).toHaveLength(0);
    await w.unroute('**/api/orders/*/items');

    await expect(w.getByTestId('pending-item')).toHaveCount(0, { timeout: 30_000 });
    // Five units in four lines: the second Tacos al pastor raised the first's pending line.
    await expect(w.getByTestId('order-item')).toHaveCount(4);
    await expect(w.getByText(BANNER)).toBeHidden();
    expect(await serverItems(adminApi, orderId)).toHaveLength(4);
    expect(await serverUnits(adminApi, orderId)).toBe(5);
    await kitchenPage.goto('/kitchen/cocina');
    // By the ticket's name, exactly: a text match on 'Mesa 61' would also take "Mesa 6" + "1 min".
    await expect(kitchenPage.getByRole('article', { name: 'Mesa 61', exact: true }).getByTestId('board-line')).toHaveCount(4);
  });

  test('answers lost after the server committed: the retries under the same keys still make five', async ({
    adminApi,
    waiterPage: w,
    api,
  }) => {
    const { orderId } = await waiterOnOrder(w, api, 62);
    await addOffline(w, FOODS);

    // Each first try reaches the server (which commits), and its answer is cut before the page reads it.
    const dropped = new Set<string>();
    await w.route('**/api/orders/*/items', async (route) => {
      const key = route.request().headers()['idempotency-key'] ?? '';
      if (dropped.has(key)) return route.continue();
      dropped.add(key);
      await route.fetch();
      await route.abort('connectionreset');
    });
    await w.context().setOffline(false);
    await expect(w.getByTestId('pending-item')).toHaveCount(0, { timeout: 45_000 });
    expect(dropped.size).toBe(5);
    expect(await serverUnits(adminApi, orderId)).toBe(5);
    await expect(w.getByTestId('order-item')).toHaveCount(4);
  });

  test('a table paid while the waiter was offline: the queued items are refused with the reason, kept until dismissed', async ({
    adminApi,
    waiterPage: w,
    api: setup,
  }) => {
    const api = adminApi;
    const { orderId } = await waiterOnOrder(w, setup, 63);
    const products = ((await (await api.get('/api/products?available=1')).json()) as { products: { id: string; name: string }[] }).products;
    const added = (await (
      await api.post(`/api/orders/${orderId}/items`, { data: { productId: products[0]!.id, quantity: 1 } })
    ).json()) as OrderBody;
    const itemId = added.order.items[0]!.id;
    for (const status of ['en_preparacion', 'listo', 'entregado']) {
      expect((await api.patch(`/api/orders/${orderId}/items/${itemId}/status`, { data: { status } })).ok()).toBeTruthy();
    }
    await addOffline(w, FOODS.slice(0, 2));

    const paid = await api.post(`/api/orders/${orderId}/close`, {
      data: { method: 'efectivo', pin: ACCOUNTS.admin.pin, tipBps: 0, peopleCount: 1, receivedAmount: 100_000 },
      headers: { 'idempotency-key': `e2e-paid-${Date.now()}` },
    });
    expect(paid.status(), await paid.text()).toBe(200);

    await w.context().setOffline(false);
    const failed = w.getByTestId('outbox-failed').getByRole('listitem');
    await expect(failed).toHaveCount(2, { timeout: 30_000 });
    await expect(failed.first()).toContainText('no enviado');
    await expect(failed.first()).toContainText('Mesa 63 · +1 × Tacos al pastor');
    const reason = (await failed.first().innerText()).split('\n').at(-1) ?? '';
    expect(reason.length).toBeGreaterThan(5);
    await expect(w.getByText(/^No se envió «/).first()).toBeVisible();
    expect(await serverItems(api, orderId)).toHaveLength(1);

    // Still there after a reload; gone only when the waiter dismisses it.
    await w.reload();
    await expect(failed).toHaveCount(2);
    await w
      .getByRole('button', { name: /^Descartar: / })
      .first()
      .click();
    await expect(failed).toHaveCount(1);
    await w.screenshot({ path: test.info().outputPath('offline-refused.png') });
  });

  test('twenty queued actions: time from the connection returning to an empty outbox', async ({ adminApi, waiterPage: w, api }) => {
    const { orderId } = await waiterOnOrder(w, api, 64);
    const names = Array.from({ length: 20 }, (_, i) => FOODS[i % 4]!);
    await addOffline(w, names);

    const posts: number[] = [];
    w.on('requestfinished', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/items')) posts.push(Date.now());
    });
    const started = Date.now();
    await w.context().setOffline(false);
    await expect(w.getByTestId('pending-item')).toHaveCount(0, { timeout: 30_000 });
    const ms = Date.now() - started;
    console.log(
      `outbox drain: 20 queued actions sent in ${ms} ms after the connection returned ` +
        `(first request answered after ${posts[0]! - started} ms, last after ${posts.at(-1)! - started} ms)`,
    );
    expect(await serverUnits(adminApi, orderId)).toBe(20);
  });

  test('a unit, the guest count and the table name changed offline are kept, shown, and sent in order', async ({
    adminApi,
    waiterPage: w,
    api,
  }) => {
    const { orderId } = await waiterOnOrder(w, api, 66);
    const products = ((await (await w.request.get('/api/products?available=1')).json()) as { products: { id: string; name: string }[] })
      .products;
    const tacos = products.find((p) => p.name.startsWith('Tacos al pastor'))!;
    expect((await w.request.post(`/api/orders/${orderId}/items`, { data: { productId: tacos.id, quantity: 1 } })).ok()).toBeTruthy();
    await expect(w.getByTestId('order-item')).toHaveCount(1);

    await goOffline(w);
    await w.getByRole('button', { name: 'Agregar persona' }).click();
    await w.getByRole('button', { name: 'Agregar persona' }).click();
    await expect(w.getByTestId('guest-count')).toHaveText('3');
    await w.getByLabel('Nombre de la mesa').fill('Terraza');
    await w.getByLabel('Nombre de la mesa').press('Tab');
    await w.getByRole('button', { name: `Agregar unidad: ${tacos.name}` }).click();
    await w.getByRole('dialog', { name: 'Agregar unidades' }).getByRole('button', { name: 'Agregar' }).click();
    await expect(w.getByTestId('pending-item')).toHaveCount(1);
    await expect(w.getByText('4 cambios pendientes de envío')).toBeVisible();

    await w.context().setOffline(false);
    await expect(w.getByTestId('pending-item')).toHaveCount(0, { timeout: 30_000 });
    // The unit raised the pending line: one line of 2.
    await expect(w.getByTestId('order-item')).toHaveCount(1);
    const order = (
      (await (await adminApi.get(`/api/orders/${orderId}`)).json()) as {
        order: { peopleCount: number; tableName: string | null; items: { quantity: number }[] };
      }
    ).order;
    expect(order).toMatchObject({ peopleCount: 3, tableName: 'Terraza' });
    expect(order.items.map((i) => i.quantity)).toEqual([2]);
    await expect(w.getByTestId('guest-count')).toHaveText('3');
  });

  test('actions that cannot wait fail at once offline instead of spinning', async ({ adminApi, waiterPage: p, api: setup }) => {
    await setup.tableByNumber(65);
    await p.goto('/waiter/home');
    await expect(p.getByTestId('table-card-65')).toBeVisible();
    await goOffline(p);
    await p.getByTestId('table-card-65').click();
    await expect(p.getByText('Sin conexión: no se puede abrir la mesa ahora.')).toBeVisible({ timeout: 2_000 });
    await expect(p.getByTestId('table-card-65')).toContainText('Abrir Mesa'); // not "Abriendo mesa..."

    // Paying cannot wait either: it says so at once.
    await p.context().setOffline(false);
    await expect(p.getByText(BANNER)).toBeHidden({ timeout: 10_000 });
    const api = adminApi;
    const { orderId } = await tableWithOrder(setup, p.request, 67);
    const products = ((await (await api.get('/api/products?available=1')).json()) as { products: { id: string }[] }).products;
    const added = (await (
      await api.post(`/api/orders/${orderId}/items`, { data: { productId: products[0]!.id, quantity: 1 } })
    ).json()) as OrderBody;
    for (const status of ['en_preparacion', 'listo', 'entregado']) {
      await api.patch(`/api/orders/${orderId}/items/${added.order.items[0]!.id}/status`, { data: { status } });
    }
    await p.goto(`/waiter/checkout/${orderId}`);
    await p.getByRole('button', { name: 'Efectivo' }).click();
    await p.getByRole('button', { name: 'Exacto' }).click();
    await goOffline(p);
    await p.getByRole('button', { name: 'Finalizar' }).click();
    await enterPin(p, ACCOUNTS.waiter.pin);
    await expect(p.getByText('Sin conexión: no se puede cobrar ahora.')).toBeVisible({ timeout: 2_000 });
    await expect(p.getByRole('button', { name: 'Finalizar' })).toBeEnabled(); // free to try again, nothing spinning
  });

  test('a beer with its option added offline is shown pending with it, and reaches the server and the bar once @menu', async ({
    adminApi,
    waiterPage: w,
    barPage,
    api,
  }, testInfo) => {
    // A failed try leaves its beer on 340: the retry takes a table of its own.
    const table = testInfo.retry ? 348 : 340;
    const { orderId } = await waiterOnOrder(w, api, table);
    await goOffline(w);
    await w.getByRole('button', { name: 'Agregar', exact: true }).click();
    const dialog = pickerDialog(w);
    await dialog.getByRole('searchbox', { name: 'Buscar producto...' }).fill('cerveza');
    // 'Preparación' is optional: the row's Nota step offers its chips (groups loaded while online).
    await dialog.getByRole('button', { name: 'Nota o cantidad para Cerveza clara', exact: true }).click();
    await dialog
      .getByTestId('modifier-choices')
      .getByRole('button', { name: /Michelada/ })
      .click();
    await dialog.getByRole('button', { name: /^Agregar · \$80\.00/ }).click();
    await expect(dialog.getByTestId('round-line').filter({ hasText: 'Cerveza clara' }).last()).toContainText('Pendiente de envío');
    await dialog.getByRole('button', { name: 'Cerrar' }).first().click();

    const pending = w.getByTestId('pending-item');
    await expect(pending).toHaveCount(1);
    await expect(pending).toContainText('1 × Cerveza clara');
    await expect(pending).toContainText('Michelada');
    await expect(pending).toContainText('$80.00');
    await w.screenshot({ path: testInfo.outputPath('offline-pending-option.png'), fullPage: true });
    await expectNoSeriousViolations(w, 'order with a pending item with an option');
    expect(await serverItems(adminApi, orderId)).toHaveLength(0);

    await w.context().setOffline(false);
    await expect(pending).toHaveCount(0, { timeout: 30_000 });
    await expect(w.getByTestId('order-item').filter({ hasText: 'Cerveza clara' }).getByTestId('item-modifiers')).toHaveText(/Michelada/);
    const beers = (await serverItems(adminApi, orderId)).filter((i) => i.productName === 'Cerveza clara');
    expect(beers).toHaveLength(1);
    expect(beers[0]!.modifiers.map((m) => m.optionName)).toEqual(['Michelada']);
    expect(beers[0]!.productPrice).toBe(80_00);

    // By the ticket's name, exactly (see the first test): one line, the beer, with its option.
    const ticket = barPage.getByRole('article', { name: `Mesa ${table}`, exact: true });
    await expect(ticket.getByTestId('board-line')).toHaveCount(1, { timeout: 10_000 });
    await expect(barPage.locator(`[data-item-id="${beers[0]!.id}"]`)).toHaveCount(1);
    await expect(barPage.locator(`[data-item-id="${beers[0]!.id}"]`).getByTestId('item-modifiers')).toHaveText(/Michelada/);
    await barPage.screenshot({ path: testInfo.outputPath('board-barra-offline-option.png') });
  });
});
