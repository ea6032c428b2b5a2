import type { AppContext } from '../http/context.ts';
import { transact } from '../db/transact.ts';
import { newId } from '../http/ids.ts';
import { hashPassword } from '../auth/password.ts';
import { writeConfig } from '../model/config-store.ts';
import { newTableRow } from '../model/tables/new-table.ts';
import { DEMO_MODIFIER_GROUPS, DEMO_PASSWORD, DEMO_PRODUCTS, DEMO_TABLE_COUNT, DEMO_USERS } from './demo-data.ts';

export async function isEmpty(ctx: AppContext): Promise<boolean> {
  const row = await ctx.db.db.selectFrom('users').select(ctx.db.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n) === 0;
}

/** Tables Barra (0) and Mesa 1–N; kept apart so a real install can create its own layout. */
export async function seedTables(ctx: AppContext, count: number): Promise<void> {
  const now = ctx.clock.now();
  const rows = Array.from({ length: count + 1 }, (_, number) => newTableRow(number, now));
  await ctx.db.db
    .insertInto('tables')
    .values(rows)
    .onConflict((oc) => oc.column('number').doNothing())
    .execute();
}

export async function seedDemo(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const products = DEMO_PRODUCTS.map(([name, category, price, description]) => ({ id: newId(), name, category, price, description }));
  await transact(ctx.db, async (trx) => {
    await trx
      .insertInto('users')
      .values(
        DEMO_USERS.map((u) => ({
          id: newId(),
          email: u.email,
          display_name: u.displayName,
          role: u.role,
          password_hash: passwordHash,
          pin_hash: ctx.pins.hash(u.pin),
          active: 1,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await trx
      .insertInto('products')
      .values(
        products.map((p) => ({
          ...p,
          image_url: null,
          available: 1,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    // One example promotion, inactive: it prices nothing until the admin turns it on.
    await trx
      .insertInto('promotions')
      .values({
        id: newId(),
        name: 'Jueves 2x1 en bebidas (ejemplo)',
        kind: 'nxm',
        percent_bps: null,
        fixed_price: null,
        buy: 2,
        pay: 1,
        days: JSON.stringify([4]),
        start_minute: 18 * 60,
        end_minute: 20 * 60,
        product_ids: '[]',
        categories: JSON.stringify(['Bebida']),
        active: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const [position, g] of DEMO_MODIFIER_GROUPS.entries()) {
      const groupId = newId();
      await trx
        .insertInto('modifier_groups')
        .values({ id: groupId, name: g.name, min_select: g.min, max_select: g.max, position, created_at: now, updated_at: now })
        .execute();
      await trx
        .insertInto('modifier_options')
        .values(
          g.options.map(([name, delta], i) => ({ id: newId(), group_id: groupId, name, price_delta: delta, available: 1, position: i })),
        )
        .execute();
      const targets = products.filter((p) => g.products.includes(p.name));
      if (targets.length > 0) {
        await trx
          .insertInto('modifier_links')
          .values(targets.map((p) => ({ id: newId(), group_id: groupId, product_id: p.id, category: null })))
          .execute();
      }
    }
    await writeConfig(
      trx,
      'general',
      { name: 'Comanda Bar', address: 'Av. Álvaro Obregón 120, Roma Norte, CDMX', phone: '55 5555 0123', logoUrl: '' },
      now,
    );
  });
  await seedTables(ctx, DEMO_TABLE_COUNT);
}

export function demoAccountsText(): string {
  const lines = DEMO_USERS.map((u) => `  ${u.role.padEnd(8)} ${u.email.padEnd(22)} contraseña ${DEMO_PASSWORD}  PIN ${u.pin}`);
  return `Cuentas de demostración:\n${lines.join('\n')}`;
}
