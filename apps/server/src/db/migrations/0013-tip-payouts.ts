import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Tip payouts (docs/decisions/0019-tip-payouts.md): a drawer movement of kind 'propinas' names
 * the person who received the cash (`recipient_id`, `recipient_name`; null for other kinds).
 * `payments_created_at` serves the tips report and the corte's card and transfer figures,
 * which read payments by time.
 */
export function tipPayouts() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.alterTable('drawer_movements').addColumn('recipient_id', 'text').execute();
      await db.schema.alterTable('drawer_movements').addColumn('recipient_name', 'text').execute();
      await db.schema.createIndex('drawer_movements_recipient').on('drawer_movements').columns(['recipient_id', 'created_at']).execute();
      await db.schema.createIndex('payments_created_at').on('payments').column('created_at').execute();
    },
  };
}
