import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { test, expect, signedInContext, ADMIN, MOBILE } from './fixtures.ts';

// Table 95 belongs to this file. In demo mode the server runs three emulated network printers.
const TABLE = 95;
const SHOTS = fileURLToPath(new URL('../../screenshots', import.meta.url));

async function pickProduct(page: Page, search: string, name: string, notes?: string) {
  const dialog = page.getByRole('dialog', { name: 'Agregar productos' });
  await dialog.getByRole('searchbox', { name: 'Buscar producto...' }).fill(search);
  await dialog.getByRole('button', { name: new RegExp(name.replace(/[()]/g, '\\$&')) }).click();
  if (notes) await dialog.getByLabel('Notas (opcional)').fill(notes);
  await dialog.getByRole('button', { name: /^Agregar · / }).click();
  await expect(page.getByText(`${name} agregado`)).toBeVisible();
}

test.describe('network printers @printing', () => {
  test('a waiter adds food and drinks @printing: the kitchen and the bar emulated printers each get their own comanda', async ({
    browser,
  }) => {
    const admin = await signedInContext(browser, 'admin', ADMIN);
    const waiter = await signedInContext(browser, 'waiter', MOBILE);
    const tables = (await (await admin.page.request.get('/api/tables')).json()) as { tables: { number: number }[] };
    if (!tables.tables.some((t) => t.number === TABLE)) {
      expect((await admin.page.request.post('/api/tables', { data: { number: TABLE } })).status()).toBe(200);
    }

    const w = waiter.page;
    await w.reload();
    await w.getByTestId(`table-card-${TABLE}`).click();
    await expect(w).toHaveURL(/\/waiter\/order\//);
    await w.getByRole('button', { name: 'Agregar', exact: true }).click();
    await pickProduct(w, 'tacos', 'Tacos al pastor (3)', 'sin cebolla e2e');
    await pickProduct(w, 'cerveza', 'Cerveza clara');
    await w.keyboard.press('Escape');

    const a = admin.page;
    await a.goto('/admin/settings');
    await a.getByRole('tab', { name: 'Impresoras' }).click();
    await expect(a.getByTestId('printer-cocina').getByTestId('printer-status')).toHaveText('Lista');
    await expect(a.getByTestId('printer-barra')).toContainText('Simulada');

    const kitchen = a.getByTestId('emulator-cocina').getByTestId('emulator-ticket').first();
    const bar = a.getByTestId('emulator-barra').getByTestId('emulator-ticket').first();
    await expect(kitchen).toContainText('COCINA');
    await expect(kitchen).toContainText(`Mesa ${TABLE}`);
    await expect(kitchen).toContainText('1 x Tacos al pastor (3)');
    await expect(kitchen).toContainText('NOTA: sin cebolla e2e');
    await expect(kitchen).toContainText('Mesero: Mario Mesero');
    await expect(kitchen).not.toContainText('Cerveza clara');
    await expect(bar).toContainText('BARRA');
    await expect(bar).toContainText('1 x Cerveza clara');
    await expect(bar).not.toContainText('Tacos');
    await a.screenshot({ path: `${SHOTS}/admin-printers.png`, fullPage: true });

    // Reprint from the waiter's order screen: the same comanda, marked REIMPRESIÓN.
    await w.getByRole('button', { name: 'Reimprimir comanda' }).click();
    await expect(w.getByText('Comanda enviada a imprimir')).toBeVisible();
    await expect(kitchen).toContainText('REIMPRESIÓN');
    await expect(kitchen).toContainText('1 x Tacos al pastor (3)');

    // Test page from Configuración.
    await a.getByTestId('printer-caja').getByRole('button', { name: 'Imprimir prueba' }).click();
    await expect(a.getByTestId('emulator-caja').getByTestId('emulator-ticket').first()).toContainText('Piña colada jalapeño ¿doble? ¡Sí!');
  });
});
