import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { test, expect, signedInContext, ACCOUNTS, MOBILE } from './fixtures.ts';

// Tables 61–67 belong to this file: it adds them itself.
const BANNER = 'Sin conexión con el servidor. Los cambios se guardan en este dispositivo y se enviarán al volver la conexión.';
const FOODS = ['Tacos al pastor', 'Hamburguesa de la casa', 'Enchiladas verdes', 'Alitas BBQ', 'Tacos al pastor'];

type Item = { id: string; productName: string; status: string; isDeleted: boolean };
type OrderBody = { order: { id: string; items: Item[] } };

async function tableWithOrder(admin: APIRequestContext, waiter: APIRequestContext, number: number) {
  const created = await admin.post('/api/tables', { data: { number } });
  expect([200, 409]).toContain(created.status());
  const { tables } = (await (await admin.get('/api/tables')).json()) as { tables: { id: string; number: number; status: string }[] };
  const table = tables.find((t) => t.number === number)!;
  if (table.status === 'libre') expect((await waiter.post(`/api/tables/${table.id}/open`)).ok()).toBeTruthy();
  const order = ((await (await admin.get(`/api/tables/${table.id}/order`)).json()) as OrderBody).order;
  return { tableId: table.id, orderId: order.id };
}

const serverItems = async (admin: APIRequestContext, orderId: string) =>
  ((await (await admin.get(`/api/orders/${orderId}`)).json()) as OrderBody).order.items.filter((i) => !i.isDeleted);

/** Adds one product through the picker (it stays open for the next one). */
async function addThroughPicker(page: Page, search: string) {
  const dialog = page.getByRole('dialog', { name: 'Agregar productos' });
  await dialog.getByRole('searchbox', { name: 'Buscar producto...' }).fill(search);
  await dialog
    .getByRole('button', { name: new RegExp(`^${search}`) })
    .first()
    .click();
  await dialog.getByRole('button', { name: /^Agregar · / }).click();
  await expect(dialog.getByRole('searchbox', { name: 'Buscar producto...' })).toBeVisible();
}

async function addOffline(page: Page, context: BrowserContext, names: string[]) {
  await context.setOffline(true);
  // Within 2 s of losing the server, the banner says so.
  await expect(page.getByText(BANNER)).toBeVisible({ timeout: 2_000 });
  await page.getByRole('button', { name: 'Agregar', exact: true }).click();
  for (const name of names) await addThroughPicker(page, name);
  await page.getByRole('dialog', { name: 'Agregar productos' }).getByRole('button', { name: 'Cerrar' }).first().click();
  await expect(page.getByTestId('pending-item')).toHaveCount(names.length);
}

type Browser = Parameters<typeof signedInContext>[0];

/** The waiter's phone with a table of its own open, on its order screen, the product list loaded once while online. */
async function waiterOnOrder(browser: Browser, admin: APIRequestContext, number: number) {
  const waiter = await signedInContext(browser, 'waiter', MOBILE);
  const { tableId, orderId } = await tableWithOrder(admin, waiter.page.request, number);
  await waiter.page.goto(`/waiter/order/${tableId}`);
  await waiter.page.getByRole('button', { name: 'Agregar', exact: true }).click();
  const dialog = waiter.page.getByRole('dialog', { name: 'Agregar productos' });
  await expect(dialog.getByRole('button', { name: /^Tacos al pastor/ })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cerrar' }).first().click();
  return { ...waiter, tableId, orderId };
}

test.describe('nothing is lost when the Wi-Fi drops', () => {
  test('five items added offline survive a reload and reach the server and the kitchen exactly once', async ({ browser }) => {
    const admin = await signedInContext(browser, 'admin');
    const kitchen = await signedInContext(browser, 'kitchen');
    const waiter = await waiterOnOrder(browser, admin.page.request, 61);
    const { orderId } = waiter;
    const w = waiter.page;

    await addOffline(w, waiter.context, FOODS);
    await expect(w.getByTestId('pending-item').first()).toContainText('pendiente de envío');
    await w.screenshot({ path: '/tmp/offline-order-pending.png' });
    expect(await serverItems(admin.page.request, orderId)).toHaveLength(0);

    // Reload. Without a service worker the app shell cannot load offline, so the connection
    // comes back first but every item request is held (aborted like a dead network) until
    // after the reload: the queue must come back from IndexedDB, not from memory.
    await w.route('**/api/orders/*/items', (route) => route.abort('internetdisconnected'));
    await waiter.context.setOffline(false);
    await w.reload();
    await expect(w.getByTestId('pending-item')).toHaveCount(5);
    expect(await serverItems(admin.page.request, orderId)).toHaveLength(0);
    await w.unroute('**/api/orders/*/items');

    await expect(w.getByTestId('pending-item')).toHaveCount(0, { timeout: 30_000 });
    await expect(w.getByTestId('order-item')).toHaveCount(5);
    await expect(w.getByText(BANNER)).toBeHidden();
    expect(await serverItems(admin.page.request, orderId)).toHaveLength(5);
    await kitchen.page.goto('/kitchen/cocina');
    // By the ticket's name, exactly: a text match on 'Mesa 61' would also take "Mesa 6" + "1 min".
    await expect(kitchen.page.getByRole('article', { name: 'Mesa 61', exact: true }).getByTestId('board-line')).toHaveCount(5);

    for (const c of [admin, kitchen, waiter]) await c.context.close();
  });

  test('answers lost after the server committed: the retries under the same keys still make five', async ({ browser }) => {
    const admin = await signedInContext(browser, 'admin');
    const waiter = await waiterOnOrder(browser, admin.page.request, 62);
    const { orderId } = waiter;
    const w = waiter.page;
    await addOffline(w, waiter.context, FOODS);

    // Each first try reaches the server (which commits), and its answer is cut before the page reads it.
    const dropped = new Set<string>();
    await w.route('**/api/orders/*/items', async (route) => {
      const key = route.request().headers()['idempotency-key'] ?? '';
      if (dropped.has(key)) return route.continue();
      dropped.add(key);
      await route.fetch();
      await route.abort('connectionreset');
    });
    await waiter.context.setOffline(false);
    await expect(w.getByTestId('pending-item')).toHaveCount(0, { timeout: 45_000 });
    expect(dropped.size).toBe(5);
    expect(await serverItems(admin.page.request, orderId)).toHaveLength(5);
    await expect(w.getByTestId('order-item')).toHaveCount(5);

    for (const c of [admin, waiter]) await c.context.close();
  });

  test('a table paid while the waiter was offline: the queued items are refused with the reason, kept until dismissed', async ({
    browser,
  }) => {
    const admin = await signedInContext(browser, 'admin');
    const api = admin.page.request;
    const waiter = await waiterOnOrder(browser, api, 63);
    const { orderId } = waiter;
    const products = ((await (await api.get('/api/products?available=1')).json()) as { products: { id: string; name: string }[] }).products;
    const added = (await (
      await api.post(`/api/orders/${orderId}/items`, { data: { productId: products[0]!.id, quantity: 1 } })
    ).json()) as OrderBody;
    const itemId = added.order.items[0]!.id;
    for (const status of ['en_preparacion', 'listo', 'entregado']) {
      expect((await api.patch(`/api/orders/${orderId}/items/${itemId}/status`, { data: { status } })).ok()).toBeTruthy();
    }
    const w = waiter.page;
    await addOffline(w, waiter.context, FOODS.slice(0, 2));

    const paid = await api.post(`/api/orders/${orderId}/close`, {
      data: { method: 'efectivo', pin: ACCOUNTS.admin.pin, tipBps: 0, peopleCount: 1, receivedAmount: 100_000 },
      headers: { 'idempotency-key': `e2e-paid-${Date.now()}` },
    });
    expect(paid.status(), await paid.text()).toBe(200);

    await waiter.context.setOffline(false);
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
    await w.screenshot({ path: '/tmp/offline-refused.png' });

    for (const c of [admin, waiter]) await c.context.close();
  });

  test('twenty queued actions: time from the connection returning to an empty outbox', async ({ browser }) => {
    const admin = await signedInContext(browser, 'admin');
    const waiter = await waiterOnOrder(browser, admin.page.request, 64);
    const { orderId } = waiter;
    const names = Array.from({ length: 20 }, (_, i) => FOODS[i % 4]!);
    await addOffline(waiter.page, waiter.context, names);

    const posts: number[] = [];
    waiter.page.on('requestfinished', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/items')) posts.push(Date.now());
    });
    const started = Date.now();
    await waiter.context.setOffline(false);
    await expect(waiter.page.getByTestId('pending-item')).toHaveCount(0, { timeout: 30_000 });
    const ms = Date.now() - started;
    console.log(
      `outbox drain: 20 queued actions sent in ${ms} ms after the connection returned ` +
        `(first request answered after ${posts[0]! - started} ms, last after ${posts.at(-1)! - started} ms)`,
    );
    expect(await serverItems(admin.page.request, orderId)).toHaveLength(20);

    for (const c of [admin, waiter]) await c.context.close();
  });

  test('a unit, the guest count and the table name changed offline are kept, shown, and sent in order', async ({ browser }) => {
    const admin = await signedInContext(browser, 'admin');
    const waiter = await waiterOnOrder(browser, admin.page.request, 66);
    const w = waiter.page;
    const products = ((await (await w.request.get('/api/products?available=1')).json()) as { products: { id: string; name: string }[] })
      .products;
    const tacos = products.find((p) => p.name.startsWith('Tacos al pastor'))!;
    expect((await w.request.post(`/api/orders/${waiter.orderId}/items`, { data: { productId: tacos.id, quantity: 1 } })).ok()).toBeTruthy();
    await expect(w.getByTestId('order-item')).toHaveCount(1);

    await waiter.context.setOffline(true);
    await expect(w.getByText(BANNER)).toBeVisible({ timeout: 2_000 });
    await w.getByRole('button', { name: 'Agregar persona' }).click();
    await w.getByRole('button', { name: 'Agregar persona' }).click();
    await expect(w.getByTestId('guest-count')).toHaveText('3');
    await w.getByLabel('Nombre de la mesa').fill('Terraza');
    await w.getByLabel('Nombre de la mesa').press('Tab');
    await w.getByRole('button', { name: `Agregar unidad: ${tacos.name}` }).click();
    await w.getByRole('dialog', { name: 'Agregar unidades' }).getByRole('button', { name: 'Agregar' }).click();
    await expect(w.getByTestId('pending-item')).toHaveCount(1);
    await expect(w.getByText('4 cambios pendientes de envío')).toBeVisible();

    await waiter.context.setOffline(false);
    await expect(w.getByTestId('pending-item')).toHaveCount(0, { timeout: 30_000 });
    await expect(w.getByTestId('order-item')).toHaveCount(2);
    const order = (
      (await (await admin.page.request.get(`/api/orders/${waiter.orderId}`)).json()) as {
        order: { peopleCount: number; tableName: string | null; items: unknown[] };
      }
    ).order;
    expect(order).toMatchObject({ peopleCount: 3, tableName: 'Terraza' });
    expect(order.items).toHaveLength(2);
    await expect(w.getByTestId('guest-count')).toHaveText('3');

    for (const c of [admin, waiter]) await c.context.close();
  });

  test('actions that cannot wait fail at once offline instead of spinning', async ({ browser }) => {
    const admin = await signedInContext(browser, 'admin');
    const created = await admin.page.request.post('/api/tables', { data: { number: 65 } });
    expect([200, 409]).toContain(created.status());
    const waiter = await signedInContext(browser, 'waiter', MOBILE);
    await waiter.page.goto('/waiter/home');
    await expect(waiter.page.getByTestId('table-card-65')).toBeVisible();
    await waiter.context.setOffline(true);
    await expect(waiter.page.getByText(BANNER)).toBeVisible({ timeout: 2_000 });
    await waiter.page.getByTestId('table-card-65').click();
    await expect(waiter.page.getByText('Sin conexión: no se puede abrir la mesa ahora.')).toBeVisible({ timeout: 2_000 });
    await expect(waiter.page.getByTestId('table-card-65')).toContainText('Abrir Mesa'); // not "Abriendo mesa..."

    // Paying cannot wait either: it says so at once.
    await waiter.context.setOffline(false);
    await expect(waiter.page.getByText(BANNER)).toBeHidden({ timeout: 10_000 });
    const api = admin.page.request;
    const { orderId } = await tableWithOrder(api, waiter.page.request, 67);
    const products = ((await (await api.get('/api/products?available=1')).json()) as { products: { id: string }[] }).products;
    const added = (await (
      await api.post(`/api/orders/${orderId}/items`, { data: { productId: products[0]!.id, quantity: 1 } })
    ).json()) as OrderBody;
    for (const status of ['en_preparacion', 'listo', 'entregado']) {
      await api.patch(`/api/orders/${orderId}/items/${added.order.items[0]!.id}/status`, { data: { status } });
    }
    const p = waiter.page;
    await p.goto(`/waiter/checkout/${orderId}`);
    await p.getByRole('button', { name: 'Efectivo' }).click();
    await p.getByRole('button', { name: 'Exacto' }).click();
    await waiter.context.setOffline(true);
    await expect(p.getByText(BANNER)).toBeVisible({ timeout: 2_000 });
    await p.getByRole('button', { name: 'Finalizar' }).click();
    const dialog = p.getByRole('dialog');
    for (const digit of ACCOUNTS.waiter.pin) await dialog.getByRole('button', { name: digit, exact: true }).click();
    await dialog.getByRole('button', { name: 'Verificar' }).click();
    await expect(p.getByText('Sin conexión: no se puede cobrar ahora.')).toBeVisible({ timeout: 2_000 });
    await expect(p.getByRole('button', { name: 'Finalizar' })).toBeEnabled(); // free to try again, nothing spinning
    for (const c of [admin, waiter]) await c.context.close();
  });
});
