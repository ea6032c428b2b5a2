import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MenuImportResult, Product } from '@comanda/contract';
import {
  CATEGORIES,
  cents,
  FISCAL_MESSAGES,
  foldText,
  MAX_IEPS_RATE_BP,
  MENU_LIMITS,
  MENU_MESSAGES,
  menuNameKey,
  parseMenuTable,
  TAX_TREATMENTS,
} from '@comanda/domain';
import { testDatabaseKinds, type ApiClient } from '../src/testing/index.ts';
import { serverForSuite } from '../src/testing/suite.ts';
import { newId } from '../src/http/ids.ts';
import { insertProduct } from '../src/testing/factories.ts';
import { csvCell, escapeCell, unescapeCell } from '../src/model/csv.ts';
import { menuCsv, readCsv, type MenuProduct } from '../src/features/products/menu-sheet.ts';

/** Text staff could type: what a spreadsheet runs as a formula, CSV's own characters, accents, any Unicode. */
const typed = (max: number) =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom('=', '+', '-', '@', '\t', "'", '"', ',', ';', '|', '||', '\n', '\r\n', '\r', ' ', '  ', '2+5', 'ñandú', 'Ü', '¿¡'),
        fc.string({ unit: 'grapheme', maxLength: 6 }),
      ),
      { maxLength: 10 },
    )
    .map((parts) => parts.join('').slice(0, max).trim())
    // slice may cut a surrogate pair: keep well-formed text only (what the database stores).
    .filter((t) => !/\p{Cs}/u.test(t));
const named = (max: number) => typed(max).filter((t) => t !== '');
/** Products as the product form stores them: names trimmed and distinct (case, accents and spacing aside). */
const catalogue = (groupNames: readonly string[]) =>
  fc.uniqueArray(
    fc.record({
      name: named(MENU_LIMITS.name),
      description: typed(MENU_LIMITS.description),
      price: fc.integer({ min: 1, max: MENU_LIMITS.maxPrice }).map(cents),
      category: fc.constantFrom(...CATEGORIES),
      available: fc.boolean(),
      modifierGroups: fc.subarray([...groupNames]),
      taxTreatment: fc.constantFrom(...TAX_TREATMENTS),
      satProductKey: fc.stringMatching(/^\d{8}$/),
      satUnitKey: fc.stringMatching(/^[A-Z0-9]{2,3}$/),
      iepsRateBp: fc.option(fc.integer({ min: 1, max: MAX_IEPS_RATE_BP }), { nil: null }),
    }),
    { selector: (p) => menuNameKey(p.name), maxLength: 8 },
  );
/** Group names as the modifiers screen stores them, distinct the way the import matches them. */
const groupNames = fc.uniqueArray(named(60), { selector: foldText, maxLength: 4 });

describe('the menu sheet round trip', () => {
  it('every text survives escapeCell then unescapeCell, and no escaped cell starts a formula', () => {
    fc.assert(
      fc.property(typed(200), (text) => {
        expect(unescapeCell(escapeCell(text))).toBe(text);
        expect(escapeCell(text)).not.toMatch(/^[=+\-@\t\r]/);
        expect(csvCell(text)).not.toMatch(/^"?[=+\-@\t\r]/);
      }),
      { numRuns: 2000 },
    );
  });

  // About 5 s alone; several times that beside the rest of the suite on a slow 2-core machine.
  it('any catalogue exported then read back gives the same products, prices and groups', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(
        groupNames.chain((groups) => catalogue(groups)),
        (products) => {
          const parsed = parseMenuTable(readCsv(menuCsv(products)));
          expect(parsed.ok ? [] : parsed.errors).toEqual([]);
          if (!parsed.ok) return;
          const read = parsed.rows.map(({ line: _line, ...row }) => ({ ...row, modifierGroups: row.modifierGroups!.map(foldText) }));
          const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
          expect(read.sort(byName)).toEqual(
            products.map((p: MenuProduct) => ({ ...p, modifierGroups: p.modifierGroups.map(foldText) })).sort(byName),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a price finer than a centavo is a line error; zeros past the centavo change nothing', () => {
    const parsed = parseMenuTable([
      ['Categoría', 'Nombre', 'Precio'],
      ['Comida', 'Sope', '0.005'],
      ['Comida', 'Gringa', '45.999'],
      ['Comida', 'Flauta', '45.990'],
    ]);
    expect(parsed).toEqual({
      ok: false,
      errors: [
        { line: 2, message: MENU_MESSAGES.priceDecimals('0.005') },
        { line: 3, message: MENU_MESSAGES.priceDecimals('45.999') },
      ],
    });
    const exact = parseMenuTable([
      ['Categoría', 'Nombre', 'Precio'],
      ['Comida', 'Flauta', '45.990'],
    ]);
    expect(exact.ok && exact.rows[0]!.price).toBe(4599);
  });
});

describe.each(testDatabaseKinds())('the menu as a spreadsheet on %s', (kind) => {
  let admin: ApiClient;
  const suite = serverForSuite(kind, {}, async (server) => {
    admin = await server.login(server.users.admin.email);
  });

  const products = async () => (await admin.get<{ products: Product[] }>('/api/products')).body.products;
  const exportCsv = async () => {
    const res = await fetch(`${suite.server.url}/api/menu/export.csv`, { headers: { cookie: admin.cookie! } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('menu.csv');
    // ignoreBOM keeps the BOM in the text, so the test sees exactly what Excel gets.
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array(await res.arrayBuffer()));
  };
  const countRows = async (table: 'products' | 'audit_log') =>
    Number(
      (
        await suite.server.ctx.db.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('exports every product with a BOM, by category in catalogue order, prices in pesos', async () => {
    const text = await exportCsv();
    expect(
      text.startsWith(
        '\uFEFFCategoría,Nombre,Descripción,Precio,Disponible,Modificadores,Tratamiento fiscal,Clave SAT producto,Clave unidad,IEPS\r\n',
      ),
    ).toBe(true);
    const lines = text.slice(1).trimEnd().split('\r\n');
    expect(lines.length).toBe((await products()).length + 1);
    const categories = lines.slice(1).map((l) => l.split(',')[0]);
    expect(categories.indexOf('Entrada')).toBeLessThan(categories.indexOf('Bebida'));
    expect(lines.slice(1).every((l) => /,\d+\.\d{2},(sí|no),[^,]*,IVA 16 %,90101501,E48,$/.test(l))).toBe(true);
    // The demo's beer carries its own 'Preparación' group; groups reached through a category are not listed.
    expect(lines.find((l) => l.split(',')[1] === 'Cerveza clara')).toMatch(/,Preparación,IVA 16 %,/);
  });

  it("the tax columns set a product's treatment, SAT keys and IEPS; an empty cell leaves them, a wrong one is refused", async () => {
    const header = 'Categoría,Nombre,Precio,Tratamiento fiscal,Clave SAT producto,Clave unidad,IEPS';
    const load = (lines: string[]) => admin.post<MenuImportResult>('/api/menu/import', { csv: [header, ...lines].join('\n') });
    expect((await load(['Bebida,Mezcal de la casa,120,IVA 8 %,50202206,h87,53'])).body).toMatchObject({ applied: true, created: 1 });
    const mezcal = () => products().then((all) => all.find((p) => p.name === 'Mezcal de la casa')!);
    expect(await mezcal()).toMatchObject({ taxTreatment: 'iva8', satProductKey: '50202206', satUnitKey: 'H87', iepsRateBp: 5300 });
    expect((await load(['Bebida,Mezcal de la casa,120,,,,'])).body).toMatchObject({ applied: true, updated: 1 });
    expect(await mezcal()).toMatchObject({ taxTreatment: 'iva8', satProductKey: '50202206', satUnitKey: 'H87', iepsRateBp: null });
    const bad = await load(['Bebida,Mezcal de la casa,120,IVA 21 %,5020,H-87,400']);
    expect(bad.body.applied).toBe(false);
    expect(bad.body.errors.map((e) => e.message)).toEqual([
      MENU_MESSAGES.treatment('IVA 21 %'),
      FISCAL_MESSAGES.productKey,
      FISCAL_MESSAGES.unitKey,
      FISCAL_MESSAGES.iepsRate,
    ]);
    const line = (await exportCsv()).split('\r\n').find((l) => l.includes('Mezcal de la casa'))!;
    expect(line).toMatch(/,IVA 8 %,50202206,H87,$/);
  });

  it('the exported sheet imported back changes nothing; a preview writes nothing', async () => {
    const before = await countRows('audit_log');
    const again = await admin.post<MenuImportResult>('/api/menu/import', { csv: await exportCsv() });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ applied: true, created: 0, updated: 0, unchanged: (await products()).length, errors: [] });
    expect(await countRows('audit_log')).toBe(before);
  });

  it('any catalogue exported and imported back changes nothing: no product, price, group link or audit entry', async () => {
    const db = suite.server.ctx.db.db;
    const snapshot = async () => ({
      products: await db.selectFrom('products').selectAll().orderBy('id').execute(),
      links: await db.selectFrom('modifier_links').select(['group_id', 'product_id', 'category']).orderBy('id').execute(),
      audits: await countRows('audit_log'),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        groupNames.chain((groups) => fc.tuple(fc.constant(groups), catalogue(groups))),
        async ([groups, products]) => {
          // A run's names carry its number at the end, so they stay distinct from the demo's.
          run += 1;
          const now = Date.now();
          const groupIds = new Map<string, string>();
          const productIds: string[] = [];
          try {
            for (const [i, name] of groups.entries()) {
              const id = newId();
              groupIds.set(name, id);
              await db
                .insertInto('modifier_groups')
                .values({
                  id,
                  name: `${name} g${run}`,
                  min_select: 0,
                  max_select: null,
                  position: 100 + i,
                  created_at: now,
                  updated_at: now,
                })
                .execute();
            }
            for (const p of products) {
              const { modifierGroups: _groups, taxTreatment, satProductKey, satUnitKey, iepsRateBp, ...fields } = p;
              const row = await insertProduct(db, {
                ...fields,
                tax_treatment: taxTreatment,
                sat_product_key: satProductKey,
                sat_unit_key: satUnitKey,
                ieps_rate_bp: iepsRateBp,
                name: `${p.name} p${run}`,
                available: p.available ? 1 : 0,
                created_at: now,
              });
              productIds.push(row.id);
              for (const g of p.modifierGroups)
                await db
                  .insertInto('modifier_links')
                  .values({ id: newId(), group_id: groupIds.get(g)!, product_id: row.id, category: null })
                  .execute();
            }
            const before = await snapshot();
            const res = await admin.post<MenuImportResult>('/api/menu/import', { csv: await exportCsv() });
            expect(res.body).toEqual({ applied: true, created: 0, updated: 0, unchanged: before.products.length, errors: [] });
            expect(await snapshot()).toEqual(before);
          } finally {
            // The run's products and groups go, so the next run and the other tests see the demo's menu.
            if (productIds.length > 0) {
              await db.deleteFrom('modifier_links').where('product_id', 'in', productIds).execute();
              await db.deleteFrom('products').where('id', 'in', productIds).execute();
            }
            if (groupIds.size > 0)
              await db
                .deleteFrom('modifier_groups')
                .where('id', 'in', [...groupIds.values()])
                .execute();
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it('adds new products and updates matching names (case and accents aside), audited, exactly once per key', async () => {
    const beer = (await products()).find((p) => p.category === 'Bebida')!;
    const csv = [
      'categoria;nombre;precio;disponible',
      `BEBIDA;${beer.name.toUpperCase()};99.50;no`,
      'Comida;Gringa de pastor;85;sí',
      'Shot;"Tequila ""Reposado"", doble";120.00;',
    ].join('\n');
    const productsBefore = await countRows('products');

    const preview = await admin.post<MenuImportResult>('/api/menu/import', { csv, dryRun: true });
    expect(preview.body).toMatchObject({ applied: false, created: 2, updated: 1, errors: [] });
    expect(await countRows('products')).toBe(productsBefore);

    const key = { 'Idempotency-Key': `menu-${kind}-1` };
    const first = await admin.post<MenuImportResult>('/api/menu/import', { csv }, key);
    const replay = await admin.post<MenuImportResult>('/api/menu/import', { csv }, key);
    expect(first.body).toMatchObject({ applied: true, created: 2, updated: 1, errors: [] });
    expect(replay.body).toEqual(first.body);
    expect(await countRows('products')).toBe(productsBefore + 2);

    const after = await products();
    expect(after.find((p) => p.id === beer.id)).toMatchObject({ name: beer.name.toUpperCase(), price: 9950, available: false });
    expect(after.find((p) => p.name === 'Tequila "Reposado", doble')).toMatchObject({ category: 'Shot', price: 12_000, available: true });
    const audits = await suite.server.ctx.db.db
      .selectFrom('audit_log')
      .select(['action', 'data'])
      .where('entity_id', '=', beer.id)
      .where('action', '=', 'product.update')
      .execute();
    expect(audits).toHaveLength(1);
    expect(JSON.parse(String(audits[0]!.data))).toMatchObject({
      before: { price: beer.price },
      after: { price: 9950 },
      source: 'menu-import',
    });
  });

  it('the Modificadores column attaches named groups, replaces them, and refuses a group the app does not have', async () => {
    const groupsOf = async (name: string) => {
      const product = (await products()).find((p) => p.name === name)!;
      const links = await suite.server.ctx.db.db
        .selectFrom('modifier_links')
        .innerJoin('modifier_groups', 'modifier_groups.id', 'modifier_links.group_id')
        .select('modifier_groups.name')
        .where('modifier_links.product_id', '=', product.id)
        .orderBy('modifier_groups.name')
        .execute();
      return links.map((l) => l.name);
    };
    const header = 'Categoría,Nombre,Precio,Modificadores';
    const unknown = await admin.post<MenuImportResult>('/api/menu/import', { csv: `${header}\nComida,Sope CSV,40,Salsas` });
    expect(unknown.body).toMatchObject({ applied: false, errors: [{ line: 2, message: MENU_MESSAGES.unknownGroup('Salsas') }] });

    const first = await admin.post<MenuImportResult>('/api/menu/import', { csv: `${header}\nComida,Sope CSV,40,sin | PREPARACION` });
    expect(first.body).toMatchObject({ applied: true, created: 1, errors: [] });
    expect(await groupsOf('Sope CSV')).toEqual(['Preparación', 'Sin']);

    const again = await admin.post<MenuImportResult>('/api/menu/import', { csv: `${header}\nComida,Sope CSV,40,Sin` });
    expect(again.body).toMatchObject({ applied: true, created: 0, updated: 1, errors: [] });
    expect(await groupsOf('Sope CSV')).toEqual(['Sin']);

    // Without the column a product's groups stay as they are.
    const noColumn = await admin.post<MenuImportResult>('/api/menu/import', { csv: 'Categoría,Nombre,Precio\nComida,Sope CSV,40' });
    expect(noColumn.body).toMatchObject({ applied: true, updated: 0, unchanged: 1 });
    expect(await groupsOf('Sope CSV')).toEqual(['Sin']);
  });

  it('one bad row writes nothing and names its line; only the admin may import or export', async () => {
    const productsBefore = await countRows('products');
    const res = await admin.post<MenuImportResult>('/api/menu/import', {
      csv: 'Categoría,Nombre,Precio\r\nComida,Sope,40\r\nPostres,Flan,35\r\n',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      applied: false,
      created: 0,
      updated: 0,
      unchanged: 0,
      errors: [{ line: 3, message: MENU_MESSAGES.category('Postres') }],
    });
    expect(await countRows('products')).toBe(productsBefore);

    // A price finer than a centavo is not rounded: its line is refused like any other mistake.
    const finer = await admin.post<MenuImportResult>('/api/menu/import', {
      csv: 'Categoría,Nombre,Precio\nComida,Sope fino,0.005\nBebida,Agua fina,45.999\n',
    });
    expect(finer.body).toEqual({
      applied: false,
      created: 0,
      updated: 0,
      unchanged: 0,
      errors: [
        { line: 2, message: MENU_MESSAGES.priceDecimals('0.005') },
        { line: 3, message: MENU_MESSAGES.priceDecimals('45.999') },
      ],
    });
    expect(await countRows('products')).toBe(productsBefore);

    const broken = await admin.post<MenuImportResult>('/api/menu/import', { csv: 'Categoría,Nombre,Precio\n"Comida,Sope,40\n' });
    expect(broken.status).toBe(200);
    expect(broken.body.errors[0]!.message).toBe(MENU_MESSAGES.unreadable);

    const waiter = await suite.server.login(suite.server.users.waiter.email);
    expect((await waiter.post('/api/menu/import', { csv: 'Categoría,Nombre,Precio\nComida,Sope,40\n' })).status).toBe(403);
    expect((await fetch(`${suite.server.url}/api/menu/export.csv`, { headers: { cookie: waiter.cookie! } })).status).toBe(403);
  });
});
