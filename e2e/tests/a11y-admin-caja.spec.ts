import { test, expect, expectNoSeriousViolations, stubPrint } from './fixtures.ts';
import { SHOTS, adminAfterPaidTicket } from './a11y-helpers.ts';

// Table 157 belongs to this file: it adds it itself.
test.describe('accessibility', () => {
  test('no serious or critical axe violations on the caja and the settings at 1440×900: closed and open drawer, Corte X, tips, every settings tab with the printer emulator', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    // The admin starts at home and goes to the caja through the menu, as at the counter.
    const admin = await adminAfterPaidTicket(browser, 157);
    const p = admin.page;
    const request = p.request;
    await stubPrint(p);
    // The caja: closed, then open with its Corte X on screen, and the tips tab.
    const heading = p.getByRole('heading', { name: 'Caja', exact: true });
    // A reload boots the whole app again (every chunk, the live connection, the drawer): on a busy
    // machine that alone can take more than the usual 10 s.
    const reload = async () => {
      await p.reload();
      await expect(heading).toBeVisible({ timeout: 30_000 });
      await expect(p.getByText('Cargando...')).toHaveCount(0, { timeout: 30_000 });
    };
    await p.getByRole('link', { name: 'Caja', exact: true }).click();
    await expect(heading).toBeVisible({ timeout: 30_000 });
    await p.waitForLoadState('networkidle');
    let { session } = (await (await request.get('/api/drawer')).json()) as { session: { id: string } | null };
    if (!session) {
      await expectNoSeriousViolations(p, 'caja closed');
      const opened = await request.post('/api/drawer/open', { data: { count: { b50000: 1 } } });
      expect(opened.ok(), await opened.text()).toBeTruthy();
      session = ((await (await request.get('/api/drawer')).json()) as { session: { id: string } }).session;
      await reload();
    }
    try {
      // A movement, so the session lists one (with who authorised it) and the corte shows it.
      const moved = await request.post('/api/drawer/movements', {
        headers: { 'Idempotency-Key': `e2e-a11y-deposit-${session.id}` },
        data: { kind: 'deposito', amount: 10000, reason: 'Cambio del banco', pin: '1234' },
      });
      expect(moved.ok(), await moved.text()).toBeTruthy();
      await reload();
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
});
