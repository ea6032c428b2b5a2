import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../src/db/connect.ts';
import { KNOWN_MIGRATIONS, migrateToLatest, migrateUpTo } from '../src/db/migrate.ts';
import { reportDataSteps } from '../src/model/reports/rollup-backfill.ts';
import { createTestDatabase, testDatabaseKinds } from '../src/testing/index.ts';

/**
 * Migration 0036 (docs/decisions/0059-inventory-recipe-versions.md): the recipes of products and of
 * modifier options stored before it become each one's version 1, in force since 0, with the same
 * lines; products and options without a recipe get none; the old tables keep their rows.
 */
const BEFORE = '0035-auto-agotado';
const AT = Date.UTC(2026, 2, 1, 22, 0, 0);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows with the columns of 0035, not today's types
async function seedAt0035(db: Kysely<any>): Promise<void> {
  const stamp = { created_at: AT, updated_at: AT };
  await db
    .insertInto('products')
    .values([
      { id: 'p-margarita', name: 'Margarita', price: 120_00, category: 'Bebida', ...stamp },
      { id: 'p-paloma', name: 'Paloma', price: 95_00, category: 'Bebida', ...stamp },
      { id: 'p-tacos', name: 'Tacos', price: 80_00, category: 'Comida', ...stamp },
    ])
    .execute();
  await db
    .insertInto('insumos')
    .values(
      [
        ['i-tequila', 'Tequila', 'ml', 45],
        ['i-limon', 'Limón', 'pieza', null],
        ['i-toronja', 'Refresco de toronja', 'ml', null],
      ].map(([id, name, unit, pour]) => ({ id, name, unit, min_stock: 0, pour_size: pour, active: 1, ...stamp })),
    )
    .execute();
  await db
    .insertInto('modifier_groups')
    .values({ id: 'g-tamano', name: 'Tamaño', min_select: 0, max_select: 1, ...stamp })
    .execute();
  await db
    .insertInto('modifier_options')
    .values([
      { id: 'o-doble', group_id: 'g-tamano', name: 'Doble', price_delta: 60_00 },
      { id: 'o-sencillo', group_id: 'g-tamano', name: 'Sencillo', price_delta: 0 },
    ])
    .execute();
  await db
    .insertInto('product_recipes')
    .values([
      { product_id: 'p-margarita', insumo_id: 'i-tequila', amount: 60 },
      { product_id: 'p-margarita', insumo_id: 'i-limon', amount: 500 },
      { product_id: 'p-paloma', insumo_id: 'i-tequila', amount: 45 },
      { product_id: 'p-paloma', insumo_id: 'i-toronja', amount: 250 },
    ])
    .execute();
  await db.insertInto('modifier_recipes').values({ option_id: 'o-doble', insumo_id: 'i-tequila', amount: 45 }).execute();
}

describe.each(testDatabaseKinds())('migration 0036 turns the stored recipes into versions on %s', (kind) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('each recipe becomes version 1 with the same lines', { timeout: 60_000 }, async () => {
    const database = await createTestDatabase(kind);
    cleanup.push(() => database.drop());
    const handle: Db = connect(database.url);
    cleanup.push(() => handle.close());
    await migrateUpTo(handle, reportDataSteps, BEFORE);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db);
    expect(applied.rows.at(-1)?.name).toBe(BEFORE);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the 0035 schema has no recipe_versions yet
    const db = handle.db as unknown as Kysely<any>;
    await seedAt0035(db);

    await migrateToLatest(handle, reportDataSteps);
    const after = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db);
    expect(after.rows.map((r) => r.name)).toEqual([...KNOWN_MIGRATIONS]);

    const versions = await handle.db.selectFrom('recipe_versions').selectAll().execute();
    const byOwner = (v: (typeof versions)[number]) => v.product_id ?? `option:${v.option_id}`;
    const sortedLines = (json: string) =>
      (JSON.parse(json) as { insumoId: string; amount: number }[]).sort((a, b) => a.insumoId.localeCompare(b.insumoId));
    expect(
      versions
        .map((v) => ({
          owner: byOwner(v),
          productId: v.product_id,
          optionId: v.option_id,
          effectiveFrom: Number(v.effective_from),
          createdBy: v.created_by,
          lines: sortedLines(v.amounts),
        }))
        .sort((a, b) => a.owner.localeCompare(b.owner)),
    ).toEqual([
      {
        owner: 'option:o-doble',
        productId: null,
        optionId: 'o-doble',
        effectiveFrom: 0,
        createdBy: null,
        lines: [{ insumoId: 'i-tequila', amount: 45 }],
      },
      {
        owner: 'p-margarita',
        productId: 'p-margarita',
        optionId: null,
        effectiveFrom: 0,
        createdBy: null,
        lines: [
          { insumoId: 'i-limon', amount: 500 },
          { insumoId: 'i-tequila', amount: 60 },
        ],
      },
      {
        owner: 'p-paloma',
        productId: 'p-paloma',
        optionId: null,
        effectiveFrom: 0,
        createdBy: null,
        lines: [
          { insumoId: 'i-tequila', amount: 45 },
          { insumoId: 'i-toronja', amount: 250 },
        ],
      },
    ]);
    // One version per owner (no product or option seeded twice), ids unique.
    expect(new Set(versions.map((v) => v.id)).size).toBe(versions.length);
    // The old tables keep their rows; the barra's warehouse serves the barra; lines start uncomped.
    expect(await handle.db.selectFrom('product_recipes').select('amount').execute()).toHaveLength(4);
    expect(await handle.db.selectFrom('modifier_recipes').select('amount').execute()).toHaveLength(1);
    const warehouses = await handle.db.selectFrom('warehouses').select(['id', 'station']).orderBy('id').execute();
    expect(warehouses).toEqual([
      { id: 'barra', station: 'barra' },
      { id: 'bodega', station: null },
    ]);
  });
});
