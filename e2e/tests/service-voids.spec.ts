import type { APIRequestContext, Page } from '@playwright/test';
import { ACCOUNTS, BOARD, MOBILE, expect, signedInContext, test, SHOTS } from './fixtures.ts';

// Tables 131–140 belong to this file (issue #14 voids); they are created through the admin API when missing.

interface Item {
  id: string;
  productName: string;
  quantity: number;
  status: string;
  isDeleted: boolean;
  voidReason?: string | null;
}
interface Order {
  id: string;
  tableId: string;
  status: string;
  items: Item[];
}

/** The table's id, created by the admin when this database does not have it yet. */
async function tableId(admin: APIRequestContext, number: number): Promise<string> {
  const list = (await (await admin.get('/api/tables')).json()) as { tables: { id: string; number: number }[] };
  const found = list.tables.find((t) => t.number === number);
  if (found) return found.id;
  const created = await admin.post('/api/tables', { data: { number } });
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as { table: { id: string } }).table.id;
}

/** A fresh empty order on the table: whatever an earlier run left there is cancelled first. */
async function freshOrder(admin: APIRequestContext, waiter: APIRequestContext, id: string): Promise<Order> {
  const current = await admin.get(`/api/tables/${id}/order`);
  if (current.status() === 200) {
    const order = ((await current.json()) as { order: Order }).order;
    const res = await admin.post(`/api/orders/${order.id}/cancel`, { data: { reason: 'Otro', pin: ACCOUNTS.admin.pin } });
    expect(res.status(), await res.text()).toBe(200);
  }
  const opened = await waiter.post(`/api/tables/${id}/open`);
  expect(opened.status(), await opened.text()).toBe(200);
  return ((await opened.json()) as { order: Order }).order;
}

async function addItem(request: APIRequestContext, orderId: string, productName: string, quantity: number): Promise<Item> {
  const products = (await (await request.get('/api/products?available=1')).json()) as { products: { id: string; name: string }[] };
  const product = products.products.find((p) => p.name === productName);
  if (!product) throw new Error(`no product ${productName}`);
  const res = await request.post(`/api/orders/${orderId}/items`, { data: { productId: product.id, quantity } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { order: Order }).order.items.at(-1)!;
}

async function orderNow(request: APIRequestContext, orderId: string): Promise<Order> {
  return ((await (await request.get(`/api/orders/${orderId}`)).json()) as { order: Order }).order;
}

const boardLine = (page: Page, itemId: string) => page.locator(`[data-testid="board-line"][data-item-id="${itemId}"]`);

test.describe('voids and deliveries from the order screen @service', () => {
  // Three signed-in browsers on a shared, busy machine.
  test.describe.configure({ timeout: 180_000 });

  test('a void after preparation needs the admin PIN and shows as CANCELADO on the kitchen board @service', async ({ browser }) => {
    const admin = await signedInContext(browser, 'admin');
    const waiter = await signedInContext(browser, 'waiter', MOBILE);
    const kitchen = await signedInContext(browser, 'kitchen', BOARD);
    const id = await tableId(admin.page.request, 131);
    const order = await freshOrder(admin.page.request, waiter.page.request, id);
    // The board is up (and listening) before the order reaches it.
    await expect(kitchen.page).toHaveURL(/\/kitchen\/cocina$/);
    await expect(kitchen.page.getByRole('heading', { name: 'Pendientes' })).toBeVisible();
    const tacos = await addItem(waiter.page.request, order.id, 'Tacos al pastor (3)', 3);

    // The kitchen prepares it on its board.
    const line = boardLine(kitchen.page, tacos.id);
    await expect(line).toBeVisible({ timeout: 20_000 });
    const pendingCard = kitchen.page.getByTestId('board-card').filter({ has: line });
    await pendingCard.getByRole('button', { name: 'Marcar Listo' }).click();
    await expect(kitchen.page.getByTestId('column-ready').locator(`[data-item-id="${tacos.id}"]`)).toBeVisible();

    // The waiter cancels 2 of the 3 from the order screen: a reason, then the admin's PIN.
    await waiter.page.goto(`/waiter/order/${id}`);
    await waiter.page.getByRole('button', { name: 'Cancelar unidades: Tacos al pastor (3)' }).click();
    const dialog = waiter.page.getByRole('dialog', { name: 'Cancelar unidades' });
    await expect(dialog).toContainText('se pedirá el PIN de un administrador');
    await dialog.getByRole('button', { name: 'Aumentar' }).click();
    await expect(dialog.locator('#void-units')).toHaveText('2');
    await dialog.getByRole('radio', { name: 'Producto en mal estado' }).click();
    await dialog.getByLabel('Nota (opcional)').fill('salieron fríos');
    await waiter.page.screenshot({ path: `${SHOTS}/service-void-dialog-mobile.png` });
    await dialog.getByTestId('void-confirm').click();
    const pin = waiter.page.getByRole('dialog', { name: 'PIN de administrador' });
    await expect(pin).toBeVisible();
    for (const digit of ACCOUNTS.admin.pin) await pin.getByRole('button', { name: digit, exact: true }).click();
    await expect(pin).toBeHidden();
    await expect(waiter.page.getByText('Motivo: Producto en mal estado · salieron fríos')).toBeVisible();

    const after = await orderNow(waiter.page.request, order.id);
    const voided = after.items.find((i) => i.isDeleted)!;
    expect(voided).toMatchObject({ quantity: 2, voidReason: 'Producto en mal estado' });
    expect(after.items.find((i) => i.id === tacos.id)).toMatchObject({ quantity: 1, isDeleted: false });

    // Live on the board: the 2 voided units as CANCELADO, struck through; the remaining one still to hand out.
    const cancelled = boardLine(kitchen.page, voided.id);
    await expect(cancelled).toBeVisible();
    await expect(cancelled).toHaveAttribute('data-cancelled', 'true');
    await expect(cancelled).toContainText('CANCELADO');
    await expect(cancelled).toContainText('2×');
    await expect(cancelled.getByText('Tacos al pastor (3)')).toHaveCSS('text-decoration-line', 'line-through');
    await expect(boardLine(kitchen.page, tacos.id)).toContainText('1×');
    await kitchen.page.screenshot({ path: `${SHOTS}/service-void-board-tablet.png` });
    await waiter.page.screenshot({ path: `${SHOTS}/service-void-order-mobile.png` });
    await Promise.all([admin.context.close(), waiter.context.close(), kitchen.context.close()]);
  });

  test('the waiter delivers a listo item from the order screen and the board sees it @service', async ({ browser }) => {
    const admin = await signedInContext(browser, 'admin');
    const waiter = await signedInContext(browser, 'waiter', MOBILE);
    const kitchen = await signedInContext(browser, 'kitchen', BOARD);
    const id = await tableId(admin.page.request, 132);
    const order = await freshOrder(admin.page.request, waiter.page.request, id);
    const guac = await addItem(waiter.page.request, order.id, 'Guacamole con totopos', 1);
    const tacos = await addItem(waiter.page.request, order.id, 'Tacos al pastor (3)', 1);
    await expect(kitchen.page.getByRole('heading', { name: 'Pendientes' })).toBeVisible();
    for (const item of [guac, tacos]) {
      const res = await kitchen.page.request.patch(`/api/orders/${order.id}/items/${item.id}/status`, { data: { status: 'listo' } });
      expect(res.status()).toBe(200);
    }
    await expect(kitchen.page.getByTestId('column-ready').locator(`[data-item-id="${guac.id}"]`)).toBeVisible();

    await waiter.page.goto(`/waiter/order/${id}`);
    // One tap on a line…
    await waiter.page.getByRole('button', { name: 'Entregar: Guacamole con totopos' }).click();
    await expect(waiter.page.getByRole('button', { name: 'Entregar: Guacamole con totopos' })).toHaveCount(0);
    await expect(kitchen.page.getByTestId('column-delivered').locator(`[data-item-id="${guac.id}"]`)).toBeVisible();
    // …and "Entregar todo lo listo" for the rest.
    await waiter.page.getByRole('button', { name: /Entregar todo lo listo/ }).click();
    await expect(waiter.page.getByRole('button', { name: /Entregar todo lo listo/ })).toHaveCount(0);
    await expect(kitchen.page.getByTestId('column-delivered').locator(`[data-item-id="${tacos.id}"]`)).toBeVisible();
    const after = await orderNow(waiter.page.request, order.id);
    expect(after.items.map((i) => i.status)).toEqual(['entregado', 'entregado']);
    await Promise.all([admin.context.close(), waiter.context.close(), kitchen.context.close()]);
  });

  test('an empty order opened by mistake is cancelled by its waiter and the table is free again @service', async ({ browser }) => {
    const admin = await signedInContext(browser, 'admin');
    const waiter = await signedInContext(browser, 'waiter', MOBILE);
    const id = await tableId(admin.page.request, 133);
    const order = await freshOrder(admin.page.request, waiter.page.request, id);
    await waiter.page.goto(`/waiter/order/${id}`);
    await waiter.page.getByRole('button', { name: 'Cancelar la orden' }).click();
    const dialog = waiter.page.getByRole('dialog', { name: 'Cancelar la orden' });
    await expect(dialog).toContainText('La orden no tiene productos');
    await dialog.getByTestId('cancel-order-confirm').click();
    await expect(waiter.page).toHaveURL(/\/waiter\/home$/);
    expect((await orderNow(admin.page.request, order.id)).status).toBe('cancelado');
    const tables = (await (await admin.page.request.get('/api/tables')).json()) as { tables: { number: number; status: string }[] };
    expect(tables.tables.find((t) => t.number === 133)?.status).toBe('libre');
    const history = (await (await admin.page.request.get('/api/tickets?status=cancelado')).json()) as {
      tickets: { id: string; status: string }[];
    };
    expect(history.tickets.find((t) => t.id === order.id)?.status).toBe('cancelado');
    await Promise.all([admin.context.close(), waiter.context.close()]);
  });
});
