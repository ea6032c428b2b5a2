import { test, expect, expectNoSeriousViolations, withShiftHoldingNow } from './fixtures.ts';
import { adminAfterPaidTicket } from './a11y-helpers.ts';

// Table 156 belongs to this file: it adds it itself.
test.describe('accessibility', () => {
  test('no serious or critical axe violations on the admin back office at 1440×900: products and their form, promotions, inventory, reports, the cash close with sales', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    // The admin starts at home, as after signing in, and opens the products from the menu.
    const admin = await adminAfterPaidTicket(browser, 156);
    const p = admin.page;
    const request = p.request;
    await p.getByRole('link', { name: 'Productos', exact: true }).click();
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
    // The cash close WITH sales in it: the shift that holds the ticket paid above.
    await withShiftHoldingNow(request, async (businessDate) => {
      await p.goto('/admin/cierre');
      await expect(p.getByRole('heading', { name: /Cierre de Caja/ })).toBeVisible();
      await p.getByLabel('Fecha del turno').fill(businessDate);
      await expect(p.getByTestId('summary-cards')).toBeVisible();
      await expect(p.getByTestId('method-efectivo')).toBeVisible();
      await p.waitForLoadState('networkidle');
      await expectNoSeriousViolations(p, 'cash close');
    });
    await admin.context.close();
  });
});
