import { join } from 'node:path';
import { test, expect, login, SHOTS } from './fixtures.ts';

// No tables used by this file. Its own account, so no other spec's sign-in is slowed.
const DESKTOP = { width: 1280, height: 800 };
const run = Date.now().toString(36);
const WAIT = /^Demasiados intentos\. Intenta más tarde \(espera \d+ segundos?\)\.$/;

test.describe('sign-in lock and Desbloquear', () => {
  test('wrong passwords lock an account with a back-off; the admin sees the lock live and lifts it', async ({ page, browser }) => {
    const email = `bloqueo.${run}@comanda.mx`;
    await page.setViewportSize(DESKTOP);
    await login(page, 'admin');
    const created = await page.request.post('/api/users', { data: { displayName: 'Bruno Bloqueado', email, role: 'waiter' } });
    expect(created.status()).toBe(201);
    await page.goto('/admin/settings');
    await page.getByRole('tab', { name: 'Gestión de Usuarios' }).click();
    const row = page.getByTestId('user-row').filter({ hasText: email });
    await expect(row).toBeVisible();
    await expect(row.getByRole('button', { name: 'Desbloquear' })).toHaveCount(0);

    // Someone guessing: 5 wrong passwords start a 1 s wait, each further one doubles it.
    const person = await browser.newContext({ viewport: DESKTOP, locale: 'es-MX' });
    const guess = (password: string) => person.request.post('/api/auth/login', { data: { email, password } });
    for (let i = 0; i < 5; i++) expect((await guess(`equivocada-${i}`)).status()).toBe(401);
    await expect(row.getByTestId('user-lock')).toBeVisible(); // live, without a reload
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await guess('equivocada-5')).status()).toBe(401);
    // The sign-in form is ready before the next failure, so its try falls inside that 4 s window
    // however slowly the page loads.
    const personPage = await person.newPage();
    await personPage.goto('/login');
    await personPage.getByLabel('Correo electrónico').fill(email);
    await personPage.getByLabel('Contraseña').fill('equivocada-7');
    await new Promise((r) => setTimeout(r, 2_100));
    expect((await guess('equivocada-6')).status()).toBe(401);

    // The sign-in form says how long to wait (the 4 s window of the 7th failure).
    await personPage.getByRole('button', { name: 'Entrar' }).click();
    await expect(personPage.getByRole('alert')).toHaveText(WAIT);

    await expect(row.getByTestId('user-lock')).toContainText('Bloqueado');
    await page.screenshot({ path: join(SHOTS, 'settings-users-locked-1280x800.png') });
    await row.getByRole('button', { name: 'Desbloquear' }).click();
    await expect(page.getByText('Usuario desbloqueado: ya puede iniciar sesión')).toBeVisible();
    await expect(row.getByTestId('user-lock')).toHaveCount(0);

    // At once, without waiting out the back-off: the password is checked again.
    await personPage.getByRole('button', { name: 'Entrar' }).click();
    await expect(personPage.getByRole('alert')).toHaveText('Contraseña incorrecta');
    await person.close();
  });
});
