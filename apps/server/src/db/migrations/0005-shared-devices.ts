import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Shared devices: a tablet or phone an admin enrolled, where staff switch user with their PIN.
 * Only the SHA-256 of the device's secret is kept; the secret lives in the device's HttpOnly cookie.
 */
export function sharedDevices() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('shared_devices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .addColumn('idle_lock_seconds', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // A session opened by PIN on a shared device ends when the device is revoked.
      await db.schema.alterTable('sessions').addColumn('device_id', 'text').execute();
      await db.schema.createIndex('sessions_device').on('sessions').column('device_id').execute();
    },
  };
}
