import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { test, expect, ACCOUNTS, ADMIN, BOARD, signedInContext, SHOTS } from './fixtures.ts';

// Tables 5 and 6 belong to this file (see the team brief), and 75–78, 360 and 361, which it adds itself; other specs use other tables.

interface Order {
  id: string;
  tableId: string;
  items: { id: string; productName: string; status: string }[];
}

/** The active order of a table, opening the table first when it is free (tests may rerun). */
async function orderOf(request: APIRequestContext, tableNumber: number): Promise<Order> {
  const tables = (await (await request.get('/api/tables')).json()) as { tables: { id: string; number: number; status: string }[] };
  const table = tables.tables.find((t) => t.number === tableNumber);
  if (!table) throw new Error(`no table ${tableNumber}`);
  const res =
    table.status === 'libre' ? await request.post(`/api/tables/${table.id}/open`) : await request.get(`/api/tables/${table.id}/order`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { order: Order }).order;
}

async function addItem(request: APIRequestContext, orderId: string, productName: string, notes?: string): Promise<Order> {
  const products = (await (await request.get('/api/products?available=1')).json()) as { products: { id: string; name: string }[] };
  const product = products.products.find((p) => p.name === productName);
  if (!product) throw new Error(`no product ${productName}`);
  const res = await request.post(`/api/orders/${orderId}/items`, {
    data: { productId: product.id, quantity: 1, ...(notes ? { notes } : {}) },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { order: Order }).order;
}

/** The ticket holding one item on a board column, found by the item's id so other specs' items never confuse it. */
/**
 * The Deshacer of the toast that says `text`: an earlier move's toast (another ticket's, or one
 * still sliding out) may be on screen too, and only this one must be pressed.
 */
const undoOf = (page: Page, text: string): Locator =>
  page.locator('[data-sonner-toast]:not([data-removed="true"])').filter({ hasText: text }).getByRole('button', { name: 'Deshacer' });
const card = (page: Page, column: 'pending' | 'ready' | 'delivered', itemId: string): Locator =>
  page
    .getByTestId(`column-${column}`)
    .getByTestId('board-card')
    .filter({ has: page.locator(`[data-item-id="${itemId}"]`) });

test.describe('kitchen and bar boards', () => {
  test('a Comida reaches only the cocina board and a Bebida only the barra board, live, then moves across columns', async ({
    waiterApi,
    kitchenPage,
    barPage,
  }) => {
    await expect(kitchenPage).toHaveURL(/\/kitchen\/cocina$/);
    await expect(barPage).toHaveURL(/\/kitchen\/barra$/);
    await expect(kitchenPage.getByRole('heading', { name: 'Pendientes' })).toBeVisible();
    await expect(barPage.getByRole('heading', { name: 'Pendientes' })).toBeVisible();

    // The boards are already open: the items must appear without a reload.
    const order = await orderOf(waiterApi, 5);
    expect((await waiterApi.patch(`/api/orders/${order.id}`, { data: { tableName: 'Cumpleaños Ana' } })).status()).toBe(200);
    await addItem(waiterApi, order.id, 'Tacos al pastor (3)', 'sin cebolla, salsa aparte');
    const after = await addItem(waiterApi, order.id, 'Michelada');
    const food = after.items.filter((i) => i.productName === 'Tacos al pastor (3)').at(-1)!;
    const drink = after.items.filter((i) => i.productName === 'Michelada').at(-1)!;

    const foodCard = card(kitchenPage, 'pending', food.id);
    await expect(foodCard).toBeVisible({ timeout: 5_000 });
    await expect(foodCard).toContainText('Mesa 5');
    await expect(foodCard).toContainText('Cumpleaños Ana');
    await expect(foodCard).toContainText('Mario Mesero');
    await expect(foodCard).toContainText('sin cebolla, salsa aparte');
    await expect(foodCard).toContainText('0 min');
    await expect(kitchenPage.locator(`[data-item-id="${drink.id}"]`)).toHaveCount(0);
    await expect(card(barPage, 'pending', drink.id)).toBeVisible({ timeout: 5_000 });
    await expect(barPage.locator(`[data-item-id="${food.id}"]`)).toHaveCount(0);
    await expect(kitchenPage.getByText('Entregados: últimos 30 min')).toBeVisible();
    await expect(kitchenPage.getByTestId('category-counter').filter({ hasText: 'Comida' })).toBeVisible();
    await kitchenPage.screenshot({ path: `${SHOTS}/board-cocina-tablet.png` });
    await barPage.screenshot({ path: `${SHOTS}/board-barra-tablet.png` });

    await foodCard.getByRole('button', { name: 'Marcar Listo' }).click();
    const ready = card(kitchenPage, 'ready', food.id);
    await expect(ready).toBeVisible();
    await expect(card(kitchenPage, 'pending', food.id)).toHaveCount(0);
    await ready.getByRole('button', { name: 'Marcar Entregado' }).click();
    const delivered = card(kitchenPage, 'delivered', food.id);
    await expect(delivered).toBeVisible();
    await expect(delivered.getByRole('button')).toHaveCount(0);
    await expect(delivered).toContainText(/Entregado \d{1,2}:\d{2}/);
    await expect(card(kitchenPage, 'ready', food.id)).toHaveCount(0);

    // The change is the server's, not only the screen's.
    const saved = (await (await waiterApi.get(`/api/orders/${order.id}`)).json()) as { order: Order };
    expect(saved.order.items.find((i) => i.id === food.id)?.status).toBe('entregado');

    await kitchenPage.setViewportSize(ADMIN);
    await kitchenPage.screenshot({ path: `${SHOTS}/board-cocina-desktop.png` });

    // The kitchen may look at the bar board through its header toggle, but not move bar items.
    await kitchenPage.getByRole('link', { name: 'Barra' }).click();
    await expect(kitchenPage).toHaveURL(/\/kitchen\/barra$/);
    await expect(card(kitchenPage, 'pending', drink.id)).toBeVisible();
    await expect(card(kitchenPage, 'pending', drink.id).getByRole('button')).toHaveCount(0);
  });

  test('the admin kanban shows both stations and the admin panel switcher changes an item status', async ({ adminPage, waiterApi }) => {
    const order = await orderOf(waiterApi, 6);
    const withFood = await addItem(waiterApi, order.id, 'Guacamole con totopos');
    const withDrink = await addItem(waiterApi, order.id, 'Shot de mezcal');
    const food = withFood.items.at(-1)!;
    const drink = withDrink.items.at(-1)!;

    await adminPage.goto('/admin/kanban');
    await expect(adminPage.getByRole('heading', { name: 'Cocina y Barra' })).toBeVisible();
    await expect(card(adminPage, 'pending', food.id)).toBeVisible();
    await expect(card(adminPage, 'pending', drink.id)).toBeVisible();
    await adminPage.screenshot({ path: `${SHOTS}/board-admin-both-desktop.png` });
    await adminPage.setViewportSize(BOARD);
    await adminPage.screenshot({ path: `${SHOTS}/board-admin-both-tablet.png` });
    await adminPage.setViewportSize(ADMIN);
    await adminPage.goto('/admin/kanban/barra');
    await expect(card(adminPage, 'pending', drink.id)).toBeVisible();
    await expect(adminPage.locator(`[data-item-id="${food.id}"]`)).toHaveCount(0);

    await adminPage.goto('/admin/panel');
    await expect(adminPage.getByRole('heading', { name: 'Panel de pedidos' })).toBeVisible();
    await adminPage.getByRole('tab', { name: 'Barra' }).click();
    const panelCard = adminPage.locator(`[data-testid="panel-card"][data-item-id="${drink.id}"]`);
    await expect(panelCard).toBeVisible();
    await expect(adminPage.locator(`[data-testid="panel-card"][data-item-id="${food.id}"]`)).toHaveCount(0);
    await expect(panelCard.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '33');
    await expect(panelCard.getByRole('button', { name: 'Cambiar a Pendiente' })).toHaveCount(0);
    await adminPage.screenshot({ path: `${SHOTS}/panel-desktop.png` });

    await panelCard.getByRole('button', { name: 'Cambiar a Listo' }).click();
    await expect(panelCard.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '67');
    await expect(panelCard.getByRole('button', { name: 'Cambiar a Pendiente' })).toBeVisible();
    await panelCard.getByRole('button', { name: 'Cambiar a Entregado' }).click();
    await expect(panelCard.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

    // Filtering by a status the item no longer has hides it; the empty text shows when nothing matches.
    await adminPage.getByRole('tab', { name: 'Pendiente', exact: true }).click();
    await expect(panelCard).toHaveCount(0);
    await adminPage.getByRole('tab', { name: 'Entregado', exact: true }).click();
    await expect(panelCard).toBeVisible();
    await adminPage.setViewportSize(BOARD);
    await adminPage.screenshot({ path: `${SHOTS}/panel-tablet.png` });

    // Moving backwards is allowed (SPEC §4): the bar board sees it pending again.
    await panelCard.getByRole('button', { name: 'Cambiar a Pendiente' }).click();
    await expect(panelCard).toHaveCount(0);
    await adminPage.goto('/admin/kanban/barra');
    await expect(card(adminPage, 'pending', drink.id)).toBeVisible();
  });

  test('the sound preference survives a reload and rings only when new items arrive', async ({ waiterApi, kitchenPage }) => {
    const toggle = kitchenPage.getByRole('button', { name: /Habilitar Sonido|Sonido Activo/ });
    await expect(toggle).toHaveText('Habilitar Sonido');
    await toggle.click();
    await expect(toggle).toHaveText('Sonido Activo');
    expect(await kitchenPage.evaluate(() => localStorage.getItem('kitchen-sound'))).toBe('true');

    await kitchenPage.reload();
    await expect(toggle).toHaveText('Sonido Activo');
    await expect(kitchenPage.getByRole('heading', { name: 'Pendientes' })).toBeVisible();
    await expect(toggle).toHaveAttribute('data-rings', '0');

    const order = await orderOf(waiterApi, 6);
    const added = await addItem(waiterApi, order.id, 'Churros con cajeta');
    await expect(card(kitchenPage, 'pending', added.items.at(-1)!.id)).toBeVisible();
    await expect(toggle).toHaveAttribute('data-rings', '1');

    await toggle.click();
    await expect(toggle).toHaveText('Habilitar Sonido');
    await kitchenPage.reload();
    await expect(toggle).toHaveText('Habilitar Sonido');
    expect(await kitchenPage.evaluate(() => localStorage.getItem('kitchen-sound'))).toBe('false');
  });
  test('a refused status change shows the kanban error toast and leaves the card where it was', async ({ waiterApi, kitchenPage }) => {
    const order = await orderOf(waiterApi, 5);
    const added = await addItem(waiterApi, order.id, 'Flan napolitano');
    const item = added.items.at(-1)!;
    await kitchenPage.route('**/api/orders/*/items/*/status', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'order_closed', message: 'La orden ya fue cerrada y no se puede modificar' } }),
      }),
    );
    await card(kitchenPage, 'pending', item.id).getByRole('button', { name: 'Marcar Listo' }).click();
    await expect(kitchenPage.getByText('Error al actualizar estado en kanban')).toBeVisible();
    await expect(card(kitchenPage, 'pending', item.id)).toBeVisible();
    await expect(card(kitchenPage, 'ready', item.id)).toHaveCount(0);
  });

  test('one tap moves a whole ticket, Deshacer sends it back, and four 3-line tickets fit a 1024×768 board', async ({
    waiterApi,
    kitchenPage,
    api,
  }) => {
    test.setTimeout(180_000);
    for (const n of [75, 76, 77, 78]) await api.tableByNumber(n);
    // Eight lines sent at once to table 75: one ticket (the second four with a note, so they stay
    // lines of their own instead of raising the pending ones).
    let order = await orderOf(waiterApi, 75);
    const lines = ['Tacos al pastor (3)', 'Hamburguesa de la casa', 'Guacamole con totopos', 'Flan napolitano'];
    for (const name of lines) order = await addItem(waiterApi, order.id, name);
    for (const name of lines) order = await addItem(waiterApi, order.id, name, 'para compartir');
    const ids = order.items.map((i) => i.id);
    const pending = card(kitchenPage, 'pending', ids[0]!);
    await expect(pending).toBeVisible();
    await expect(pending.getByTestId('board-line')).toHaveCount(8);
    for (const id of ids) await expect(pending.locator(`[data-item-id="${id}"]`)).toBeVisible();

    // Marcar Listo once: all eight lines are ready. Deshacer: all pending again, on the server too.
    let taps = 0;
    await pending.getByRole('button', { name: 'Marcar Listo' }).click();
    taps += 1;
    const ready = card(kitchenPage, 'ready', ids[0]!);
    await expect(ready.getByTestId('board-line')).toHaveCount(8);
    await expect(card(kitchenPage, 'pending', ids[0]!)).toHaveCount(0);
    await expect(kitchenPage.getByText('Mesa 75: 8 líneas a Listo')).toBeVisible();
    await undoOf(kitchenPage, 'Mesa 75: 8 líneas a Listo').click();
    await expect(card(kitchenPage, 'pending', ids[0]!).getByTestId('board-line')).toHaveCount(8);
    await expect(card(kitchenPage, 'ready', ids[0]!)).toHaveCount(0);
    await expect
      .poll(async () => {
        const saved = (await (await waiterApi.get(`/api/orders/${order.id}`)).json()) as { order: Order };
        return saved.order.items.filter((i) => ids.includes(i.id)).map((i) => i.status);
      })
      .toEqual(ids.map(() => 'pendiente'));

    // Clearing the table: Listo, then Entregado — two taps for eight lines.
    await card(kitchenPage, 'pending', ids[0]!).getByRole('button', { name: 'Marcar Listo' }).click();
    taps += 1;
    await card(kitchenPage, 'ready', ids[0]!).getByRole('button', { name: 'Marcar Entregado' }).click();
    taps += 1;
    const delivered = card(kitchenPage, 'delivered', ids[0]!);
    await expect(delivered.getByTestId('board-line')).toHaveCount(8);
    await expect(delivered.getByRole('button')).toHaveCount(0);
    expect(taps - 1, 'taps to clear an 8-line table after the undo').toBe(2);
    // A mistaken Entregado is recalled the same way (the toast now speaks of Entregado).
    await expect(kitchenPage.getByText('Mesa 75: 8 líneas a Entregado')).toBeVisible();
    await undoOf(kitchenPage, 'Mesa 75: 8 líneas a Entregado').click();
    await expect(card(kitchenPage, 'ready', ids[0]!).getByTestId('board-line')).toHaveCount(8);
    await card(kitchenPage, 'ready', ids[0]!).getByRole('button', { name: 'Marcar Entregado' }).click();
    await expect(card(kitchenPage, 'delivered', ids[0]!)).toBeVisible();
    await expect
      .poll(async () => {
        const saved = (await (await waiterApi.get(`/api/orders/${order.id}`)).json()) as { order: Order };
        return saved.order.items.filter((i) => ids.includes(i.id)).every((i) => i.status === 'entregado');
      })
      .toBe(true);

    // Density: tables 76–78 plus 75 again get a 3-line ticket each; at 1024×768 at least four
    // tickets sit fully inside the window in Pendientes, without scrolling.
    for (const n of [75, 76, 77, 78]) {
      let o = await orderOf(waiterApi, n);
      for (const name of ['Tacos al pastor (3)', 'Hamburguesa de la casa', 'Flan napolitano']) o = await addItem(waiterApi, o.id, name);
      await expect(card(kitchenPage, 'pending', o.items.at(-1)!.id)).toBeVisible();
    }
    await kitchenPage.evaluate(() => window.scrollTo(0, 0));
    // Two tickets side by side in Pendientes, and two rows of the tallest 3-line ticket fit below
    // the first ticket's top: four 3-line tickets without scrolling, whatever else is pending.
    const fit = await kitchenPage
      .getByTestId('column-pending')
      .getByTestId('board-card')
      .evaluateAll((cards) => {
        const boxes = cards.map((c) => ({ r: c.getBoundingClientRect(), lines: c.querySelectorAll('[data-testid="board-line"]').length }));
        const first = boxes[0]!.r;
        const sideBySide = boxes.filter((b) => Math.abs(b.r.top - first.top) < 1).length;
        const tallest3 = Math.max(...boxes.filter((b) => b.lines === 3).map((b) => b.r.height));
        return { sideBySide, top: first.top, tallest3, bottomOfTwoRows: first.top + 2 * tallest3 + 8, height: window.innerHeight };
      });
    expect(fit.sideBySide).toBe(2);
    expect(fit.bottomOfTwoRows, JSON.stringify(fit)).toBeLessThanOrEqual(fit.height);
    await kitchenPage.screenshot({ path: test.info().outputPath('ux-after-board-1024.png') });
  });

  test('a line moves on its own from its 44 px target, and Deshacer sends just that line back', async ({ waiterApi, kitchenPage, api }) => {
    test.setTimeout(180_000);
    await api.tableByNumber(76);
    let order = await orderOf(waiterApi, 76);
    const before = new Set(order.items.map((i) => i.id));
    // A note of their own: the table may still hold pending lines of these products, which plain
    // adds would raise instead of making three new lines.
    for (const name of ['Tacos al pastor (3)', 'Hamburguesa de la casa', 'Flan napolitano'])
      order = await addItem(waiterApi, order.id, name, 'ronda aparte');
    const ids = order.items.filter((i) => !before.has(i.id)).map((i) => i.id);
    expect(ids).toHaveLength(3);
    const [first, middle, last] = ids as [string, string, string];
    const statuses = async () => {
      const saved = (await (await waiterApi.get(`/api/orders/${order.id}`)).json()) as { order: Order };
      return ids.map((id) => saved.order.items.find((i) => i.id === id)?.status);
    };
    const bump = (column: 'pending' | 'ready', id: string) =>
      card(kitchenPage, column, id).locator(`[data-item-id="${id}"]`).getByTestId('board-line-bump');

    await expect(card(kitchenPage, 'pending', middle)).toBeVisible();
    // The line's own target: at least 44×44 px, and named for what it does.
    const box = (await bump('pending', middle).boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.height).toBeGreaterThanOrEqual(44);
    await expect(bump('pending', middle)).toHaveAccessibleName(/Hamburguesa de la casa.*solo esta línea a Listo/);

    // One tap: only that line goes to Listos; the other two stay pending.
    await bump('pending', middle).click();
    await expect(card(kitchenPage, 'ready', middle)).toBeVisible();
    await expect(card(kitchenPage, 'pending', first).locator(`[data-item-id="${middle}"]`)).toHaveCount(0);
    await expect(card(kitchenPage, 'pending', first).locator(`[data-item-id="${last}"]`)).toBeVisible();
    await expect(kitchenPage.getByText('Mesa 76: 1 línea a Listo')).toBeVisible();
    await expect.poll(statuses).toEqual(['pendiente', 'listo', 'pendiente']);

    // Deshacer (10 s toast): the line is pending again, on the server too.
    await undoOf(kitchenPage, 'Mesa 76: 1 línea a Listo').click();
    await expect(card(kitchenPage, 'pending', first).locator(`[data-item-id="${middle}"]`)).toBeVisible();
    await expect(card(kitchenPage, 'ready', middle)).toHaveCount(0);
    await expect.poll(statuses).toEqual(['pendiente', 'pendiente', 'pendiente']);

    // In Listos a line is handed out alone too, and recalled the same way.
    await bump('pending', last).click();
    await expect(card(kitchenPage, 'ready', last)).toBeVisible();
    await bump('ready', last).click();
    await expect(card(kitchenPage, 'delivered', last)).toBeVisible();
    await expect(kitchenPage.getByText('Mesa 76: 1 línea a Entregado')).toBeVisible();
    await expect.poll(statuses).toEqual(['pendiente', 'pendiente', 'entregado']);
    await undoOf(kitchenPage, 'Mesa 76: 1 línea a Entregado').click();
    await expect(card(kitchenPage, 'ready', last)).toBeVisible();
    await expect.poll(statuses).toEqual(['pendiente', 'pendiente', 'listo']);
    await kitchenPage.screenshot({ path: `${SHOTS}/board-line-bump-tablet.png` });

    // Noticed after the toast: "Recientes" keeps the last moves (newest first), each with Regresar.
    await bump('ready', last).click();
    await expect.poll(statuses).toEqual(['pendiente', 'pendiente', 'entregado']);
    const recent = kitchenPage.getByTestId('board-recent');
    await recent.getByText(/^Recientes \(\d\)$/).click();
    await expect(recent.getByTestId('board-recent-move').first()).toContainText('Mesa 76 · 1 línea → Entregado');
    await recent.getByTestId('board-recent-move').first().getByRole('button', { name: 'Regresar' }).click();
    await expect(card(kitchenPage, 'ready', last)).toBeVisible();
    await expect.poll(statuses).toEqual(['pendiente', 'pendiente', 'listo']);
  });
});

test.describe('a board that connects late', () => {
  test('an item added between the board’s first data and its live subscription still reaches it', async ({ browser, waiterApi, api }) => {
    // A slow tablet: the board draws its first data, but its live socket is held back by the network.
    const { context, page } = await signedInContext(browser, 'kitchen', BOARD, false);
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.routeWebSocket(/\/api\/live$/, async (socket) => {
      await held;
      socket.connectToServer();
    });
    await page.goto('/kitchen/cocina');
    await expect(page.getByRole('heading', { name: 'Pendientes' })).toBeVisible();

    // The waiter adds a dish while the board is not yet listening: its event reaches no one.
    await api.tableByNumber(360);
    const order = await orderOf(waiterApi, 360);
    const food = (await addItem(waiterApi, order.id, 'Tacos al pastor (3)', 'llega tarde')).items.at(-1)!;
    await expect(page.locator(`[data-item-id="${food.id}"]`)).toHaveCount(0);

    // Once the socket is up and its topics confirmed, the board reads again and shows the dish.
    release();
    await expect(card(page, 'pending', food.id)).toBeVisible({ timeout: 15_000 });
    await context.close();
  });
});

test.describe('two tablets on one station', () => {
  test('a line added, moved on the other tablet and deleted reaches this one from the live events alone, with no board read', async ({
    browser,
    kitchenPage,
    waiterApi,
    api,
  }) => {
    const { context, page } = await signedInContext(browser, 'kitchen', BOARD, false);
    // The board reads its first data, and once its socket's subscribe is confirmed it reads again
    // (decision 0033); after that, events patch it. On a busy machine that second read may start
    // long after the page's network went idle: wait for both answers before counting.
    let confirmed = false;
    let answered = 0;
    const isBoardRead = (url: string) => new URL(url).pathname === '/api/board';
    page.on('websocket', (ws) => ws.on('framereceived', (f) => void (String(f.payload).includes('"subscribed"') && (confirmed = true))));
    page.on('response', (r) => void (isBoardRead(r.url()) && (answered += 1)));
    await page.goto('/kitchen/cocina');
    await expect(page.getByRole('heading', { name: 'Pendientes' })).toBeVisible();
    await expect.poll(() => confirmed && answered >= 2, { timeout: 15_000 }).toBe(true);
    await page.waitForLoadState('networkidle');
    const reads: string[] = [];
    page.on('request', (r) => void (isBoardRead(r.url()) && reads.push(r.url())));

    await api.tableByNumber(361);
    const order = await orderOf(waiterApi, 361);
    const food = (await addItem(waiterApi, order.id, 'Tacos al pastor (3)', 'dos tabletas')).items.at(-1)!;
    const pending = card(page, 'pending', food.id);
    await expect(pending).toBeVisible({ timeout: 5_000 });
    await expect(pending).toContainText('Mesa 361');
    await expect(pending).toContainText('dos tabletas');

    await card(kitchenPage, 'pending', food.id).getByRole('button', { name: 'Marcar Listo' }).click();
    await expect(card(page, 'ready', food.id)).toBeVisible({ timeout: 5_000 });

    const deleted = await waiterApi.post(`/api/orders/${order.id}/items/${food.id}/delete`, { data: { pin: ACCOUNTS.admin.pin } });
    expect(deleted.status(), await deleted.text()).toBe(200);
    await expect(page.locator(`[data-item-id="${food.id}"]`)).toHaveCount(0, { timeout: 5_000 });
    expect(reads).toEqual([]);
    await context.close();
  });
});
