import { mkdirSync } from 'node:fs';
import { test, expect, expectNoSeriousViolations, signedInContext, withShiftHoldingNow, BOARD, SHOTS } from './fixtures.ts';

// Tables 880–889 belong to this file: it adds them itself. The bar's inventory (decision 0055).

interface InsumoDto {
  id: string;
  name: string;
  stock: Record<string, number>;
  presentations: { id: string; name: string; content: number; tareG: number | null; densityMgPerMl: number | null }[];
}

test.describe('inventario de barra @inventario', () => {
  test('tequila and a margarita with a Doble set up on the tablet, a night sold, a weighed bottle counted, the variance read', async ({
    browser,
    waiterApi,
    api,
  }, testInfo) => {
    // Axe runs after each screen; on a loaded machine that alone takes a while.
    test.setTimeout(300_000);
    mkdirSync(SHOTS, { recursive: true });
    const stamp = Date.now().toString(36).slice(-5);
    const tequila = `Tequila ${stamp}`;
    const limon = `Limón ${stamp}`;
    const margarita = `Margarita ${stamp}`;
    const { context, page } = await signedInContext(browser, 'admin', BOARD);
    const admin = page.request;
    try {
      // The menu side through its API (its screens have their own specs): the drink and its Doble.
      const created = await admin.post('/api/products', { data: { name: margarita, price: 120_00, category: 'Bebida' } });
      expect(created.ok(), await created.text()).toBeTruthy();
      const productId = ((await created.json()) as { product: { id: string } }).product.id;
      const group = await admin.post('/api/modifier-groups', {
        data: {
          name: `Tamaño ${stamp}`,
          minSelect: 0,
          maxSelect: 1,
          options: [{ name: 'Doble', priceDelta: 60_00 }],
          productIds: [productId],
        },
      });
      expect(group.ok(), await group.text()).toBeTruthy();
      const dobleId = ((await group.json()) as { group: { options: { id: string }[] } }).group.options[0]!.id;

      await withShiftHoldingNow(admin, async (shiftDate) => {
        await page.goto('/admin/inventario');
        const shot = async (name: string) => {
          await page.screenshot({ path: `${SHOTS}/inventario-${name}-1024.png`, fullPage: true });
          await expectNoSeriousViolations(page, `inventario ${name}`);
        };
        const tab = (name: string) => page.getByRole('tab', { name, exact: true }).click();

        // Insumos: the tequila with its bottle (750 ml, 520 g empty, 950 mg/ml) and the limes.
        const form = page.getByTestId('insumo-form');
        const newInsumo = async (fields: {
          name: string;
          unit: string;
          min: string;
          pour?: string;
          p: string;
          content: string;
          tare?: string;
          density?: string;
        }) => {
          await form.getByLabel('Nombre', { exact: true }).fill(fields.name);
          await form.getByLabel('Unidad').selectOption(fields.unit);
          await form.getByLabel(/^Mínimo/).fill(fields.min);
          if (fields.pour) await form.getByLabel(/^Trago/).fill(fields.pour);
          await form.getByLabel('Presentación', { exact: true }).fill(fields.p);
          await form.getByLabel(/^Contenido/).fill(fields.content);
          if (fields.tare) await form.getByLabel('Tara (g)').fill(fields.tare);
          if (fields.density) await form.getByLabel('Densidad (mg/ml)').fill(fields.density);
          await form.getByRole('button', { name: 'Guardar', exact: true }).click();
          await expect(page.getByTestId(`insumo-${fields.name}`)).toBeVisible();
        };
        await newInsumo({
          name: tequila,
          unit: 'ml',
          min: '500',
          pour: '45',
          p: 'Botella 750 ml',
          content: '750',
          tare: '520',
          density: '950',
        });
        await newInsumo({ name: limon, unit: 'pieza', min: '10', p: 'Bolsa 50', content: '50' });
        // An edit keeps the presentation and its tare: the minimum goes up.
        await page.getByRole('button', { name: `Editar ${tequila}` }).click();
        await expect(form.getByLabel('Tara (g)')).toHaveValue('520');
        await form.getByLabel(/^Mínimo/).fill('750');
        await form.getByRole('button', { name: 'Guardar', exact: true }).click();
        await expect(page.getByTestId(`insumo-${tequila}`).getByRole('cell').nth(3)).toHaveText('750 ml');
        await shot('insumos');

        // Compras: two bottles into the bodega at $350.00, and both to the barra.
        await tab('Compras');
        await page.getByLabel('Presentación', { exact: true }).selectOption({ label: `${tequila} · Botella 750 ml` });
        await page.getByLabel('Piezas').fill('2');
        await page.getByLabel('Costo unitario ($)').fill('350');
        await page.getByRole('button', { name: 'Registrar compra', exact: true }).click();
        await expect(page.getByText('Compra registrada')).toBeVisible();
        await page.getByLabel('Presentación', { exact: true }).selectOption({ label: `${limon} · Bolsa 50` });
        await page.getByLabel('Piezas').fill('1');
        await page.getByLabel('Costo unitario ($)').fill('80');
        await page.getByRole('button', { name: 'Registrar compra', exact: true }).click();
        await page.getByRole('button', { name: `Pasar a barra: ${tequila}` }).click();
        await expect(page.getByRole('button', { name: `Pasar a barra: ${tequila}` })).toHaveCount(0);
        await page.getByRole('button', { name: `Pasar a barra: ${limon}` }).click();
        await expect(page.getByRole('button', { name: `Pasar a barra: ${limon}` })).toHaveCount(0);
        await shot('compras');

        // Recetas: Margarita = 60 ml tequila + 1 pieza limón; its Doble adds 60 ml.
        await tab('Recetas');
        await page.getByLabel('Producto').selectOption({ label: `${margarita} · Bebida` });
        const recipe = page.getByRole('region', { name: `Receta de ${margarita}` });
        await recipe.getByRole('button', { name: 'Agregar insumo' }).click();
        await recipe.getByLabel('Insumo').nth(0).selectOption({ label: tequila });
        await recipe.getByLabel('Cantidad (ml)').fill('60');
        await recipe.getByRole('button', { name: 'Agregar insumo' }).click();
        await recipe.getByLabel('Insumo').nth(1).selectOption({ label: limon });
        await recipe.getByLabel('Cantidad (pieza)').fill('1');
        await recipe.getByRole('button', { name: 'Guardar receta' }).click();
        await expect(page.getByText('Receta guardada')).toBeVisible();
        const doble = page.getByRole('region', { name: `Tamaño ${stamp}: Doble` });
        await doble.getByRole('button', { name: 'Agregar insumo' }).click();
        await doble.getByLabel('Insumo').selectOption({ label: tequila });
        await doble.getByLabel('Cantidad (ml)').fill('60');
        await doble.getByRole('button', { name: 'Guardar receta' }).click();
        await expect(page.getByRole('button', { name: new RegExp(`^${margarita}\\s*60 ml ${tequila} · 1 pieza ${limon}`) })).toBeVisible();
        await shot('recetas');
        const recipes = (await (await admin.get('/api/inventory/recipes')).json()) as {
          products: { productId: string; items: { amount: number }[] }[];
          options: { optionId: string; items: { amount: number }[] }[];
        };
        expect(
          recipes.products
            .find((p) => p.productId === productId)
            ?.items.map((i) => i.amount)
            .sort(),
        ).toEqual([1000, 60]);
        expect(recipes.options.find((o) => o.optionId === dobleId)?.items.map((i) => i.amount)).toEqual([60]);

        // The night: three margaritas and two dobles, added by the waiter.
        const table = await api.tableByNumber(880 + testInfo.retry);
        const opened = await waiterApi.post(`/api/tables/${table.id}/open`);
        expect(opened.ok(), await opened.text()).toBeTruthy();
        const orderId = ((await opened.json()) as { order: { id: string } }).order.id;
        for (const body of [
          { productId, quantity: 3 },
          { productId, quantity: 2, optionIds: [dobleId] },
        ]) {
          const added = await waiterApi.post(`/api/orders/${orderId}/items`, { data: body });
          expect(added.ok(), await added.text()).toBeTruthy();
        }
        const insumo = async (name: string) =>
          ((await (await admin.get('/api/inventory/insumos')).json()) as { insumos: InsumoDto[] }).insumos.find((i) => i.name === name)!;
        // 1500 ml − 3 × 60 − 2 × 120 once the worker posts the sales; the screen follows live.
        await expect.poll(async () => (await insumo(tequila)).stock['barra'], { timeout: 15_000 }).toBe(1080);
        await tab('Insumos');
        await expect(page.getByTestId(`insumo-${tequila}`).getByRole('cell').nth(2)).toHaveText('1080 ml');

        // Merma: 30 ml spilt.
        await tab('Merma');
        await page.getByLabel('Insumo').selectOption({ label: tequila });
        await page.getByLabel('Cantidad (ml)').fill('30');
        await page.getByRole('button', { name: 'Derrame' }).click();
        await page.getByRole('button', { name: 'Registrar merma' }).click();
        await expect(page.getByText('Merma registrada')).toBeVisible();
        await expect(page.getByText('Barra: 1050 ml')).toBeVisible();
        await shot('merma');

        // The count: one closed bottle, the open one on the scale at 729 g: (729 − 520) ÷ 0.95 = 220 ml;
        // the limes' bag has no tare, so it is estimated in tenths: 9/10 of 50 = 45 piezas.
        await tab('Conteo');
        await page.getByLabel(`Cerradas Botella 750 ml ${tequila}`).fill('1');
        await page.getByRole('button', { name: `Agregar botella abierta · ${tequila}` }).click();
        const bottle = page.getByRole('group', { name: `Botella abierta 1 de ${tequila}`, exact: true });
        await expect(bottle.getByRole('button', { name: 'Pesada (g)' })).toHaveAttribute('aria-pressed', 'true');
        await bottle.getByLabel(/^Peso en báscula \(g\)/).fill('729');
        await page.getByRole('button', { name: `Agregar botella abierta · ${limon}` }).click();
        const bag = page.getByRole('group', { name: `Botella abierta 1 de ${limon}`, exact: true });
        await expect(bag.getByRole('button', { name: 'Pesada (g)' })).toBeDisabled();
        await bag.getByRole('button', { name: '9/10', exact: true }).click();
        await expect(bag.getByRole('button', { name: '9/10', exact: true })).toHaveAttribute('aria-pressed', 'true');
        // Every control of the count is a finger's target at 1024×768.
        for (const control of await page.getByTestId(`conteo-${tequila}`).locator('button, input, select').all()) {
          const box = await control.boundingBox();
          expect(box!.height).toBeGreaterThanOrEqual(44);
        }
        await shot('conteo');
        await page.getByRole('button', { name: 'Guardar conteo' }).click();
        await expect(page.getByText('Conteo guardado')).toBeVisible();
        // The notice never lies over the tabs (Diferencias is the one at the top right).
        const notice = await page.locator('[data-sonner-toast]').first().boundingBox();
        const diffTab = await page.getByRole('tab', { name: 'Diferencias', exact: true }).boundingBox();
        expect(
          notice!.x < diffTab!.x + diffTab!.width &&
            diffTab!.x < notice!.x + notice!.width &&
            notice!.y < diffTab!.y + diffTab!.height &&
            diffTab!.y < notice!.y + notice!.height,
        ).toBe(false);
        expect((await insumo(tequila)).stock['barra']).toBe(970);
        expect((await insumo(limon)).stock['barra']).toBe(45_000);

        // Diferencias: sold 420 ml by recipe, 500 ml left the shelf: 80 ml missing, 1.8 caballitos, $37.33.
        await tab('Diferencias');
        await page.getByLabel('Día').fill(shiftDate);
        const row = page.getByTestId(`diferencia-${tequila}`);
        await expect(row.getByRole('cell')).toHaveText([tequila, '420 ml', '500 ml', '80 ml', '1.8', '$37.33']);
        // Per station, real (the barra's own counts); per waiter, only the theory of what they sold.
        await expect(page.getByRole('heading', { name: 'Por estación (real: conteos de su almacén)' })).toBeVisible();
        await expect(page.getByTestId('estacion-barra')).toBeVisible();
        await expect(page.getByRole('heading', { name: 'Por mesero (solo teórico: lo que vendió según receta)' })).toBeVisible();
        await expect(page.getByText(new RegExp(`420 ml ${tequila}`))).toBeVisible();
        await shot('diferencias');
      });
    } finally {
      await context.close();
    }
  });
});
