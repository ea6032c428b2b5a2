import type { Locator, Page } from '@playwright/test';
import { test, expect, expectNoSeriousViolations, pickerList, signedInContext, signedInRequest, BOARD, MOBILE } from './fixtures.ts';
import { SHOTS, newPage, tableWithItems, tapTargetProblems, voidOne } from './a11y-helpers.ts';

// Tables 73, 74, 151, 153, 154 and 155 belong to this file: it adds them itself. The login screen
// is scanned and measured here; everyone else signs in through the API (auth.spec tests the form).
test.describe('accessibility', () => {
  test('no serious or critical axe violations on the boards at 1024×768, a cancelled line included', async ({ browser }) => {
    test.setTimeout(240_000);
    const admin = await signedInRequest('admin');
    const waiter = await signedInRequest('waiter');
    const open = await tableWithItems(admin, waiter, 153, [
      ['Tacos al pastor (3)', 2],
      ['Michelada', 2],
    ]);
    await voidOne(waiter, open.order, 0);
    await voidOne(waiter, open.order, 1);
    await waiter.dispose();
    await admin.dispose();
    for (const [who, path] of [
      ['kitchen', '/kitchen/cocina'],
      ['barra', '/kitchen/barra'],
    ] as const) {
      // Signed in, each lands on its own board.
      const board = await signedInContext(browser, who, BOARD);
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
    const admin = await signedInRequest('admin');
    const waiter = await signedInContext(browser, 'waiter', MOBILE, false);
    const open = await tableWithItems(admin, waiter.page.request, 154, [
      ['Tacos al pastor (3)', 2],
      ['Michelada', 2],
    ]);
    await voidOne(waiter.page.request, open.order, 1);
    const delivered = await tableWithItems(admin, waiter.page.request, 155, [['Michelada', 1]], true);
    await admin.dispose();

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
    const admin = await signedInRequest('admin');
    const waiter = await signedInContext(browser, 'waiter', MOBILE, false);
    const open = await tableWithItems(admin, waiter.page.request, 73, [
      ['Tacos al pastor (3)', 1],
      ['Michelada', 1],
    ]);
    const delivered = await tableWithItems(admin, waiter.page.request, 74, [['Michelada', 1]], true);
    await admin.dispose();
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

    const board = await signedInContext(browser, 'kitchen', BOARD);
    await expect(board.page.getByText('Mesa 73').first()).toBeVisible();
    problems.push(...(await tapTargetProblems(board.page)).map((p) => `board: ${p}`));
    await board.context.close();
    expect(problems, problems.join('\n')).toEqual([]);
  });

  test('a 390×844 phone shows at least five item lines of an order above the bottom bar, and the total', async ({ browser }) => {
    const admin = await signedInRequest('admin');
    const waiter = await signedInContext(browser, 'waiter', MOBILE, false);
    const names = [
      'Tacos al pastor (3)',
      'Hamburguesa de la casa',
      'Guacamole con totopos',
      'Flan napolitano',
      'Michelada',
      'Shot de mezcal',
    ];
    const { tableId } = await tableWithItems(
      admin,
      waiter.page.request,
      151,
      names.map((n) => [n, 1] as [string, number]),
      false,
      // Typical lines, without a note (a note adds a row: with one on every line, four fit).
      '',
    );
    await admin.dispose();
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
