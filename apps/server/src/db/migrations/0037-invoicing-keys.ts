import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Invoicing's second step, all additive:
 *  - payments.card_type: 'credito' | 'debito' as the terminal told it (null: a card entered by
 *    hand, or no card), so the forma de pago tells 28 from 04;
 *  - invoice_receipts.concept_keys: what each SAT product and unit key of the check charged, per
 *    rate group, frozen when the receipt is queued right after the close (JSON);
 *  - invoice_receipts.synced_at: when its state was last read from the PAC (the self-invoice sync).
 */
export function invoicingKeys() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.alterTable('payments').addColumn('card_type', 'text').execute();
      await db.schema.alterTable('invoice_receipts').addColumn('concept_keys', 'text').execute();
      await db.schema.alterTable('invoice_receipts').addColumn('synced_at', 'bigint').execute();
    },
  };
}
