import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { test, expect, signedInContext, ACCOUNTS, ADMIN, MOBILE, SHOTS, ensureTable, type TableDto } from './fixtures.ts';

/**
 * Table service moves: transfer, change of waiter, merge, move items. Tables 101–110 and 241–244
 * belong to this file (the admin adds them when missing): 101–105 and 241–242 on the first run,
 * 106–110 and 243–244 on a retry, so a retry never meets the tables a failed attempt left occupied.
 */
interface OrderDto {
  id: string;
  tableId: string;
  items: { id: string; productName: string; quantity: number; isDeleted: boolean }[];
}

async function tablesOf(request: APIRequestContext): Promise<TableDto[]> {
  return ((await (await request.get('/api/tables')).json()) as { tables: TableDto[] }).tables;
}

/** Table n (added by the admin if missing), free, as the test starts from a known state. */
async function freeTable(admin: APIRequestContext, n: number): Promise<TableDto> {
  const table = await ensureTable(admin, n);
  expect(table.status, `table ${n} should be free`).toBe('libre');
  return table;
}

/** Opens a table as a waiter (their browser's cookies) and adds products through the API. */
async function openWith(request: APIRequestContext, table: TableDto, lines: [string, number][]): Promise<OrderDto> {
  const opened = await request.post(`/api/tables/${table.id}/open`);
  expect(opened.ok(), await opened.text()).toBeTruthy();
  let { order } = (await opened.json()) as { order: OrderDto };
  const { products } = (await (await request.get('/api/products?available=1')).json()) as { products: { id: string; name: string }[] };
  for (const [name, quantity] of lines) {
    const added = await request.post(`/api/orders/${order.id}/items`, {
      data: { productId: products.find((p) => p.name === name)!.id, quantity },
    });
    expect(added.ok(), await added.text()).toBeTruthy();
    order = ((await added.json()) as { order: OrderDto }).order;
  }
  return order;
}

const ownCard = (page: Page, n: number) => page.getByTestId(`table-card-${n}`).getByTestId('table-total');

test.describe('table service moves @service', () => {
  // Three browsers signing in on a shared machine: the default minute is too tight.
  test.setTimeout(150_000);
  test('a transfer and a change of waiter seen live by both waiters', async ({ browser }, testInfo) => {
    const base = 101 + (testInfo.retry > 0 ? 5 : 0);
    const admin = await signedInContext(browser, 'admin', ADMIN);
    const mesero = await signedInContext(browser, 'waiter', MOBILE);
    const mesera = await signedInContext(browser, 'waiter2', MOBILE);
    const from = await freeTable(admin.page.request, base);
    const to = await freeTable(admin.page.request, base + 1);
    await openWith(mesero.page.request, from, [['Cerveza clara', 2]]);

    // The mesera watches her home; the mesero works his table on his phone.
    await mesera.page.goto('/waiter/home');
    await expect(mesera.page.getByTestId(`table-card-${from.number}`)).toContainText('No disponible');
    await mesero.page.goto(`/waiter/order/${from.id}`);
    await expect(mesero.page.getByRole('heading', { name: `Mesa ${from.number}`, level: 1 })).toBeVisible();

    // Transfer to a free table: the screen follows the order to its new table.
    await mesero.page.getByRole('button', { name: 'Acciones de mesa' }).click();
    await mesero.page.getByRole('button', { name: /Transferir mesa/ }).click();
    await mesero.page.getByTestId(`target-table-${to.number}`).click();
    await expect(mesero.page.getByText(`Orden transferida a Mesa ${to.number}`)).toBeVisible();
    await expect(mesero.page).toHaveURL(new RegExp(`/waiter/order/${to.id}$`));
    await expect(mesero.page.getByRole('heading', { name: `Mesa ${to.number}`, level: 1 })).toBeVisible();
    await expect(mesero.page.getByTestId('order-item')).toHaveCount(1);
    // Live on the mesera's home: the old table is free, the new one taken by someone else.
    await expect(mesera.page.getByTestId(`table-card-${from.number}`)).toContainText('Libre');
    await expect(mesera.page.getByTestId(`table-card-${to.number}`)).toContainText('No disponible');

    // The admin hands the table to the mesera.
    await admin.page.goto(`/admin/order/${to.id}`);
    await admin.page.getByRole('button', { name: 'Acciones de mesa' }).click();
    await admin.page.getByRole('button', { name: /Cambiar mesero/ }).click();
    await admin.page.getByRole('button', { name: ACCOUNTS.waiter2.name }).click();
    await expect(admin.page.getByText(`Mesa entregada a ${ACCOUNTS.waiter2.name}`)).toBeVisible();

    // Live, without reloading: the mesera now has it, the mesero's screen lets it go.
    await expect(ownCard(mesera.page, to.number)).toBeVisible();
    await expect(mesero.page.getByText('Orden no encontrada')).toBeVisible();
    await mesero.page.goto('/waiter/home');
    await expect(mesero.page.getByTestId(`table-card-${to.number}`)).toContainText('No disponible');
    await expect(ownCard(mesero.page, to.number)).toHaveCount(0);
    // The mesera works it.
    await mesera.page.getByTestId(`table-card-${to.number}`).getByRole('button', { name: 'Ver Pedido' }).click();
    await expect(mesera.page.getByRole('heading', { name: `Mesa ${to.number}`, level: 1 })).toBeVisible();
    await expect(mesera.page.getByTestId('order-item')).toHaveCount(1);

    await Promise.all([admin.context.close(), mesero.context.close(), mesera.context.close()]);
  });

  test('moving 2 beers to another table on the phone', async ({ browser }, testInfo) => {
    const base = 103 + (testInfo.retry > 0 ? 5 : 0);
    const admin = await signedInContext(browser, 'admin', ADMIN);
    const mesero = await signedInContext(browser, 'waiter', MOBILE);
    const from = await freeTable(admin.page.request, base);
    const to = await freeTable(admin.page.request, base + 1);
    await openWith(mesero.page.request, from, [
      ['Cerveza clara', 3],
      ['Tacos al pastor (3)', 1],
    ]);
    const page = mesero.page;
    await page.goto(`/waiter/order/${from.id}`);
    await expect(page.getByTestId('order-item')).toHaveCount(2);

    let taps = 0;
    const tap = async (locator: Locator) => {
      await locator.click();
      taps++;
    };
    await tap(page.getByRole('button', { name: 'Acciones de mesa' }));
    await tap(page.getByRole('button', { name: /Mover productos/ }));
    const more = page.getByRole('button', { name: 'Una unidad más de Cerveza clara' });
    await tap(more);
    await tap(more);
    await tap(page.getByRole('button', { name: /Elegir mesa destino · 2 unidades/ }));
    await tap(page.getByTestId(`target-table-${to.number}`));
    await expect(page.getByText(`2 unidades movidas a Mesa ${to.number}`)).toBeVisible();
    console.log(`taps to move 2 beers to another table: ${taps}`);
    expect(taps).toBe(6);

    // The source keeps 1 beer and the tacos; the target holds the 2 beers, for the same waiter.
    const source = (
      (await (
        await page.request.get(`/api/orders/${(await tablesOf(page.request)).find((t) => t.number === from.number)!.currentOrderId}`)
      ).json()) as { order: OrderDto }
    ).order;
    expect(source.items.map((i) => [i.productName, i.quantity])).toEqual([
      ['Cerveza clara', 1],
      ['Tacos al pastor (3)', 1],
    ]);
    const target = ((await (await page.request.get(`/api/tables/${to.id}/order`)).json()) as { order: OrderDto }).order;
    expect(target.items.map((i) => [i.productName, i.quantity])).toEqual([['Cerveza clara', 2]]);
    // The phone's home shows both tables as its own, live.
    await page.goto('/waiter/home');
    await expect(ownCard(page, from.number)).toBeVisible();
    await expect(ownCard(page, to.number)).toBeVisible();

    await Promise.all([admin.context.close(), mesero.context.close()]);
  });

  test('merging two tables on the phone: one confirmation, every line on the target, the source free, once', async ({
    browser,
  }, testInfo) => {
    const base = 241 + (testInfo.retry > 0 ? 2 : 0);
    const admin = await signedInContext(browser, 'admin', ADMIN);
    const mesero = await signedInContext(browser, 'waiter', MOBILE);
    const from = await freeTable(admin.page.request, base);
    const to = await freeTable(admin.page.request, base + 1);
    const source = await openWith(mesero.page.request, from, [['Cerveza clara', 2]]);
    await openWith(mesero.page.request, to, [['Tacos al pastor (3)', 1]]);
    // The admin watches the target's order screen: the merged lines reach it live.
    await admin.page.goto(`/admin/order/${to.id}`);
    await expect(admin.page.getByTestId('order-item')).toHaveCount(1);

    const page = mesero.page;
    await page.goto(`/waiter/order/${from.id}`);
    await expect(page.getByTestId('order-item')).toHaveCount(1);
    await page.getByRole('button', { name: 'Acciones de mesa' }).click();
    await page.getByRole('button', { name: /Unir con otra mesa/ }).click();
    await page.getByTestId(`target-table-${to.number}`).click();
    const confirm = page.getByRole('dialog', { name: 'Unir mesas' });
    await expect(confirm).toContainText(`Todos los productos de Mesa ${from.number} pasarán a Mesa ${to.number}`);
    await page.screenshot({ path: `${SHOTS}/merge-confirm-390.png` });
    // A double tap on the confirmation merges once.
    await confirm.getByRole('button', { name: 'Unir mesas' }).dblclick();
    await expect(page.getByText(`Orden unida a Mesa ${to.number}`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/waiter/order/${to.id}$`));
    await expect(page.getByTestId('order-item')).toHaveCount(2);
    await expect(admin.page.getByTestId('order-item')).toHaveCount(2);

    // Counted on the server: the target holds both lines once; the source order is gone from its table.
    const target = ((await (await page.request.get(`/api/tables/${to.id}/order`)).json()) as { order: OrderDto }).order;
    expect(
      target.items
        .filter((i) => !i.isDeleted)
        .map((i) => [i.productName, i.quantity])
        .sort(),
    ).toEqual([
      ['Cerveza clara', 2],
      ['Tacos al pastor (3)', 1],
    ]);
    const tables = await tablesOf(page.request);
    expect(tables.find((t) => t.number === from.number)!.status).toBe('libre');
    // The same merge again finds nothing to move.
    const again = await page.request.post(`/api/orders/${source.id}/merge`, { data: { targetTableId: to.id } });
    expect(again.ok()).toBeFalsy();
    await page.goto('/waiter/home');
    await expect(page.getByTestId(`table-card-${from.number}`)).toContainText('Libre');
    await expect(ownCard(page, to.number)).toBeVisible();

    await Promise.all([admin.context.close(), mesero.context.close()]);
  });
});
