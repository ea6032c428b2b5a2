import { readFile } from 'node:fs/promises';
import { test, expect, expectNoSeriousViolations, SHOTS } from './fixtures.ts';

// The menu as a spreadsheet (issue #17 item 5), tag @menu. It touches no table; the products it
// adds have names no other spec uses, and it changes no demo product.

test.describe('menu CSV @menu', () => {
  test('the admin exports the menu, fixes a bad sheet after the preview names its line, and imports it once', async ({
    adminPage: page,
  }, testInfo) => {
    const suffix = testInfo.retry ? ` r${testInfo.retry}` : '';
    await page.goto('/admin/manage-products');
    await expect(page.getByRole('heading', { name: 'Productos', level: 1 })).toBeVisible();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Exportar CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('menu.csv');
    const exported = (await readFile((await download.path())!)).toString('utf8');
    expect(exported.charCodeAt(0)).toBe(0xfeff);
    expect(exported.split('\r\n')[0]).toBe(
      '\uFEFFCategoría,Nombre,Descripción,Precio,Disponible,Modificadores,Tratamiento fiscal,Clave SAT producto,Clave unidad,IEPS',
    );
    expect(exported).toMatch(/\r\nBebida,Cerveza clara,[^\r\n]*,\d+\.\d{2},(sí|no),Preparación,[^,\r\n]+,\d{8},[A-Z0-9]{2,3},[^\r\n]*\r\n/);

    const sheet = (price: string) =>
      Buffer.from(
        [
          'Categoría,Nombre,Descripción,Precio,Disponible',
          `Comida,Gringa CSV${suffix},Harina y pastor,${price},sí`,
          `Bebida,Agua de jamaica CSV${suffix},,35,sí`,
        ].join('\r\n'),
      );
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar menú desde CSV' });
    await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'menu.csv', mimeType: 'text/csv', buffer: sheet('gratis') });
    await expect(dialog.getByRole('alert')).toContainText('Línea 2: Precio inválido "gratis"');
    await expect(dialog.getByRole('button', { name: 'Importar' })).toBeDisabled();

    await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'menu.csv', mimeType: 'text/csv', buffer: sheet('85.50') });
    await expect(dialog.getByText('2 productos nuevos, 0 con cambios, 0 sin cambios.')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/menu-csv-import-1440.png` });
    await expectNoSeriousViolations(page, 'menu CSV import preview');

    await dialog.getByRole('button', { name: 'Importar' }).click();
    await expect(page.getByText('Menú importado: 2 nuevos, 0 actualizados')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`Gringa CSV${suffix}`, { exact: true })).toBeVisible();

    // Counted through the API: each product exists once, with the price from the sheet.
    const products = (await (await page.request.get('/api/products')).json()) as { products: { name: string; price: number }[] };
    expect(products.products.filter((p) => p.name === `Gringa CSV${suffix}`).map((p) => p.price)).toEqual([8550]);
    expect(products.products.filter((p) => p.name === `Agua de jamaica CSV${suffix}`)).toHaveLength(1);

    // The same file again changes nothing, and says so.
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'menu.csv', mimeType: 'text/csv', buffer: sheet('85.50') });
    await expect(dialog.getByText('El archivo no cambia nada del catálogo.')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Importar' })).toBeDisabled();

    // A price finer than a centavo is named on its line, not rounded.
    await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'menu.csv', mimeType: 'text/csv', buffer: sheet('45.999') });
    await expect(dialog.getByRole('alert')).toContainText('Línea 2: El precio "45.999" tiene más de dos decimales');
    await expect(dialog.getByRole('button', { name: 'Importar' })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
  });

  test('a menu with names a spreadsheet would run as formulas exports and imports back unchanged', async ({
    adminPage: page,
  }, testInfo) => {
    const suffix = testInfo.retry ? ` r${testInfo.retry}` : '';
    const formula = `=2+5 CSV${suffix}`;
    const created = await page.request.post('/api/products', {
      data: { name: formula, description: "@nota +1, 'con comillas'", price: 4500, category: 'Comida' },
    });
    expect(created.ok()).toBeTruthy();
    await page.goto('/admin/manage-products');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Exportar CSV' }).click()]);
    const exported = await readFile((await download.path())!);
    // Defused for the spreadsheet: the cell starts with an apostrophe, never with "=".
    expect(exported.toString('utf8')).toContain(`,'${formula},"'@nota +1, 'con comillas'",45.00,`);

    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar menú desde CSV' });
    await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'menu.csv', mimeType: 'text/csv', buffer: exported });
    await expect(dialog.getByText('El archivo no cambia nada del catálogo.')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Importar' })).toBeDisabled();

    const products = (await (await page.request.get('/api/products')).json()) as { products: { name: string; description: string }[] };
    expect(products.products.filter((p) => p.name === formula).map((p) => p.description)).toEqual(["@nota +1, 'con comillas'"]);
    expect(products.products.filter((p) => p.name === `'${formula}`)).toEqual([]);
  });
});
