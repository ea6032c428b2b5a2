import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Voids with reasons and cancelled orders (docs/decisions/0016-voids-and-cancellations.md).
 * A voided line is a deleted item row (is_deleted = 1) that also says why and who authorised
 * it; a partial void splits the line, so the voided units are a row of their own. A cancelled
 * order keeps why and by whom. Existing rows keep nulls: SPEC deletes have no reason.
 */
export function voids() {
  return {
    async up(db: AnyDb): Promise<void> {
      for (const column of ['void_reason', 'void_note', 'void_authorized_by', 'void_authorized_by_name']) {
        await db.schema.alterTable('order_items').addColumn(column, 'text').execute();
      }
      for (const column of ['cancel_reason', 'cancel_note', 'cancelled_by', 'cancelled_by_name', 'cancel_authorized_by']) {
        await db.schema.alterTable('orders').addColumn(column, 'text').execute();
      }
      // Boards read recent voids of active orders; the cash close reads voids of a window.
      await db.schema.createIndex('order_items_deleted_at').on('order_items').column('deleted_at').execute();
    },
  };
}
