import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { test, expect, expectNoSeriousViolations, SHOTS } from './fixtures.ts';

// Tables 475–479 belong to this file: it adds them itself.
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
};

/** Whether an element's content fits in its box (nothing clipped or overflowing it). */
const fits = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...Array.from(el.querySelectorAll('*')), el].every((child) => {
      const r = child.getBoundingClientRect();
      return r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && child.scrollWidth <= child.clientWidth + 1;
    });
  });

const overlaps = async (a: Locator, b: Locator) => {
  const [x, y] = [(await a.boundingBox())!, (await b.boundingBox())!];
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
};

test('the board at 1024 px: "Marcar Entregado (n)" fits its button, and the undo toast is a 44 px target off the counters', async ({
  kitchenPage: k,
  adminApi,
  api,
}) => {
  const order = await api.openTable(adminApi, 475, [
    ['Tacos al pastor (3)', 1],
    ['Enchiladas verdes', 2],
    ['Hamburguesa de la casa', 1],
  ]);
  for (const item of order.items)
    expect((await adminApi.patch(`/api/orders/${order.id}/items/${item.id}/status`, { data: { status: 'listo' } })).ok()).toBeTruthy();
  await k.goto('/kitchen/cocina');
  const ticket = k.getByTestId('column-ready').getByRole('article', { name: 'Mesa 475', exact: true });
  const deliver = ticket.getByRole('button', { name: /^Marcar Entregado/ });
  await expect(deliver).toContainText('(3)');
  expect(await fits(deliver)).toBe(true);
  await shot(k, 'board-1024-listos');
  await expectNoSeriousViolations(k, 'kitchen board');

  await deliver.click();
  const undo = k.getByRole('button', { name: 'Deshacer' });
  await expect(undo).toBeVisible();
  const box = (await undo.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(44);
  const toast = k.locator('[data-sonner-toast]').filter({ has: undo });
  for (const counter of await k.getByTestId('category-counter').all()) expect(await overlaps(toast, counter)).toBe(false);
  await shot(k, 'board-1024-undo-toast');
  await expectNoSeriousViolations(k, 'kitchen board with the undo toast');
});

test('Configuración at 1440 px: every tab in view, and Conectar dispositivos gives no QR for this machine alone', async ({
  adminPage: a,
}) => {
  await a.goto('/admin/settings');
  const tabs = a.getByRole('tablist', { name: 'Configuración' });
  await expect(tabs).toBeVisible();
  expect(await tabs.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  for (const tab of await tabs.getByRole('tab').all()) await expect(tab).toBeInViewport();
  await shot(a, 'settings-1440-tabs');
  await tabs.getByRole('tab', { name: 'Conectar dispositivos' }).click();
  const local = a.getByTestId('local-addresses');
  await expect(local).toContainText('localhost');
  // The suite's server listens on loopback: no LAN address, so no QR code, and the notice says why.
  const qrs = a.getByRole('img', { name: /^Código QR de / });
  for (const qr of await qrs.all()) await expect(qr).not.toHaveAccessibleName(/localhost/);
  await expect(a.getByText('El servidor solo acepta conexiones de esta misma computadora', { exact: false })).toBeVisible();
  await shot(a, 'settings-1440-devices');
  await expectNoSeriousViolations(a, 'Conectar dispositivos');
});
