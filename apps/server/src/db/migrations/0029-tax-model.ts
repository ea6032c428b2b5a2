import { sql, type Kysely } from 'kysely';
import { cents, flatBreakdown } from '@comanda/domain';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

const PAGE = 1000;

/**
 * The tax model (docs/decisions/0051-tax-breakdown.md): a product's tax treatment, SAT keys and
 * optional IEPS rate; a paid check's breakdown, frozen at its close as JSON. Checks paid before
 * get theirs from the rate then in force (IVA 16 %, derived), computed by the domain's function
 * from what they charged (total − tip), a page at a time.
 */
export function taxModel() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .alterTable('products')
        .addColumn('tax_treatment', 'text', (c) => c.notNull().defaultTo('iva16'))
        .execute();
      await db.schema
        .alterTable('products')
        .addColumn('sat_product_key', 'text', (c) => c.notNull().defaultTo('90101501'))
        .execute();
      await db.schema
        .alterTable('products')
        .addColumn('sat_unit_key', 'text', (c) => c.notNull().defaultTo('E48'))
        .execute();
      await db.schema.alterTable('products').addColumn('ieps_rate_bp', 'integer').execute();
      await db.schema.alterTable('orders').addColumn('tax_breakdown', 'text').execute();

      let after = '';
      for (;;) {
        const rows: { id: string; total: number | string; tip: number | string }[] = await db
          .selectFrom('orders')
          .select(['id', 'total', 'tip'])
          .where('status', '=', 'pagado')
          .where('id', '>', after)
          .orderBy('id')
          .limit(PAGE)
          .execute();
        if (rows.length === 0) break;
        const cases = rows.map((r) => {
          const charged = cents(Math.max(0, Number(r.total) - Number(r.tip)));
          return sql`WHEN ${r.id} THEN ${JSON.stringify(flatBreakdown(charged, 'iva16', true))}`;
        });
        await sql`UPDATE orders SET tax_breakdown = CASE id ${sql.join(cases, sql` `)} END
          WHERE id IN (${sql.join(rows.map((r) => r.id))})`.execute(db);
        after = rows.at(-1)!.id;
      }
    },
  };
}
