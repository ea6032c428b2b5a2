import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * The products the owner lets the inventory mark agotado when the barra cannot make their recipe.
 * `state`: 0 idle, 1 the inventory marked it agotado (it gives it back), 2 someone made it available
 * again while it could not be made (left alone until it can).
 */
export function autoAgotado() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('product_auto_agotado')
        .addColumn('product_id', 'text', (c) => c.primaryKey().references('products.id').onDelete('cascade'))
        .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
