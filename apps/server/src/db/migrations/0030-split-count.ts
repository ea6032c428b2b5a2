import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * The checkout's split calculator ("Dividido entre N") kept apart from the table's guests
 * (people_count): a paid order records what its check was divided by, and a card attempt carries
 * it to the close. Null: not divided (older rows, and checks paid without the calculator).
 */
export function splitCount() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.alterTable('orders').addColumn('split_count', 'integer').execute();
      await db.schema.alterTable('card_payments').addColumn('split_count', 'integer').execute();
    },
  };
}
