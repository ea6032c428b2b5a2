import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, login, expectNoSeriousViolations, ACCOUNTS, BOARD, MOBILE, PASSWORD, type AccountKey, SHOTS } from './fixtures.ts';

/**
 * A tablet the whole crew shares. The admin enrolls it in Configuración; from then on staff switch
 * user there by tapping their name and their 4-digit PIN on a keypad; the admin signs in there with
 * the password. No tables used by this file.
 */
const run = Date.now().toString(36);
const DEVICE = `Tableta barra ${run}`;

const PICK = '¿Quién eres?';
const people = (page: Page) => page.getByRole('list', { name: 'Personal que entra con PIN' });
/** The button of a demo account on the switch screen: its name, then its role. */
const personButton = (page: Page, who: AccountKey) => people(page).getByRole('button', { name: new RegExp(`^${ACCOUNTS[who].name}, `) });

/** Taps the person's name, then their PIN on the keypad; answers how many taps it took. */
async function signInAs(page: Page, who: AccountKey, pin: string = ACCOUNTS[who].pin): Promise<number> {
  await personButton(page, who).click();
  await expect(page.getByRole('heading', { name: 'Ingresa tu PIN' })).toBeVisible();
  await expect(page.getByTestId('pin-person')).toHaveText(ACCOUNTS[who].name);
  return 1 + (await tapPin(page, pin));
}

/** Taps the PIN on the keypad screen, one big button per digit; answers how many taps it took. */
async function tapPin(page: Page, pin: string): Promise<number> {
  const keypad = page.getByRole('group', { name: 'Toca los 4 dígitos de tu PIN para entrar.' });
  for (const digit of pin) await keypad.getByRole('button', { name: digit, exact: true }).click();
  return pin.length;
}

test.describe('shared device: PIN sign-in on an enrolled tablet', () => {
  test('admin enrolls the tablet; the waiter taps their name and 1111, Cambiar usuario to the kitchen (3333); idle lock; revoke', async ({
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

    // Sign out: the sign-in page now asks who is there, by name: the staff with a PIN, never the admin.
    await page.getByRole('button', { name: 'Cerrar Sesión' }).first().click();
    await expect(page.getByRole('heading', { name: PICK })).toBeVisible();
    await expect(page.getByText(DEVICE)).toBeVisible();
    await expect(page.getByLabel('Correo electrónico')).toHaveCount(0);
    for (const who of ['waiter', 'waiter2', 'kitchen', 'barra'] as const) await expect(personButton(page, who)).toBeVisible();
    await expect(personButton(page, 'waiter')).toHaveAccessibleName(`${ACCOUNTS.waiter.name}, Mesero`);
    await expect(people(page).getByRole('button', { name: new RegExp(ACCOUNTS.admin.name) })).toHaveCount(0);
    await expect(people(page)).not.toContainText('Administrador');
    await expect(page.getByText('El administrador entra con su correo y contraseña.')).toBeVisible();
    for (const box of await Promise.all((await people(page).getByRole('button').all()).map((k) => k.boundingBox()))) {
      expect(box!.height).toBeGreaterThanOrEqual(44);
    }
    await page.screenshot({ path: join(SHOTS, 'shared-device-people-1024x768.png') });
    await expectNoSeriousViolations(page, 'shared device: who are you');

    // A name, then that person's keypad.
    await personButton(page, 'waiter').click();
    await expect(page.getByRole('heading', { name: 'Ingresa tu PIN' })).toBeVisible();
    await expect(page.getByTestId('pin-person')).toHaveText(ACCOUNTS.waiter.name);
    const keys = page.getByRole('group', { name: 'Toca los 4 dígitos de tu PIN para entrar.' }).getByRole('button');
    await expect(keys).toHaveCount(11);
    for (const box of await Promise.all((await keys.all()).map((k) => k.boundingBox()))) {
      expect(box!.width).toBeGreaterThanOrEqual(44);
      expect(box!.height).toBeGreaterThanOrEqual(44);
    }
    // The whole keypad screen fits the tablet, down to "Entrar con correo".
    await expect(page.getByRole('button', { name: 'Entrar con correo' })).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: join(SHOTS, 'shared-device-keypad-1024x768.png') });
    await expectNoSeriousViolations(page, 'shared device: keypad');

    // Another person's PIN is wrong for this name: it says so and clears the dots.
    await tapPin(page, ACCOUNTS.kitchen.pin);
    await expect(page.getByRole('alert')).toHaveText('PIN incorrecto');
    await expect(page.getByTestId('keypad-display')).toHaveAttribute('aria-label', 'PIN: 0 de 4 dígitos');
    // "Elegir a otra persona" goes back to the names.
    await page.getByRole('button', { name: 'Elegir a otra persona' }).click();
    await expect(page.getByRole('heading', { name: PICK })).toBeVisible();

    // The waiter: their name and four taps, straight to the tables.
    await signInAs(page, 'waiter');
    await expect(page).toHaveURL(/\/waiter\/home$/);
    await expect(page.getByRole('heading', { name: /Mesas/ }).first()).toBeVisible();

    // Cambiar usuario → the kitchen's PIN → the kitchen board.
    let taps = 0;
    await page.getByRole('button', { name: 'Menú de usuario' }).click();
    taps += 1;
    await expect(page.getByText(ACCOUNTS.waiter.name)).toBeVisible();
    await page.getByRole('button', { name: 'Cambiar usuario' }).click();
    taps += 1;
    await expect(page.getByRole('heading', { name: PICK })).toBeVisible();
    taps += await signInAs(page, 'kitchen');
    await expect(page).toHaveURL(/\/kitchen\/cocina$/);
    // Before: the menu, Cerrar Sesión, the e-mail field and each character, the password field and each character, Entrar.
    const before = 2 + 1 + ACCOUNTS.kitchen.email.length + 1 + PASSWORD.length + 1;
    console.log(`switching user on a shared tablet: ${before} taps/keystrokes before → ${taps} taps with the name and the keypad`);
    expect(taps).toBe(7);

    // "Entrar con correo" keeps the usual form, exactly as before.
    await page.getByRole('button', { name: 'Menú de usuario' }).click();
    await page.getByRole('button', { name: 'Cambiar usuario' }).click();
    await page.getByRole('button', { name: 'Entrar con correo' }).click();
    await expect(page.getByLabel('Correo electrónico')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Entrar con PIN' }).click();
    await expect(page.getByRole('heading', { name: PICK })).toBeVisible();

    // Auto-lock: the same tablet (its cookies) with a controllable clock; 2 minutes without a touch → keypad.
    const state = await context.storageState();
    const idle = await browser.newContext({ viewport: BOARD, locale: 'es-MX', timezoneId: 'America/Mexico_City', storageState: state });
    const idlePage = await idle.newPage();
    await idlePage.clock.install();
    await idlePage.goto('/login');
    await signInAs(idlePage, 'waiter');
    await expect(idlePage).toHaveURL(/\/waiter\/home$/);
    await idlePage.clock.runFor(60_000);
    await expect(idlePage).toHaveURL(/\/waiter\/home$/);
    await idlePage.keyboard.press('Shift'); // any input restarts the count
    await idlePage.clock.runFor(90_000);
    await expect(idlePage).toHaveURL(/\/waiter\/home$/);
    await idlePage.clock.runFor(40_000);
    await expect(idlePage.getByRole('heading', { name: PICK })).toBeVisible();
    expect((await idlePage.request.get('/api/auth/me')).status()).toBe(401);
    await idle.close();

    // The admin's PIN opens nothing here, even the right one: the admin signs in with the password.
    const admin = await page.request.post('/api/auth/login', { data: { email: ACCOUNTS.admin.email, password: PASSWORD } });
    const adminId = ((await admin.json()) as { user: { id: string } }).user.id;
    await page.request.post('/api/auth/logout');
    const byPin = await page.request.post('/api/auth/pin-login', { data: { userId: adminId, pin: ACCOUNTS.admin.pin } });
    expect(byPin.status()).toBe(403);
    expect(((await byPin.json()) as { error: { message: string } }).error.message).toBe(
      'El administrador no entra con PIN en un dispositivo compartido. Entra con tu correo y contraseña.',
    );
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
    await page.getByRole('button', { name: 'Entrar con correo' }).click();
    await page.getByLabel('Correo electrónico').fill(ACCOUNTS.admin.email);
    await page.getByLabel('Contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/home$/);

    // The admin revokes it (with a confirmation): the names are gone and PIN sign-in refused at once.
    await page.goto('/admin/settings');
    await page.getByRole('tab', { name: 'Dispositivos compartidos' }).click();
    await listed.getByRole('button', { name: 'Revocar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revocar dispositivo' });
    await expect(dialog).toContainText(`«${DEVICE}» dejará de aceptar PIN de inmediato`);
    await dialog.getByRole('button', { name: 'Revocar' }).click();
    await expect(listed.getByText('Revocado')).toBeVisible();
    const refused = await page.request.post('/api/auth/pin-login', { data: { userId: adminId, pin: ACCOUNTS.admin.pin } });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('device_not_enrolled');
    expect((await page.request.get('/api/shared-devices/current/people')).status()).toBe(200);
    expect(await (await page.request.get('/api/shared-devices/current/people')).json()).toEqual({ people: [] });
    await context.close();
  });

  test('a phone at the bar (390×844): five wrong PINs for one person over two phones lock that person, in Spanish, until Desbloquear', async ({
    browser,
  }) => {
    const phone = async (name: string) => {
      const context = await browser.newContext({ viewport: MOBILE, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
      const page = await context.newPage();
      await login(page, 'admin');
      expect((await page.request.post('/api/shared-devices', { data: { name, idleLockSeconds: 0 } })).status()).toBe(200);
      return { context, page };
    };
    const north = await phone(`Teléfono barra ${run}`);
    const south = await phone(`Teléfono terraza ${run}`);
    // A person of this run only, so the lock touches nobody else's sign-in.
    const name = `Brenda Barra ${run}`;
    let pin = '';
    for (let tries = 0; !pin && tries < 20; tries++) {
      const candidate = String(5000 + Math.floor(Math.random() * 4999));
      const res = await north.page.request.post('/api/users', {
        data: { displayName: name, email: `brenda.${run}@comanda.mx`, role: 'barra', pin: candidate },
      });
      if (res.status() === 201) pin = candidate;
      else expect(res.status(), await res.text()).toBe(409); // the PIN belongs to someone else: another
    }
    for (const { page } of [north, south]) await page.request.post('/api/auth/logout');

    // Two wrong PINs on the terrace phone (its own budget is far from spent)...
    const { people: listed } = (await (await south.page.request.get('/api/shared-devices/current/people')).json()) as {
      people: { id: string; displayName: string }[];
    };
    const brenda = listed.find((p) => p.displayName === name)!;
    for (const wrong of ['0101', '0102'])
      expect((await south.page.request.post('/api/auth/pin-login', { data: { userId: brenda.id, pin: wrong } })).status()).toBe(403);

    // ...and three on the bar phone, by her name: then even her right PIN waits, with a Spanish message.
    const page = north.page;
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: PICK })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, 'shared-device-people-390x844.png') });
    await expectNoSeriousViolations(page, 'shared device on a phone: who are you');
    await people(page)
      .getByRole('button', { name: `${name}, Barra` })
      .click();
    for (const wrong of ['0103', '0104', '0105']) {
      await tapPin(page, wrong);
      await expect(page.getByRole('alert')).toHaveText('PIN incorrecto');
    }
    await tapPin(page, pin);
    const locked = `Demasiados PIN incorrectos para ${name}. Espera 15 minutos o pide a un administrador que lo desbloquee.`;
    await expect(page.getByRole('alert')).toHaveText(locked);
    await expect(page).toHaveURL(/\/login$/);
    await page.screenshot({ path: join(SHOTS, 'shared-device-person-locked-390x844.png') });
    await expectNoSeriousViolations(page, 'shared device on a phone: a locked person');

    // The admin sees the lock in Usuarios and lifts it; her right PIN works at once on the bar phone.
    const admin = await browser.newContext({ viewport: BOARD, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
    const adminPage = await admin.newPage();
    await login(adminPage, 'admin');
    await adminPage.goto('/admin/settings');
    await adminPage.getByRole('tab', { name: 'Gestión de Usuarios' }).click();
    const row = adminPage.getByTestId('user-row').filter({ hasText: name });
    await expect(row.getByTestId('user-lock')).toContainText('Bloqueado');
    await row.getByRole('button', { name: 'Desbloquear' }).click();
    await expect(row.getByTestId('user-lock')).toHaveCount(0);
    await tapPin(page, pin);
    await expect(page).toHaveURL(/\/kitchen\/barra$/);
    for (const context of [north.context, south.context, admin]) await context.close();
  });

  test('a browser that is not enrolled: no keypad, and the PIN sign-in API refuses', async ({ browser }) => {
    const context = await browser.newContext({ viewport: BOARD, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.getByLabel('Correo electrónico')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Ingresa tu PIN' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Entrar con PIN' })).toHaveCount(0);
    const res = await page.request.post('/api/auth/pin-login', { data: { userId: 'alguien', pin: ACCOUNTS.waiter.pin } });
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
