import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * The audit log found by entity only where something reads it so: a line's status moves, which the
 * preparers' variance follows (`entity = 'order_item'`, stated the same way). The index of every
 * entry by entity cost each item add a page of its own (the order's entries, one leaf per order),
 * and no screen or report read an order's entries by it.
 */
export function auditItemIndex() {
  return {
    async up(db: AnyDb): Promise<void> {
      await sql`DROP INDEX audit_log_entity`.execute(db);
      await sql`CREATE INDEX audit_log_item ON audit_log (entity_id) WHERE entity = 'order_item'`.execute(db);
    },
  };
}
