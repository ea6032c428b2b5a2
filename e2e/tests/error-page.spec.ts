import { test, expect, signedInContext, ADMIN } from './fixtures.ts';

/**
 * A screen that throws shows our page, never the router's default one. The crashes are forced
 * from outside the app (no test-only code ships): a browser API that throws while the screen
 * renders, and a screen chunk that fails to load (what an update does to an open tab).
 */
test.describe('our error page', () => {
  test('a waiter’s screen that crashes shows "Algo salió mal", reports it, and Reintentar brings it back', async ({
    waiterPage: page,
    api,
  }, testInfo) => {
    // Answers are checked against the contract (decision 0030), so a bad answer now reads as a load
    // error, not a crash. The crash comes from the browser instead: an own table's card shows its
    // total in pesos, and formatting money is made to throw, as a broken browser API would.
    await api.openTable(page.request, testInfo.retry ? 351 : 350, [['Cerveza clara', 1]]);
    const report = page.waitForRequest((r) => r.url().endsWith('/api/client-errors') && r.method() === 'POST');
    await page.goto('/waiter/checkout');
    await page.evaluate(() => {
      const proto = Intl.NumberFormat.prototype;
      const original = Object.getOwnPropertyDescriptor(proto, 'format')!;
      (window as unknown as { restoreFormat: () => void }).restoreFormat = () => Object.defineProperty(proto, 'format', original);
      Object.defineProperty(proto, 'format', {
        configurable: true,
        get() {
          throw new TypeError('Intl.NumberFormat no disponible');
        },
      });
    });
    await page.getByRole('link', { name: 'Mesas' }).first().click();
    const alert = page.getByRole('alert').filter({ hasText: 'Algo salió mal' });
    await expect(alert.getByRole('heading', { name: 'Algo salió mal' })).toBeVisible();
    await expect(alert).toContainText('Esta pantalla tuvo un error inesperado');
    await expect(alert.getByRole('button', { name: 'Reintentar' })).toBeVisible();
    await expect(alert.getByRole('button', { name: 'Volver al inicio' })).toBeVisible();
    await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
    // The layout stays: the header with the way back to the tables.
    await expect(page.getByRole('link', { name: 'Mesas' })).toBeVisible();

    // The crash reached the server's log: message, stack, the path (no query) and the browser.
    const sent = await report;
    const body = sent.postDataJSON() as { message: string; stack?: string; url: string; userAgent: string };
    expect(body.message).toMatch(/^TypeError: /);
    expect(body.stack).toBeTruthy();
    expect(body.url).toBe('/waiter/home');
    expect(body.userAgent).toContain('Chrome');
    expect((await sent.response())?.status()).toBe(204);

    await page.screenshot({ path: testInfo.outputPath('error-page-390x844.png'), fullPage: true });

    // Whatever broke is gone: Reintentar reloads the screen.
    await page.evaluate(() => (window as unknown as { restoreFormat: () => void }).restoreFormat());
    await alert.getByRole('button', { name: 'Reintentar' }).click();
    await expect(page.getByRole('heading', { name: 'Mesas', exact: true })).toBeVisible();
    await expect(page.getByText('Algo salió mal')).toHaveCount(0);
  });

  test('a screen whose code fails to load shows our page, and Volver al inicio goes to the role’s home', async ({ browser }) => {
    const { context, page } = await signedInContext(browser, 'admin', ADMIN);
    await expect(page).toHaveURL(/\/admin\/home$/);
    // The settings screen's chunk is gone (a new version was deployed while the tab was open).
    await page.route(/\/assets\/settings-page-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: 'no existe' }));
    await page.goto('/admin/settings');
    await expect(page.getByRole('heading', { name: 'Algo salió mal' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reintentar' })).toBeVisible();
    await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);

    await page.unroute(/\/assets\/settings-page-[^/]*\.js$/);
    await page.getByRole('button', { name: 'Volver al inicio' }).click();
    await expect(page).toHaveURL(/\/admin\/home$/);
    await expect(page.getByRole('heading', { name: 'Panel de Mesas' })).toBeVisible();
    await expect(page.getByText('Algo salió mal')).toHaveCount(0);
    await context.close();
  });
});
