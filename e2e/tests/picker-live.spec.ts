import { test, expect, signedInContext, MOBILE } from './fixtures.ts';

// Table 22 belongs to this file: the test adds it itself.
test('a product the admin adds appears in a waiter’s open product picker, and leaves it when unavailable', async ({ browser }) => {
  const admin = await signedInContext(browser, 'admin');
  const waiter = await signedInContext(browser, 'waiter', MOBILE);
  const created = await admin.page.request.post('/api/tables', { data: { number: 22 } });
  expect([200, 409]).toContain(created.status());
  const tables = (await (await admin.page.request.get('/api/tables')).json()) as {
    tables: { id: string; number: number; status: string }[];
  };
  const table = tables.tables.find((t) => t.number === 22)!;
  if (table.status === 'libre') expect((await waiter.page.request.post(`/api/tables/${table.id}/open`)).ok()).toBeTruthy();

  const w = waiter.page;
  await w.goto(`/waiter/order/${table.id}`);
  await w.getByRole('button', { name: 'Agregar', exact: true }).click();
  const picker = w.getByRole('dialog', { name: 'Agregar productos' });
  await expect(picker).toBeVisible();
  const name = `Mezcal de la casa ${Date.now() % 100000}`;
  await expect(picker.getByRole('button', { name: new RegExp(`^${name}`) })).toHaveCount(0);

  const res = await admin.page.request.post('/api/products', { data: { name, description: 'Espadín', price: 9000, category: 'Shot' } });
  expect(res.ok(), await res.text()).toBeTruthy();
  const { product } = (await res.json()) as { product: { id: string } };
  // No reload: the picker hears the catalogue change and shows the new product.
  await expect(picker.getByRole('button', { name: new RegExp(`^${name}`) })).toBeVisible();

  const off = await admin.page.request.patch(`/api/products/${product.id}/availability`, { data: { available: false } });
  expect(off.ok(), await off.text()).toBeTruthy();
  await expect(picker.getByRole('button', { name: new RegExp(`^${name}`) })).toHaveCount(0);

  await admin.context.close();
  await waiter.context.close();
});
