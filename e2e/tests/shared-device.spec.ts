import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { test, expect, login, ACCOUNTS, BOARD, PASSWORD } from './fixtures.ts';

/**
 * Issue 18, item 6: a tablet the whole crew shares. The admin enrolls it in Configuración; from
 * then on staff switch user there with their 4-digit PIN on a keypad. No tables used by this file.
 */
const SHOTS = fileURLToPath(new URL('../../screenshots', import.meta.url));
const run = Date.now().toString(36);
const DEVICE = `Tableta barra ${run}`;

/** Taps the PIN on the keypad screen, one big button per digit; answers how many taps it took. */
async function tapPin(page: Page, pin: string): Promise<number> {
  const keypad = page.getByRole('group', { name: 'Toca los 4 dígitos de tu PIN para entrar.' });
  for (const digit of pin) await keypad.getByRole('button', { name: digit, exact: true }).click();
  return pin.length;
}

test.describe('shared device: PIN sign-in on an enrolled tablet', () => {
  test('admin enrolls the tablet; the waiter signs in with 1111, Cambiar usuario to the kitchen (3333); idle lock; revoke', async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: BOARD, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
    const page = await context.newPage();
    await login(page, 'admin');
    await page.goto('/admin/settings');
    await page.getByRole('tab', { name: 'Dispositivos compartidos' }).click();
    await page.getByLabel('Nombre del dispositivo').fill(DEVICE);
    await page.getByText('2 minutos', { exact: true }).click();
    await page.getByRole('button', { name: 'Registrar este dispositivo' }).click();
    await expect(page.getByText(`Este navegador está registrado como «${DEVICE}».`)).toBeVisible();
    const listed = page.getByRole('list', { name: 'Dispositivos registrados' }).getByRole('listitem').filter({ hasText: DEVICE });
    await expect(listed.getByText('Este dispositivo')).toBeVisible();
    await expect(listed).toContainText('Bloqueo tras 2 min sin uso');
    // The secret is in an HttpOnly, SameSite=Strict cookie the page's script cannot read.
    const cookie = (await context.cookies()).find((c) => c.name === 'comanda_device');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(360 * 24 * 3600_000);
    expect(await page.evaluate(() => document.cookie)).not.toContain('comanda_device');

    // Sign out: the sign-in page is now the keypad.
    await page.getByRole('button', { name: 'Cerrar Sesión' }).first().click();
    await expect(page.getByRole('heading', { name: 'Ingresa tu PIN' })).toBeVisible();
    await expect(page.getByText(DEVICE)).toBeVisible();
    await expect(page.getByLabel('Correo electrónico')).toHaveCount(0);
    const keys = page.getByRole('group', { name: 'Toca los 4 dígitos de tu PIN para entrar.' }).getByRole('button');
    await expect(keys).toHaveCount(11);
    for (const box of await Promise.all((await keys.all()).map((k) => k.boundingBox()))) {
      expect(box!.width).toBeGreaterThanOrEqual(44);
      expect(box!.height).toBeGreaterThanOrEqual(44);
    }
    await page.screenshot({ path: join(SHOTS, 'shared-device-keypad-1024x768.png') });

    // A wrong PIN says so and clears the dots.
    await tapPin(page, '9090');
    await expect(page.getByRole('alert')).toHaveText('PIN incorrecto');
    await expect(page.getByTestId('keypad-display')).toHaveAttribute('aria-label', 'PIN: 0 de 4 dígitos');

    // The waiter: four taps, straight to the tables.
    await tapPin(page, ACCOUNTS.waiter.pin);
    await expect(page).toHaveURL(/\/waiter\/home$/);
    await expect(page.getByRole('heading', { name: /Mesas/ }).first()).toBeVisible();

    // Cambiar usuario → the kitchen's PIN → the kitchen board.
    let taps = 0;
    await page.getByRole('button', { name: 'Menú de usuario' }).click();
    taps += 1;
    await expect(page.getByText(ACCOUNTS.waiter.name)).toBeVisible();
    await page.getByRole('button', { name: 'Cambiar usuario' }).click();
    taps += 1;
    await expect(page.getByRole('heading', { name: 'Ingresa tu PIN' })).toBeVisible();
    taps += await tapPin(page, ACCOUNTS.kitchen.pin);
    await expect(page).toHaveURL(/\/kitchen\/cocina$/);
    // Before: the menu, Cerrar Sesión, the e-mail field and each character, the password field and each character, Entrar.
    const before = 2 + 1 + ACCOUNTS.kitchen.email.length + 1 + PASSWORD.length + 1;
    console.log(`switching user on a shared tablet: ${before} taps/keystrokes before → ${taps} taps with the keypad`);
    expect(taps).toBe(6);

    // "Entrar con correo" keeps the usual form, exactly as before.
    await page.getByRole('button', { name: 'Menú de usuario' }).click();
    await page.getByRole('button', { name: 'Cambiar usuario' }).click();
    await page.getByRole('button', { name: 'Entrar con correo' }).click();
    await expect(page.getByLabel('Correo electrónico')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Entrar con PIN' }).click();
    await expect(page.getByRole('heading', { name: 'Ingresa tu PIN' })).toBeVisible();

    // Auto-lock: the same tablet (its cookies) with a controllable clock; 2 minutes without a touch → keypad.
    const state = await context.storageState();
    const idle = await browser.newContext({ viewport: BOARD, locale: 'es-MX', timezoneId: 'America/Mexico_City', storageState: state });
    const idlePage = await idle.newPage();
    await idlePage.clock.install();
    await idlePage.goto('/login');
    await tapPin(idlePage, ACCOUNTS.waiter.pin);
    await expect(idlePage).toHaveURL(/\/waiter\/home$/);
    await idlePage.clock.runFor(60_000);
    await expect(idlePage).toHaveURL(/\/waiter\/home$/);
    await idlePage.keyboard.press('Shift'); // any input restarts the count
    await idlePage.clock.runFor(90_000);
    await expect(idlePage).toHaveURL(/\/waiter\/home$/);
    await idlePage.clock.runFor(40_000);
    await expect(idlePage.getByRole('heading', { name: 'Ingresa tu PIN' })).toBeVisible();
    expect((await idlePage.request.get('/api/auth/me')).status()).toBe(401);
    await idle.close();

    // The admin revokes it (with a confirmation): the keypad is gone and PIN sign-in refused at once.
    await tapPin(page, ACCOUNTS.admin.pin);
    await expect(page).toHaveURL(/\/admin\/home$/);
    await page.goto('/admin/settings');
    await page.getByRole('tab', { name: 'Dispositivos compartidos' }).click();
    await listed.getByRole('button', { name: 'Revocar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revocar dispositivo' });
    await expect(dialog).toContainText(`«${DEVICE}» dejará de aceptar PIN de inmediato`);
    await dialog.getByRole('button', { name: 'Revocar' }).click();
    await expect(listed.getByText('Revocado')).toBeVisible();
    const refused = await page.request.post('/api/auth/pin-login', { data: { pin: ACCOUNTS.waiter.pin } });
    expect(refused.status()).toBe(403);
    await context.close();
  });

  test('a browser that is not enrolled: no keypad, and the PIN sign-in API refuses', async ({ browser }) => {
    const context = await browser.newContext({ viewport: BOARD, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.getByLabel('Correo electrónico')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Ingresa tu PIN' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Entrar con PIN' })).toHaveCount(0);
    const res = await page.request.post('/api/auth/pin-login', { data: { pin: ACCOUNTS.waiter.pin } });
    expect(res.status()).toBe(403);
    expect(await res.json()).toEqual({
      error: {
        code: 'device_not_enrolled',
        message: 'Este dispositivo no está registrado como compartido. Entra con tu correo y contraseña.',
      },
    });
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
    await context.close();
  });
});
