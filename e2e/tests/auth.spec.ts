import { test, expect, login, ACCOUNTS, PASSWORD } from './fixtures.ts';

test.describe('sign-in and routing', () => {
  test('the login page shows the form, the role legend and the business name', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
    await expect(page.getByText('Administrador')).toBeVisible();
    await expect(page.getByText('Mesero')).toBeVisible();
    await expect(page.getByText('Cocina/Barra')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Comanda Bar' })).toBeVisible();
  });

  for (const [who, home] of [
    ['admin', '/admin/home'],
    ['waiter', '/waiter/home'],
    ['kitchen', '/kitchen/cocina'],
    ['barra', '/kitchen/barra'],
  ] as const) {
    test(`${who} lands on ${home}`, async ({ page }) => {
      await login(page, who);
      await expect(page).toHaveURL(new RegExp(`${home}$`));
      await expect(page.getByText('Inicio de sesión exitoso')).toBeVisible();
    });
  }

  test('a wrong password shows the spec message', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Correo electrónico').fill(ACCOUNTS.admin.email);
    await page.getByLabel('Contraseña').fill('equivocada');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByRole('alert')).toHaveText('Contraseña incorrecta');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('redirects of the legacy login paths and unknown paths go to /login', async ({ page }) => {
    for (const path of ['/admin/login', '/waiter/login', '/kitchen/login', '/no-existe/para-nada']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
  });

  test('guards: no session goes to /login, another role goes to its own home', async ({ page }) => {
    await page.goto('/admin/settings');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await login(page, 'kitchen');
    await page.goto('/admin/home');
    await expect(page).toHaveURL(/\/kitchen\/cocina$/);
    await page.goto('/waiter/home');
    await expect(page).toHaveURL(/\/kitchen\/cocina$/);
  });

  test('the session survives a reload and logout returns to /login', async ({ page }) => {
    await login(page, 'waiter');
    await page.reload();
    await expect(page).toHaveURL(/\/waiter\/home$/);
    await page.getByRole('button', { name: 'Menú de usuario' }).click();
    await expect(page.getByText(ACCOUNTS.waiter.email)).toBeVisible();
    await page.getByRole('button', { name: 'Cerrar Sesión' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/waiter/home');
    await expect(page).toHaveURL(/\/login/);
  });

  test('kitchen menu shows the role and signs out with its own toast', async ({ page }) => {
    await login(page, 'barra');
    await page.getByRole('button', { name: 'Menú de usuario' }).click();
    await expect(page.getByText(ACCOUNTS.barra.name)).toBeVisible();
    await page.getByRole('button', { name: 'Cerrar Sesión' }).click();
    await expect(page.getByText('Sesión cerrada', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('admin sidebar links and logout', async ({ page }) => {
    await login(page, 'admin');
    for (const name of ['Mesas', 'Cocina', 'Barra', 'Panel de pedidos', 'Tickets', 'Cierre de Caja', 'Productos', 'Configuración']) {
      await expect(page.getByRole('link', { name, exact: true }).first()).toBeVisible();
    }
    await page.getByRole('button', { name: 'Cerrar Sesión' }).first().click();
    await expect(page).toHaveURL(/\/login$/);
    void PASSWORD;
  });
});
