import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { test, expect, login, expectNoSeriousViolations, ADMIN, BOARD, MOBILE, withShiftHoldingNow } from './fixtures.ts';

// Tables 70–74 and 151–152 belong to this file: the tests add them themselves.

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
  test('no serious or critical axe violations on any screen, with real data, at its viewport', async ({ browser }) => {
    test.setTimeout(480_000);
    // Data: a table with undelivered food and drinks (boards, panel), a delivered one (checkout), a paid ticket.
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
    const delivered = await tableWithItems(request, waiter.page.request, 71, [['Michelada', 1]], true);
    const paid = await tableWithItems(request, waiter.page.request, 72, [['Michelada', 2]], true);
    const closed = await request.post(`/api/orders/${paid.order.id}/close`, {
      headers: { 'Idempotency-Key': `e2e-a11y-${paid.order.id}` },
      data: { method: 'efectivo', pin: '1234', tipBps: 1000, peopleCount: 1, receivedAmount: paid.order.subtotal * 2 },
    });
    expect(closed.ok(), await closed.text()).toBeTruthy();
    // One item ready, so the Listos column has a card too.
    const ready = open.order.items[0]!;
    expect((await request.patch(`/api/orders/${open.order.id}/items/${ready.id}/status`, { data: { status: 'listo' } })).ok()).toBeTruthy();

    // Admin screens at 1440×900.
    const p = admin.page;
    await p.goto('/admin/home');
    await expect(p.getByTestId('table-card-70')).toBeVisible();
    await expectNoSeriousViolations(p, 'admin tables');
    await p.goto(`/admin/order/${open.tableId}`);
    await expect(p.getByText('Tacos al pastor (3)').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'admin order');
    await p.goto('/admin/panel');
    await expect(p.getByText('Mesa 70').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'panel');
    await p.goto('/admin/tickets');
    await expect(p.getByTestId('ticket-card').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'tickets');
    await p.getByTestId('ticket-card').first().getByRole('button', { name: /^Ver/ }).click();
    await expect(p.getByRole('dialog')).toBeVisible();
    await expectNoSeriousViolations(p, 'ticket modal');
    await p.keyboard.press('Escape');
    await p.goto('/admin/manage-products');
    await expect(p.getByText('Michelada').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'products');
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
    await p.goto('/admin/settings');
    for (const tab of ['Información del Negocio', 'Gestión de Usuarios', 'Mesas', 'Configurar Terminal']) {
      await p.getByRole('tab', { name: tab }).click();
      await expect(p.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      await p.waitForLoadState('networkidle');
      await expectNoSeriousViolations(p, `settings: ${tab}`);
    }
    await admin.context.close();

    // The boards at 1024×768.
    for (const [who, path] of [
      ['kitchen', '/kitchen/cocina'],
      ['barra', '/kitchen/barra'],
    ] as const) {
      const board = await newPage(browser, BOARD);
      await login(board.page, who);
      await expect(board.page).toHaveURL(new RegExp(`${path}$`));
      await expect(board.page.getByText('Mesa 70').first()).toBeVisible();
      await expectNoSeriousViolations(board.page, `board ${path}`);
      await board.context.close();
    }

    // The waiter's phone at 390×844: login, home, an order, the checkout.
    const guest = await newPage(browser, MOBILE);
    await guest.page.goto('/login');
    await expect(guest.page.getByLabel('Correo electrónico')).toBeVisible();
    await expectNoSeriousViolations(guest.page, 'login');
    await guest.context.close();
    await waiter.page.goto('/waiter/home');
    await expect(waiter.page.getByTestId('table-card-70')).toBeVisible();
    await expectNoSeriousViolations(waiter.page, 'waiter home');
    await waiter.page.goto(`/waiter/order/${open.tableId}`);
    await expect(waiter.page.getByText('Tacos al pastor (3)').first()).toBeVisible();
    await expectNoSeriousViolations(waiter.page, 'waiter order');
    await waiter.page.goto(`/waiter/checkout/${delivered.order.id}`);
    await expect(waiter.page.getByRole('button', { name: 'Finalizar' })).toBeVisible();
    await expectNoSeriousViolations(waiter.page, 'checkout');
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
    await waiter.context.close();

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
