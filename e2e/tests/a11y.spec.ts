import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import {
  test,
  expect,
  login,
  expectNoSeriousViolations,
  pickerList,
  stubPrint,
  ADMIN,
  BOARD,
  MOBILE,
  withShiftHoldingNow,
} from './fixtures.ts';

// Tables 70–74 and 151–157 belong to this file: the tests add them themselves.
const SHOTS = '/tmp/team/shots';

interface OrderDto {
  id: string;
  subtotal: number;
  items: { id: string }[];
}

async function ensureTable(request: APIRequestContext, n: number): Promise<string> {
  const res = await request.post('/api/tables', { data: { number: n } });
  expect([200, 409], await res.text()).toContain(res.status());
  const { tables } = (await (await request.get('/api/tables')).json()) as { tables: { id: string; number: number }[] };
  return tables.find((t) => t.number === n)!.id;
}

/**
 * Table n (added by the admin) opened by `waiter` with the given products, reusing an order a retry
 * left open; `deliver` has the admin mark every item delivered so it can be charged.
 */
async function tableWithItems(
  admin: APIRequestContext,
  waiter: APIRequestContext,
  n: number,
  lines: [string, number][],
  deliver = false,
  notes = 'sin cebolla',
): Promise<{ tableId: string; order: OrderDto }> {
  const tableId = await ensureTable(admin, n);
  let res = await waiter.post(`/api/tables/${tableId}/open`);
  if (!res.ok()) res = await waiter.get(`/api/tables/${tableId}/order`);
  expect(res.ok(), await res.text()).toBeTruthy();
  let { order } = (await res.json()) as { order: OrderDto };
  const { products } = (await (await waiter.get('/api/products?available=1')).json()) as { products: { id: string; name: string }[] };
  for (const [name, quantity] of lines) {
    const product = products.find((p) => p.name === name)!;
    const added = await waiter.post(`/api/orders/${order.id}/items`, {
      data: { productId: product.id, quantity, ...(notes ? { notes } : {}) },
    });
    expect(added.ok(), await added.text()).toBeTruthy();
    order = ((await added.json()) as { order: OrderDto }).order;
  }
  if (deliver)
    for (const item of order.items)
      expect((await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { data: { status: 'entregado' } })).ok()).toBeTruthy();
  return { tableId, order };
}

/** Voids one unit of the order's line `index` (a pending line: a reason is enough), so the screens show a voided line. */
async function voidOne(waiter: APIRequestContext, order: OrderDto, index: number): Promise<void> {
  const res = await waiter.post(`/api/orders/${order.id}/items/${order.items[index]!.id}/void`, {
    data: { quantity: 1, reason: 'Producto en mal estado', pin: '1234' },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/**
 * Every visible, enabled interactive element is at least 44×44 CSS px, and no two are closer than 8 px
 * (their boxes, grown by 4 px each side, do not overlap) — the WCAG 2.5.5 size and a finger's spacing.
 */
async function tapTargetProblems(page: Page): Promise<string[]> {
  // At the top, floating buttons (the user menu) may sit over content that scrolls on; at the
  // bottom of the page the space reserved for them must keep the last cards clear of them.
  const atTop = await page.evaluate(measure, false);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(200);
  const atBottom = await page.evaluate(measure, true);
  await page.evaluate(() => window.scrollTo(0, 0));
  return [...new Set([...atTop, ...atBottom])];
}

function measure(withFloating: boolean): string[] {
  {
    const selector =
      'button:not([disabled]), a[href], input:not([type=hidden]):not([disabled]), select, textarea, [role=tab], [role=switch], summary';
    const floating = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) if (['fixed', 'sticky'].includes(getComputedStyle(e).position)) return true;
      return false;
    };
    const els = Array.from(document.querySelectorAll<HTMLElement>(selector)).filter((el) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      // A checkbox or radio inside a label uses the label as its target.
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio') && el.closest('label')) return false;
      const inView = r.bottom > 0 && r.top < window.innerHeight;
      // Scrolled under a sticky header or a fixed bar: hidden, not a target right now.
      const top = document.elementFromPoint(r.left + r.width / 2, (Math.max(r.top, 0) + Math.min(r.bottom, window.innerHeight)) / 2);
      if (top && !el.contains(top) && !top.contains(el) && floating(top)) return false;
      return inView && r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && !el.closest('[aria-hidden=true],.sr-only');
    });

    const name = (el: HTMLElement) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`;
    const problems: string[] = [];
    const boxes = els.map((el) => {
      const label = el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio') ? el.closest('label') : null;
      return { el, r: (label ?? el).getBoundingClientRect() };
    });
    for (const { el, r } of boxes) {
      if (r.width < 43.5 || r.height < 43.5) problems.push(`${name(el)} is ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        if (floating(a.el) !== floating(b.el)) {
          if (!withFloating) continue;
          // Content scrolls past a sticky header at the top: their distance depends on the scroll position, not on the layout.
          const fixedOne = floating(a.el) ? a : b;
          if (fixedOne.r.bottom < window.innerHeight / 2) continue;
        }
        const gapX = Math.max(b.r.left - a.r.right, a.r.left - b.r.right);
        const gapY = Math.max(b.r.top - a.r.bottom, a.r.top - b.r.bottom);
        if (Math.max(gapX, gapY) < 7.5) problems.push(`${name(a.el)} and ${name(b.el)} are ${Math.round(Math.max(gapX, gapY))} px apart`);
      }
    return problems;
  }
}

async function newPage(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
  return { context, page: await context.newPage() };
}

test.describe('accessibility', () => {
  test('no serious or critical axe violations on the admin screens at 1440×900, dialogs and a voided line included', async ({
    browser,
  }) => {
    test.setTimeout(480_000);
    // Data: a table with undelivered food and drinks and one voided line (boards, panel), a delivered one, a paid ticket.
    const admin = await newPage(browser, ADMIN);
    await login(admin.page, 'admin');
    const waiter = await newPage(browser, MOBILE);
    await login(waiter.page, 'waiter');
    const request = admin.page.request;
    const open = await tableWithItems(request, waiter.page.request, 70, [
      ['Tacos al pastor (3)', 2],
      ['Hamburguesa de la casa', 1],
      ['Michelada', 2],
    ]);
    await voidOne(waiter.page.request, open.order, 2);
    await tableWithItems(request, waiter.page.request, 71, [['Michelada', 1]], true);
    const paid = await tableWithItems(request, waiter.page.request, 72, [['Michelada', 2]], true);
    const closed = await request.post(`/api/orders/${paid.order.id}/close`, {
      headers: { 'Idempotency-Key': `e2e-a11y-${paid.order.id}` },
      data: { method: 'efectivo', pin: '1234', tipBps: 1000, peopleCount: 1, receivedAmount: paid.order.subtotal * 2 },
    });
    expect(closed.ok(), await closed.text()).toBeTruthy();
    // One item ready, so the Listos column has a card too.
    const ready = open.order.items[0]!;
    expect((await request.patch(`/api/orders/${open.order.id}/items/${ready.id}/status`, { data: { status: 'listo' } })).ok()).toBeTruthy();
    await waiter.context.close();

    const p = admin.page;
    await stubPrint(p);
    await p.goto('/admin/home');
    await expect(p.getByTestId('table-card-70')).toBeVisible();
    await expectNoSeriousViolations(p, 'admin tables');
    await p.goto(`/admin/order/${open.tableId}`);
    await expect(p.getByText('Tacos al pastor (3)').first()).toBeVisible();
    await expect(p.locator('[data-testid="order-item"][data-deleted="true"]').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'admin order with a voided line');
    await p
      .locator('[data-testid="order-item"][data-deleted="true"]')
      .first()
      .screenshot({ path: `${SHOTS}/a11y-voided-line-admin.png` });
    await p.goto('/admin/kanban');
    await expect(p.getByText('Mesa 70').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'admin board');
    await p.goto('/admin/panel');
    await expect(p.getByText('Mesa 70').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'panel');
    await p.goto('/admin/tickets');
    await expect(p.getByTestId('ticket-card').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'tickets');
    await p.getByTestId('ticket-card').first().getByRole('button', { name: /^Ver/ }).click();
    await expect(p.getByRole('dialog').getByText('Michelada').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'ticket reprint dialog');
    await p.screenshot({ path: `${SHOTS}/a11y-ticket-reprint-1440.png` });
    await p.keyboard.press('Escape');
    await p.goto('/admin/manage-products');
    await expect(p.getByText('Michelada').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'products');
    await p.getByRole('button', { name: 'Nuevo producto' }).click();
    await expect(p.getByRole('dialog')).toBeVisible();
    await expectNoSeriousViolations(p, 'product form');
    await p.keyboard.press('Escape');
    await p.goto('/admin/promociones');
    await expect(p.getByRole('heading', { name: 'Promociones' })).toBeVisible();
    await p.waitForLoadState('networkidle');
    await expectNoSeriousViolations(p, 'promotions');
    await p.goto('/admin/inventario');
    await expect(p.getByRole('heading', { name: 'Inventario' })).toBeVisible();
    for (const tab of ['Insumos', 'Compras', 'Conteo', 'Diferencias']) {
      await p.getByRole('tab', { name: tab }).click();
      await p.waitForLoadState('networkidle');
      await expectNoSeriousViolations(p, `inventory: ${tab}`);
    }
    await p.goto('/admin/reportes');
    await expect(p.getByRole('heading', { name: 'Reportes' })).toBeVisible();
    await p.waitForLoadState('networkidle');
    await expectNoSeriousViolations(p, 'reports');
    // The cash close WITH sales in it: the shift that holds the ticket paid above (table 72).
    await withShiftHoldingNow(request, async (businessDate) => {
      await p.goto('/admin/cierre');
      await expect(p.getByRole('heading', { name: /Cierre de Caja/ })).toBeVisible();
      await p.getByLabel('Fecha del turno').fill(businessDate);
      await expect(p.getByTestId('summary-cards')).toBeVisible();
      await expect(p.getByTestId('method-efectivo')).toBeVisible();
      await p.waitForLoadState('networkidle');
      await expectNoSeriousViolations(p, 'cash close');
    });

    // The caja: closed, then open with its Corte X on screen, and the tips tab.
    await p.goto('/admin/caja');
    await expect(p.getByRole('heading', { name: 'Caja', exact: true })).toBeVisible();
    await p.waitForLoadState('networkidle');
    let { session } = (await (await request.get('/api/drawer')).json()) as { session: { id: string } | null };
    if (!session) {
      await expectNoSeriousViolations(p, 'caja closed');
      const opened = await request.post('/api/drawer/open', { data: { count: { b50000: 1 } } });
      expect(opened.ok(), await opened.text()).toBeTruthy();
      session = ((await (await request.get('/api/drawer')).json()) as { session: { id: string } }).session;
      await p.reload();
    }
    try {
      // A movement, so the session lists one (with who authorised it) and the corte shows it.
      const moved = await request.post('/api/drawer/movements', {
        headers: { 'Idempotency-Key': `e2e-a11y-deposit-${session.id}` },
        data: { kind: 'deposito', amount: 10000, reason: 'Cambio del banco', pin: '1234' },
      });
      expect(moved.ok(), await moved.text()).toBeTruthy();
      await p.reload();
      await expect(p.getByTestId('movement-list')).toContainText('Cambio del banco');
      await expectNoSeriousViolations(p, 'caja open');
      await p.getByRole('button', { name: 'Corte X' }).click();
      await expect(p.getByRole('dialog').getByTestId('corte-x')).toBeVisible();
      await expectNoSeriousViolations(p, 'Corte X dialog');
      await p.screenshot({ path: `${SHOTS}/a11y-corte-x-1440.png` });
      await p.keyboard.press('Escape');
      await p.getByRole('tab', { name: 'Propinas' }).click();
      await p.waitForLoadState('networkidle');
      await expectNoSeriousViolations(p, 'caja tips');
    } finally {
      // Other specs find the drawer closed.
      await request.post(`/api/drawer/sessions/${session.id}/corte-z`, {
        data: { count: { b50000: 1, b10000: 1 }, comment: '', cashierPin: '1111', adminPin: '1234' },
      });
    }

    await p.goto('/admin/settings');
    // Every tab the screen offers, the printers' emulator lists included.
    const tablist = p.getByRole('tablist', { name: 'Configuración' });
    await expect(tablist.getByRole('tab', { name: 'Impresoras' })).toBeVisible();
    const tabs = await tablist.getByRole('tab').allTextContents();
    expect(tabs).toEqual(expect.arrayContaining(['Información del Negocio', 'Impresoras', 'Respaldos']));
    for (const tab of tabs) {
      const tabButton = p.getByRole('tab', { name: tab, exact: true });
      await tabButton.click();
      await expect(tabButton).toHaveAttribute('aria-selected', 'true');
      await p.waitForLoadState('networkidle');
      if (tab === 'Impresoras') {
        // Test pages enough to make the caja emulator's list scroll.
        for (let i = 0; i < 4; i++) await p.getByTestId('printer-caja').getByRole('button', { name: 'Imprimir prueba' }).click();
        await expect
          .poll(() => p.getByTestId('emulator-caja').getByTestId('emulator-ticket').count(), { timeout: 20_000 })
          .toBeGreaterThanOrEqual(4);
        // Its paper scrolls, so it is a named region a keyboard can reach.
        await expect(p.getByTestId('emulator-caja').getByRole('region', { name: /^Papel de / })).toHaveAttribute('tabindex', '0');
      }
      await expectNoSeriousViolations(p, `settings: ${tab}`);
      if (tab === 'Impresoras') {
        const paper = p.getByTestId('emulator-caja').getByRole('region', { name: /^Papel de / });
        await paper.focus();
        await p.keyboard.press('PageDown');
        await expect.poll(() => paper.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
        await p.getByTestId('emulator-caja').screenshot({ path: `${SHOTS}/a11y-printer-emulator-1440.png` });
      }
    }
    await admin.context.close();
  });

  test('no serious or critical axe violations on the boards at 1024×768, a cancelled line included', async ({ browser }) => {
    test.setTimeout(240_000);
    const admin = await newPage(browser, ADMIN);
    await login(admin.page, 'admin');
    const waiter = await newPage(browser, MOBILE);
    await login(waiter.page, 'waiter');
    const open = await tableWithItems(admin.page.request, waiter.page.request, 153, [
      ['Tacos al pastor (3)', 2],
      ['Michelada', 2],
    ]);
    await voidOne(waiter.page.request, open.order, 0);
    await voidOne(waiter.page.request, open.order, 1);
    await waiter.context.close();
    await admin.context.close();
    for (const [who, path] of [
      ['kitchen', '/kitchen/cocina'],
      ['barra', '/kitchen/barra'],
    ] as const) {
      const board = await newPage(browser, BOARD);
      await login(board.page, who);
      await expect(board.page).toHaveURL(new RegExp(`${path}$`));
      await expect(board.page.getByText('Mesa 153').first()).toBeVisible();
      await expectNoSeriousViolations(board.page, `board ${path}`);
      await board.context.close();
    }
  });

  test('no serious or critical axe violations on the waiter phone at 390×844: order with a voided line, picker, checkout, PIN', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const admin = await newPage(browser, ADMIN);
    await login(admin.page, 'admin');
    const waiter = await newPage(browser, MOBILE);
    const open = await (async () => {
      await login(waiter.page, 'waiter');
      return tableWithItems(admin.page.request, waiter.page.request, 154, [
        ['Tacos al pastor (3)', 2],
        ['Michelada', 2],
      ]);
    })();
    await voidOne(waiter.page.request, open.order, 1);
    const delivered = await tableWithItems(admin.page.request, waiter.page.request, 155, [['Michelada', 1]], true);
    await admin.context.close();

    const guest = await newPage(browser, MOBILE);
    await guest.page.goto('/login');
    await expect(guest.page.getByLabel('Correo electrónico')).toBeVisible();
    await expectNoSeriousViolations(guest.page, 'login');
    await guest.context.close();

    const w = waiter.page;
    await w.goto('/waiter/home');
    await expect(w.getByTestId('table-card-154')).toBeVisible();
    await expectNoSeriousViolations(w, 'waiter home');
    await w.goto(`/waiter/order/${open.tableId}`);
    await expect(w.getByText('Tacos al pastor (3)').first()).toBeVisible();
    const voided = w.locator('[data-testid="order-item"][data-deleted="true"]').first();
    await expect(voided).toBeVisible();
    await expectNoSeriousViolations(w, 'waiter order with a voided line');
    await voided.screenshot({ path: `${SHOTS}/a11y-voided-line-390.png` });
    await w.getByRole('button', { name: 'Cancelar unidades: Tacos al pastor (3)' }).click();
    await expect(w.getByRole('dialog', { name: 'Cancelar unidades' })).toBeVisible();
    await expectNoSeriousViolations(w, 'void dialog');
    await w.keyboard.press('Escape');
    await w.getByRole('button', { name: 'Agregar', exact: true }).click();
    await expect(pickerList(w)).toBeVisible();
    await expectNoSeriousViolations(w, 'picker');
    await w.keyboard.press('Escape');

    await w.goto(`/waiter/checkout/${delivered.order.id}`);
    await expect(w.getByRole('button', { name: 'Finalizar' })).toBeVisible();
    await expectNoSeriousViolations(w, 'checkout');
    await w.getByRole('button', { name: 'Efectivo' }).click();
    await w.getByRole('button', { name: 'Exacto' }).click();
    await w.getByRole('button', { name: 'Finalizar' }).click();
    await expect(w.getByRole('dialog', { name: 'PIN de quien cobra' })).toBeVisible();
    await expectNoSeriousViolations(w, 'cashier PIN');
    await waiter.context.close();
  });

  test('tap targets are at least 44×44 px and 8 px apart on the waiter, board and checkout screens', async ({ browser }) => {
    test.setTimeout(180_000);
    const admin = await newPage(browser, ADMIN);
    await login(admin.page, 'admin');
    const waiter = await newPage(browser, MOBILE);
    await login(waiter.page, 'waiter');
    const open = await tableWithItems(admin.page.request, waiter.page.request, 73, [
      ['Tacos al pastor (3)', 1],
      ['Michelada', 1],
    ]);
    const delivered = await tableWithItems(admin.page.request, waiter.page.request, 74, [['Michelada', 1]], true);
    await admin.context.close();
    // Each screen is measured once it has its data (the checkout's form only lays out after the order loads).
    const screens: [string, string, (page: Page) => Locator][] = [
      ['waiter home', '/waiter/home', (page) => page.getByTestId('table-card-73')],
      ['waiter order', `/waiter/order/${open.tableId}`, (page) => page.getByText('Tacos al pastor (3)').first()],
      ['checkout', `/waiter/checkout/${delivered.order.id}`, (page) => page.getByRole('button', { name: 'Finalizar' })],
    ];
    const problems: string[] = [];
    for (const [screen, path, ready] of screens) {
      await waiter.page.goto(path);
      await expect(ready(waiter.page)).toBeVisible();
      await waiter.page.waitForLoadState('networkidle');
      problems.push(...(await tapTargetProblems(waiter.page)).map((p) => `${screen}: ${p}`));
    }
    // The dialogs a waiter opens from the order screen, their close buttons included.
    const w = waiter.page;
    await w.goto(`/waiter/order/${open.tableId}`);
    await w.getByRole('button', { name: 'Agregar', exact: true }).click();
    await expect(pickerList(w)).toBeVisible();
    await w.waitForLoadState('networkidle');
    problems.push(...(await tapTargetProblems(w)).map((p) => `picker: ${p}`));
    await w.keyboard.press('Escape');
    await w.getByRole('button', { name: 'Cancelar unidades: Michelada' }).click();
    await expect(w.getByRole('dialog', { name: 'Cancelar unidades' })).toBeVisible();
    problems.push(...(await tapTargetProblems(w)).map((p) => `void dialog: ${p}`));
    await w.screenshot({ path: `${SHOTS}/a11y-void-dialog-390.png` });
    await w.keyboard.press('Escape');
    await waiter.context.close();
    const guest = await newPage(browser, MOBILE);
    await guest.page.goto('/login');
    await expect(guest.page.getByLabel('Correo electrónico')).toBeVisible();
    problems.push(...(await tapTargetProblems(guest.page)).map((p) => `login: ${p}`));
    await guest.context.close();

    const board = await newPage(browser, BOARD);
    await login(board.page, 'kitchen');
    await expect(board.page.getByText('Mesa 73').first()).toBeVisible();
    problems.push(...(await tapTargetProblems(board.page)).map((p) => `board: ${p}`));
    await board.context.close();
    expect(problems, problems.join('\n')).toEqual([]);
  });

  test('a 390×844 phone shows at least five item lines of an order above the bottom bar, and the total', async ({ browser }) => {
    const admin = await newPage(browser, ADMIN);
    await login(admin.page, 'admin');
    const waiter = await newPage(browser, MOBILE);
    await login(waiter.page, 'waiter');
    const names = [
      'Tacos al pastor (3)',
      'Hamburguesa de la casa',
      'Guacamole con totopos',
      'Flan napolitano',
      'Michelada',
      'Shot de mezcal',
    ];
    const { tableId } = await tableWithItems(
      admin.page.request,
      waiter.page.request,
      151,
      names.map((n) => [n, 1] as [string, number]),
      false,
      // Typical lines, without a note (a note adds a row: with one on every line, four fit).
      '',
    );
    await admin.context.close();
    const page = waiter.page;
    await page.goto(`/waiter/order/${tableId}`);
    await expect(page.getByTestId('order-item').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => window.scrollTo(0, 0));
    const seen = await page.evaluate(() => {
      // The fixed bar at the bottom (Agregar / Cobrar): the lowest fixed element that spans the width.
      const fixed = Array.from(document.querySelectorAll<HTMLElement>('body *')).filter((el) => {
        const st = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        return st.position === 'fixed' && r.width >= window.innerWidth - 1 && r.bottom >= window.innerHeight - 1 && r.height > 40;
      });
      const barTop = Math.min(window.innerHeight, ...fixed.map((el) => el.getBoundingClientRect().top));
      const lines = Array.from(document.querySelectorAll('[data-testid="order-item"]')).map((el) => el.getBoundingClientRect());
      const total = document.querySelector('[data-testid="order-total"]')!.getBoundingClientRect();
      return {
        barTop,
        fullyVisible: lines.filter((r) => r.top >= 0 && r.bottom <= barTop).length,
        totalVisible: total.top >= 0 && total.bottom <= barTop,
      };
    });
    await page.screenshot({ path: test.info().outputPath('ux-waiter-order-390.png') });
    expect(seen.barTop).toBeLessThan(844);
    expect(seen.fullyVisible, JSON.stringify(seen)).toBeGreaterThanOrEqual(5);
    expect(seen.totalVisible).toBe(true);
    await waiter.context.close();
  });
});
