import type { Page } from '@playwright/test';
import { test, expect, addInPicker, signedInContext, ADMIN, MOBILE, SHOTS } from './fixtures.ts';

// Tables 95 and 96 belong to this file. In demo mode the server runs three emulated network printers.
const TABLE = 95;

async function pickProduct(page: Page, search: string, name: string, notes?: string) {
  await addInPicker(page, { search, name, ...(notes ? { notes } : {}) });
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

  test('a kitchen printer switched off @printing: status, the alert banner with the unprinted item, then printed once when back', async ({
    browser,
  }) => {
    const admin = await signedInContext(browser, 'admin', ADMIN);
    const waiter = await signedInContext(browser, 'waiter', MOBILE);
    const a = admin.page;
    await a.goto('/admin/settings');
    await a.getByRole('tab', { name: 'Impresoras' }).click();
    await a.getByLabel('Estado de Cocina (simulador)').selectOption({ label: 'Apagada' });

    const tables = (await (await a.request.get('/api/tables')).json()) as { tables: { number: number }[] };
    if (!tables.tables.some((t) => t.number === TABLE + 1)) {
      expect((await a.request.post('/api/tables', { data: { number: TABLE + 1 } })).status()).toBe(200);
    }
    const w = waiter.page;
    await w.reload();
    await w.getByTestId(`table-card-${TABLE + 1}`).click();
    await expect(w).toHaveURL(/\/waiter\/order\//);
    await w.getByRole('button', { name: 'Agregar', exact: true }).click();
    await pickProduct(w, 'tacos', 'Tacos al pastor (3)', 'apagada e2e');
    await w.keyboard.press('Escape');

    await expect(a.getByTestId('printer-cocina').getByTestId('printer-status')).toHaveText('Sin conexión');
    const banner = a.getByRole('alert', { name: 'Comandas sin imprimir' });
    await expect(banner).toContainText('Cocina (simulador)');
    await expect(banner).toContainText('Tacos al pastor (3) (apagada e2e)');
    await a.screenshot({ path: `${SHOTS}/admin-printer-alert.png`, fullPage: true });

    // The kitchen's own board shows it too.
    const kitchen = await signedInContext(browser, 'kitchen', { width: 1024, height: 768 });
    await expect(kitchen.page.getByRole('alert', { name: 'Comandas sin imprimir' })).toContainText('apagada e2e');

    await a.getByLabel('Estado de Cocina (simulador)').selectOption({ label: 'Encendida' });
    await expect(banner).toBeHidden({ timeout: 20_000 });
    await expect(a.getByTestId('printer-cocina').getByTestId('printer-status')).toHaveText('Lista');
    const tickets = a.getByTestId('emulator-cocina').getByTestId('emulator-ticket');
    await expect(tickets.first()).toContainText('apagada e2e');
    await expect(tickets.filter({ hasText: 'apagada e2e' })).toHaveCount(1);
  });

  test('an admin cannot point a printer at this machine or a non-printing port @printing: the dialog says why, in Spanish', async ({
    adminPage: a,
  }) => {
    await a.goto('/admin/settings');
    await a.getByRole('tab', { name: 'Impresoras' }).click();
    await a.getByRole('button', { name: 'Agregar impresora' }).click();
    const dialog = a.getByRole('dialog', { name: 'Nueva impresora' });
    await dialog.getByLabel('Nombre').fill('Servicio e2e');
    await dialog.getByLabel('Dirección IP').fill('127.0.0.1:5432');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog.getByRole('alert')).toContainText('La impresora debe estar en la red local');
    await dialog.getByLabel('Dirección IP').fill('192.168.1.60:6379');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog.getByRole('alert')).toContainText('El puerto de la impresora debe ser 9100, 9101 o 9102');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
    const printers = (await (await a.request.get('/api/printers')).json()) as { printers: { name: string }[] };
    expect(printers.printers.filter((p) => p.name === 'Servicio e2e')).toEqual([]);
  });
});
