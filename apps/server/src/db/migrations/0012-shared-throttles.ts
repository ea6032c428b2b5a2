import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Sign-in back-offs and PIN/crash-report budgets move from each process's memory into the
 * database, so several server processes on one database share one window
 * (auth/throttle.ts, docs/decisions/0018-several-processes.md).
 * `throttle_hits`: one row per failure inside a sliding window; `batch` groups the rows one
 * attempt recorded, so it can be taken back. `throttle_backoffs`: one row per back-off key,
 * incremented in place.
 */
export function sharedThrottles() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('throttle_hits')
        .addColumn('batch', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('throttle_hits_pk', ['batch', 'key'])
        .execute();
      await db.schema.createIndex('throttle_hits_key_at').on('throttle_hits').columns(['key', 'at']).execute();
      await db.schema.createIndex('throttle_hits_at').on('throttle_hits').column('at').execute();
      await db.schema
        .createTable('throttle_backoffs')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('last_at', 'bigint', (c) => c.notNull())
        .addColumn('until_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
