import { test, expect, login, ON_POSTGRES } from './fixtures.ts';

// No tables used by this file.
test('Configuración › Respaldos shows the automatic backups and their schedule', async ({ page }) => {
  await login(page, 'admin');
  await page.goto('/admin/settings');
  await page.getByRole('tab', { name: 'Respaldos' }).click();
  const card = page.getByTestId('backups-card');
  await expect(card.getByRole('heading', { name: 'Respaldos automáticos' })).toBeVisible();
  if (ON_POSTGRES) {
    // On PostgreSQL the server makes no backups of its own: the card says so and names pg_dump.
    await expect(card).toContainText('La base de datos es PostgreSQL: el servidor no hace respaldos.');
    await expect(card).toContainText('pg_dump');
    await expect(card.getByTestId('backup-last')).toHaveCount(0);
    return;
  }
  // The e2e server runs with the default schedule: every hour, the first one a minute after start.
  await expect(card).toContainText('Se hace un respaldo cada hora');
  await expect(card.getByTestId('backup-last')).toHaveText(/Todavía no hay respaldos|\d/);
  await expect(card).toContainText('npm run pos -- restore --from');
});
