/**
 * The Saturday-night benchmark's bar: a fresh database with the demo menu and staff, a floor of
 * 100 tables (plus the bar, table 0, for tabs), 40 waiters, two kitchen and two bar boards and
 * two admins, each with a password and a PIN of its own. Written once in this process (as the
 * `create-admin` command does), before the measured server processes start.
 */
import { loadConfig } from '../apps/server/src/config.ts';
import { createServer } from '../apps/server/src/server.ts';
import { seedDemo, seedTables } from '../apps/server/src/seed/seed.ts';
import { hashPassword } from '../apps/server/src/auth/password.ts';
import { newId } from '../apps/server/src/http/ids.ts';
import { DEMO_PASSWORD } from './lib.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../apps/server/src/db/schema.ts';

export const NIGHT_PIN_SECRET = 'bench-night-pin-secret-0123456789';

export interface NightStaff {
  email: string;
  role: 'admin' | 'waiter' | 'kitchen' | 'barra';
  pin: string;
}

/** The demo's five accounts (admin 1234, waiters 1111 and 2222, kitchen 3333, bar 4444) plus these. */
export function nightStaff(waiters: number): NightStaff[] {
  const staff: NightStaff[] = [
    { email: 'admin@comanda.mx', role: 'admin', pin: '1234' },
    { email: 'gerente@comanda.mx', role: 'admin', pin: '1235' },
    { email: 'cocina@comanda.mx', role: 'kitchen', pin: '3333' },
    { email: 'cocina2@comanda.mx', role: 'kitchen', pin: '3334' },
    { email: 'barra@comanda.mx', role: 'barra', pin: '4444' },
    { email: 'barra2@comanda.mx', role: 'barra', pin: '4445' },
    { email: 'mesero@comanda.mx', role: 'waiter', pin: '1111' },
    { email: 'mesera@comanda.mx', role: 'waiter', pin: '2222' },
  ];
  for (let i = 3; i <= waiters; i++)
    staff.push({ email: `mesero${String(i).padStart(2, '0')}@comanda.mx`, role: 'waiter', pin: String(5000 + i) });
  return staff;
}

const DEMO_EMAILS = new Set(['admin@comanda.mx', 'cocina@comanda.mx', 'barra@comanda.mx', 'mesero@comanda.mx', 'mesera@comanda.mx']);

/**
 * NIGHT_RECIPES=1: the bar's inventory on: every product consumes two insumos, every modifier
 * option one, each product opted into auto-agotado, and the barra stocked for a thousand nights.
 */
async function seedRecipes(ctx: { db: { db: Kysely<Database> }; clock: { now(): number } }): Promise<void> {
  const db = ctx.db.db;
  const now = ctx.clock.now();
  const insumos = ['Tequila', 'Ron', 'Vodka', 'Mezcal', 'Limón', 'Refresco'].map((name, i) => ({
    id: newId(),
    name: `${name} bench`,
    unit: (i === 4 ? 'pieza' : 'ml') as 'ml' | 'pieza',
    min_stock: 0,
    pour_size: 45,
    last_cost_cents: 30_000,
    last_cost_content: 750,
    active: 1,
    created_at: now,
    updated_at: now,
  }));
  await db.insertInto('insumos').values(insumos).execute();
  const products = await db.selectFrom('products').select('id').orderBy('id').execute();
  const recipes = products.flatMap((p, i) => [
    { product_id: p.id, insumo_id: insumos[i % 4]!.id, amount: 60 },
    { product_id: p.id, insumo_id: insumos[4 + (i % 2)]!.id, amount: 500 },
  ]);
  await db.insertInto('product_recipes').values(recipes).execute();
  // The recipes as versions too (the worker posts each line under the version in force at its add).
  await db
    .insertInto('recipe_versions')
    .values(
      products.map((p, i) => ({
        id: newId(),
        product_id: p.id,
        option_id: null,
        effective_from: now,
        amounts: JSON.stringify([
          { insumoId: insumos[i % 4]!.id, amount: 60 },
          { insumoId: insumos[4 + (i % 2)]!.id, amount: 500 },
        ]),
        created_by: null,
      })),
    )
    .execute();
  await db
    .insertInto('product_auto_agotado')
    .values(products.map((p) => ({ product_id: p.id, state: 0 })))
    .execute();
  const options = await db.selectFrom('modifier_options').select('id').execute();
  if (options.length > 0)
    await db
      .insertInto('modifier_recipes')
      .values(options.map((o, i) => ({ option_id: o.id, insumo_id: insumos[i % 4]!.id, amount: 30 })))
      .execute();
  if (options.length > 0)
    await db
      .insertInto('recipe_versions')
      .values(
        options.map((o, i) => ({
          id: newId(),
          product_id: null,
          option_id: o.id,
          effective_from: now,
          amounts: JSON.stringify([{ insumoId: insumos[i % 4]!.id, amount: 30 }]),
          created_by: null,
        })),
      )
      .execute();
  await db
    .insertInto('stock_movements')
    .values(
      insumos.map((i) => ({
        id: newId(),
        at: now,
        warehouse_id: 'barra',
        insumo_id: i.id,
        kind: 'purchase' as const,
        qty: 1_000_000_000,
        reason: null,
        line_id: null,
        purchase_id: null,
        count_id: null,
        transfer_id: null,
        source_key: null,
        waiter_id: null,
        station: null,
        actor_id: null,
        actor_name: null,
      })),
    )
    .execute();
}

/** Migrates and fills the database at `url` (SQLite or PostgreSQL); closes it again. */
export async function prepareNightDatabase(url: string, dataDir: string, tables: number, staff: NightStaff[]): Promise<void> {
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    PIN_SECRET: NIGHT_PIN_SECRET,
    LOG_LEVEL: 'silent',
    DEMO_DATA: 'off',
    BACKUP_EVERY: 'off',
  });
  const server = await createServer({ config, log: () => undefined });
  try {
    await seedDemo(server.ctx);
    await seedTables(server.ctx, tables);
    if (process.env.NIGHT_RECIPES === '1') await seedRecipes(server.ctx);
    const now = server.ctx.clock.now();
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const extra = staff.filter((s) => !DEMO_EMAILS.has(s.email));
    await server.ctx.db.db
      .insertInto('users')
      .values(
        extra.map((s) => ({
          id: newId(),
          email: s.email,
          display_name: s.email.split('@')[0]!.replace(/^./, (c) => c.toUpperCase()),
          role: s.role,
          password_hash: passwordHash,
          pin_hash: server.ctx.pins.hash(s.pin),
          active: 1,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  } finally {
    await server.close();
  }
}
