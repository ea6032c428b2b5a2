import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * A line's live adjustments, found by the line. Every add asks whether its pending twin carries a
 * discount or comp (both databases, both paths), and without this index each ask read the whole
 * table, which only grows: a year of a bar's discounts read again on every add. Partial, as every
 * such read asks for the live ones only (`removed_at IS NULL`, stated the same way).
 */
export function liveAdjustmentsIndex() {
  return {
    async up(db: AnyDb): Promise<void> {
      await sql`CREATE INDEX order_adjustments_live_item ON order_adjustments (item_id) WHERE removed_at IS NULL`.execute(db);
    },
  };
}
