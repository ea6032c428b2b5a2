import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../connect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * The owner reports' taxes (docs/decisions/0051-tax-breakdown.md): one row per business-local
 * hour, treatment and IEPS rate with the base, IVA, IEPS and amount of the checks paid then, added
 * from each check's frozen breakdown at its close. Filled here from the breakdowns already stored.
 */
export function taxRollups(kind: DbKind, fill: (db: AnyDb) => Promise<void>) {
  const clustered = kind === 'sqlite' ? sql`WITHOUT ROWID` : sql``;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('report_taxes')
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('treatment', 'text', (c) => c.notNull())
        .addColumn('ieps_rate_bp', 'text', (c) => c.notNull())
        .addColumn('base', 'bigint', (c) => c.notNull())
        .addColumn('tax', 'bigint', (c) => c.notNull())
        .addColumn('ieps', 'bigint', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('report_taxes_pk', ['slot', 'treatment', 'ieps_rate_bp'])
        .modifyEnd(clustered)
        .execute();
      await fill(db);
    },
  };
}
