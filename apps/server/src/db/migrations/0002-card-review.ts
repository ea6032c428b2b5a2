import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * What the terminal actually charged, kept on the card payment itself: an approval that could
 * not close its order stays visible (needs_review) with its amount until an admin settles it.
 */
export function cardReview() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.alterTable('card_payments').addColumn('approved_amount', 'bigint').execute();
      await db.schema.createIndex('card_payments_state').on('card_payments').column('state').execute();
      // Approvals recorded before this column existed closed their order for exactly the amount asked.
      await db
        .updateTable('card_payments')
        .set({ approved_amount: sql`amount` })
        .where('state', '=', 'approved')
        .execute();
    },
  };
}
