import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, login, MOBILE, SHOTS } from './fixtures.ts';

// No tables used by this file (see the team brief).
const DESKTOP = { width: 1280, height: 800 };
const run = Date.now().toString(36);

/** The newest mail written to the server's outbox for an address (the e2e server has no SMTP). */
function linkFromOutbox(email: string): string {
  const dir = join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(`-${email}.txt`))
    .sort();
  const newest = files.at(-1);
  if (!newest) throw new Error(`no mail for ${email} in ${dir}`);
  const match = /(https?:\/\/\S+\/reset-password\?token=\S+)/.exec(readFileSync(join(dir, newest), 'utf8'));
  if (!match?.[1]) throw new Error(`no link in ${newest}`);
  return match[1];
}

/** Follows the e-mailed link in its own browser context and chooses a password there. */
async function setPasswordFromLink(page: Page, email: string, password: string, shot?: string): Promise<void> {
  await page.goto(linkFromOutbox(email));
  await expect(page.getByText(`Cuenta: ${email}`)).toBeVisible();
  await page.getByLabel('Nueva contraseña').fill(password);
  await page.getByLabel('Confirmar contraseña').fill(`${password}x`);
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page.getByRole('alert')).toHaveText('Las contraseñas no coinciden');
  if (shot) await page.screenshot({ path: join(SHOTS, shot) });
  await page.getByLabel('Confirmar contraseña').fill(password);
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Contraseña guardada' })).toBeVisible();
}

test.describe('products, settings and users', () => {
  test('admin manages the catalogue; a signed-in waiter sees the new product live', async ({ adminPage: page, waiterPage }) => {
    // The waiter's browser listens to the catalogue like the product picker does.
    await waiterPage.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const w = window as unknown as { productEvents: unknown[] };
          w.productEvents = [];
          const ws = new WebSocket(`ws://${location.host}/api/live`);
          ws.onopen = () => ws.send(JSON.stringify({ op: 'subscribe', topics: ['products'] }));
          ws.onmessage = (m) => {
            const msg = JSON.parse(String(m.data)) as { op: string; event?: unknown };
            if (msg.op === 'subscribed') resolve();
            if (msg.op === 'event') w.productEvents.push(msg.event);
          };
        }),
    );

    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/manage-products');
    await expect(page.getByTestId('product-card').first()).toBeVisible();

    const name = `Tlayuda ${run}`;
    await page.getByRole('button', { name: 'Nuevo producto' }).click();
    const form = page.getByRole('dialog');
    await expect(form.getByLabel('Categoría')).toHaveValue('Comida');
    await form.getByRole('button', { name: 'Guardar' }).click();
    await expect(form.getByRole('alert')).toHaveText('Nombre y precio requeridos');
    await form.getByLabel('Nombre').fill(name);
    await form.getByLabel('Precio (MXN)').fill('0');
    await form.getByRole('button', { name: 'Guardar' }).click();
    await expect(form.getByRole('alert')).toHaveText('Nombre y precio requeridos');
    await form.getByLabel('Precio (MXN)').fill('89.50');
    await form.getByLabel('Descripción').fill('Con tasajo y quesillo');
    await form.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Producto creado')).toBeVisible();
    const card = page.getByTestId('product-card').filter({ hasText: name });
    await expect(card).toContainText('$89.50');
    await expect(card).toContainText('Comida');

    // Live: the waiter's screen heard it, and its catalogue now offers it — no reload.
    await waiterPage.waitForFunction(() => (window as unknown as { productEvents: unknown[] }).productEvents.length > 0);
    const offered = (await (await waiterPage.request.get('/api/products?available=1')).json()) as {
      products: { name: string; price: number }[];
    };
    expect(offered.products.find((p) => p.name === name)?.price).toBe(8950);

    // Search and category chips.
    await page.getByRole('searchbox').fill('tlayuda');
    await expect(page.getByTestId('product-card')).toHaveCount(1);
    await page.getByRole('button', { name: 'Bebida', exact: true }).click();
    await expect(page.getByText('No hay productos')).toBeVisible();
    await page.getByRole('button', { name: 'Todas', exact: true }).click();
    await page.getByRole('searchbox').fill('');

    // Unavailable products are no longer offered to waiters.
    // The switch follows the server's answer: click, then wait for it to turn off.
    await card.getByRole('switch').click();
    await expect(card.getByRole('switch')).not.toBeChecked();
    await expect(card).toContainText('No disponible');
    await expect
      .poll(async () =>
        ((await (await waiterPage.request.get('/api/products?available=1')).json()) as { products: { name: string }[] }).products.some(
          (p) => p.name === name,
        ),
      )
      .toBe(false);
    await card.getByRole('switch').click();
    await expect(card.getByRole('switch')).toBeChecked();

    // Edit.
    await card.getByRole('button', { name: /Editar/ }).click();
    await expect(form.getByLabel('Precio (MXN)')).toHaveValue('89.50');
    await form.getByLabel('Precio (MXN)').fill('95');
    await form.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Producto actualizado')).toBeVisible();
    await expect(card).toContainText('$95.00');

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'products-1280x800.png') });
    await page.setViewportSize(MOBILE);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'products-390x844.png') });
    await page.getByRole('button', { name: 'Nuevo producto' }).click();
    await page.screenshot({ path: join(SHOTS, 'product-form-390x844.png') });
    await page.keyboard.press('Escape');
    await page.setViewportSize(DESKTOP);

    // Delete, with the spec's confirmation.
    await card.getByRole('button', { name: /Eliminar/ }).click();
    await expect(page.getByRole('dialog')).toContainText('Eliminar producto? Esta acción no se puede deshacer.');
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
    await expect(page.getByText('Producto eliminado')).toBeVisible();
    await expect(card).toHaveCount(0);
  });

  test('business information is saved and shown on the login page', async ({ adminPage: page, browser }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/settings');
    await expect(page.getByRole('tab', { name: 'Información del Negocio' })).toHaveAttribute('aria-selected', 'true');
    for (const tab of ['Gestión de Usuarios', 'Mesas', 'Configurar Terminal'])
      await expect(page.getByRole('tab', { name: tab })).toBeVisible();
    await expect(page.getByLabel('Nombre del negocio')).toHaveValue('Comanda Bar');
    await page.getByLabel('Teléfono').fill('55 4444 3333');
    await page.getByLabel('Inicio de turno').selectOption('18');
    await page.getByRole('button', { name: 'Guardar Cambios' }).click();
    await expect(page.getByText('Configuración guardada')).toBeVisible();
    await page.screenshot({ path: join(SHOTS, 'settings-business-1280x800.png') });
    await page.setViewportSize(MOBILE);
    await page.screenshot({ path: join(SHOTS, 'settings-business-390x844.png') });

    await page.reload();
    await expect(page.getByLabel('Teléfono')).toHaveValue('55 4444 3333');
    await expect(page.getByLabel('Inicio de turno')).toHaveValue('18');
    // Put the demo's phone and shift back for the other specs.
    await page.getByLabel('Teléfono').fill('55 5555 0123');
    await page.getByLabel('Inicio de turno').selectOption('17');
    await page.getByRole('button', { name: 'Guardar Cambios' }).click();
    await expect(page.getByText('Configuración guardada')).toBeVisible();

    const anon = await browser.newPage();
    await anon.goto('/login');
    await expect(anon.getByRole('heading', { name: 'Comanda Bar' })).toBeVisible();
    await anon.close();
  });

  test('admin adds a user, who follows the e-mailed link, sets a password and signs in', async ({ adminPage: page, browser }) => {
    const email = `nueva.${run}@comanda.mx`;
    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/settings');
    await page.getByRole('tab', { name: 'Gestión de Usuarios' }).click();
    await expect(page.getByTestId('user-row').first()).toBeVisible();
    await page.getByRole('button', { name: 'Agregar usuario' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nombre').fill('Nadia Nueva');
    await dialog.getByLabel('Correo electrónico').fill(email);
    await dialog.getByLabel('Rol').selectOption({ label: 'Cocina' });
    await dialog.getByLabel('PIN (opcional, 4 dígitos)').fill('1111');
    await dialog.getByRole('button', { name: 'Crear usuario' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('El PIN ya está en uso');
    await dialog.getByLabel('PIN (opcional, 4 dígitos)').fill('7391');
    await dialog.getByRole('button', { name: 'Crear usuario' }).click();
    await expect(page.getByText(`Usuario creado. Invitación enviada a ${email}`)).toBeVisible();
    const row = page.getByTestId('user-row').filter({ hasText: email });
    await expect(row).toContainText('Invitación pendiente');
    await page.screenshot({ path: join(SHOTS, 'settings-users-1280x800.png') });

    const person = await browser.newContext({ viewport: MOBILE, locale: 'es-MX' });
    const personPage = await person.newPage();
    await setPasswordFromLink(personPage, email, 'cocina-segura-1');
    await personPage.getByRole('link', { name: 'Ir a iniciar sesión' }).click();
    await login(personPage, { email, password: 'cocina-segura-1' });
    await expect(personPage).toHaveURL(/\/kitchen\/cocina$/);
    // The admin's list updates live once the password exists.
    await expect(row).not.toContainText('Invitación pendiente');

    // 'Restablecer' mails a fresh link.
    await row.getByRole('button', { name: 'Restablecer' }).click();
    await expect(page.getByText(`Enlace enviado a ${email}`)).toBeVisible();
    expect(linkFromOutbox(email)).toContain('/reset-password?token=');
    await page.setViewportSize(MOBILE);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'settings-users-390x844.png') });
    await person.close();

    // A used or invented link is refused.
    const stranger = await browser.newPage();
    await stranger.goto('/reset-password?token=inventado');
    await expect(stranger.getByRole('alert')).toHaveText('El enlace no es válido o ha expirado');
    await stranger.screenshot({ path: join(SHOTS, 'reset-password-invalid.png') });
    await stranger.close();
  });

  test('deactivating a signed-in waiter sends their screen back to /login', async ({ adminPage: page, browser }) => {
    const email = `baja.${run}@comanda.mx`;
    await page.setViewportSize(DESKTOP);
    const created = await page.request.post('/api/users', { data: { displayName: 'Walter Temporal', email, role: 'waiter' } });
    expect(created.status()).toBe(201);

    const waiter = await browser.newContext({ viewport: MOBILE, locale: 'es-MX' });
    const waiterPage = await waiter.newPage();
    await setPasswordFromLink(waiterPage, email, 'mesero-temporal-1', 'reset-password-form-390x844.png');
    await waiterPage.screenshot({ path: join(SHOTS, 'reset-password-done-390x844.png') });
    await login(waiterPage, { email, password: 'mesero-temporal-1' });
    await expect(waiterPage).toHaveURL(/\/waiter\/home$/);

    await page.goto('/admin/settings');
    await page.getByRole('tab', { name: 'Gestión de Usuarios' }).click();
    const row = page.getByTestId('user-row').filter({ hasText: email });
    await expect(
      page.getByTestId('user-row').filter({ hasText: 'admin@comanda.mx' }).getByRole('button', { name: 'Desactivar' }),
    ).toBeDisabled();
    await row.getByRole('button', { name: 'Desactivar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Desactivar' }).click();
    await expect(page.getByText('Usuario desactivado')).toBeVisible();
    await expect(row).toContainText('Inactivo');

    // No reload on the waiter's side: the live connection ends and the guard sends them out.
    await expect(waiterPage).toHaveURL(/\/login/, { timeout: 5_000 });
    await waiterPage.goto('/login');
    await waiterPage.getByLabel('Correo electrónico').fill(email);
    await waiterPage.getByLabel('Contraseña').fill('mesero-temporal-1');
    await waiterPage.getByRole('button', { name: 'Entrar' }).click();
    await expect(waiterPage.getByRole('alert')).toHaveText('Usuario inactivo, contacte al administrador');

    await row.getByRole('button', { name: 'Activar' }).click();
    await expect(page.getByText('Usuario activado')).toBeVisible();
    await waiter.close();
  });
});
