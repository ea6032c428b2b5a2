import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db, DbKind } from './connect.ts';
import { applySqlFunctions } from './functions/index.ts';
import { initial } from './migrations/0001-initial.ts';
import { cardReview } from './migrations/0002-card-review.ts';
import { printing } from './migrations/0003-printing.ts';
import { drawer } from './migrations/0004-drawer.ts';
import { sharedDevices } from './migrations/0005-shared-devices.ts';
import { ticketSearch } from './migrations/0006-ticket-search.ts';
import { checksTabs } from './migrations/0008-checks-tabs.ts';
import { paymentsFolios } from './migrations/0009-payments-folios.ts';
import { voids } from './migrations/0010-voids.ts';
import { adjustments } from './migrations/0011-adjustments.ts';
import { sharedThrottles } from './migrations/0012-shared-throttles.ts';
import { tipPayouts } from './migrations/0013-tip-payouts.ts';
import { reportRollups } from './migrations/0014-report-rollups.ts';
import { equalShares } from './migrations/0015-equal-shares.ts';
import { modifiers } from './migrations/0016-modifiers.ts';
import { promotions } from './migrations/0018-promotions.ts';
import { printJobIndex } from './migrations/0019-print-job-index.ts';
import { orderFiguresIndex } from './migrations/0020-order-figures-index.ts';
import { quickAdd } from './migrations/0021-quick-add.ts';
import { printQueueIndex } from './migrations/0022-print-queue-index.ts';
import { rollupFunction } from './migrations/0023-rollup-function.ts';
import { pinAttempt } from './migrations/0024-pin-attempt.ts';
import { printJobIndexes } from './migrations/0025-print-job-indexes.ts';
import { quickAddGroups } from './migrations/0026-quick-add-groups.ts';
import { quickDelete } from './migrations/0027-quick-delete.ts';
import { ticketSearchFold } from './migrations/0028-ticket-search-fold.ts';
import { taxModel } from './migrations/0029-tax-model.ts';
import { splitCount } from './migrations/0030-split-count.ts';
import { taxRollups } from './migrations/0031-tax-rollups.ts';
import { invoicing } from './migrations/0032-invoicing.ts';
import { inventory } from './migrations/0033-inventory.ts';
import { invoices } from './migrations/0034-invoices.ts';
import { autoAgotado } from './migrations/0035-auto-agotado.ts';
import { inventoryVersions } from './migrations/0036-inventory-versions.ts';
import { invoicingKeys } from './migrations/0037-invoicing-keys.ts';
import { liveAdjustmentsIndex } from './migrations/0038-live-adjustments-index.ts';
import { auditItemIndex } from './migrations/0039-audit-item-index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
type AnyDb = Kysely<any>;

/**
 * The data a migration fills from rows already there, computed by the model that owns the rule
 * (report rollups): handed in by the caller, so this layer imports nothing above it.
 */
export interface MigrationDataSteps {
  /** Fills the report rollups (0014) from the paid, voided and cancelled rows, taxes excepted. */
  reportRollups(db: AnyDb): Promise<void>;
  /** Fills the tax rollup (0031) from the breakdowns frozen at close. */
  taxRollups(db: AnyDb): Promise<void>;
}

/** Stand-in for listing names only: a migration that would need data never runs with it. */
const NAMES_ONLY: MigrationDataSteps = {
  reportRollups: () => Promise.reject(new Error('data steps missing')),
  taxRollups: () => Promise.reject(new Error('data steps missing')),
};

function migrationsFor(kind: DbKind, steps: MigrationDataSteps): Record<string, Migration> {
  return {
    '0001-initial': initial(kind),
    '0002-card-review': cardReview(),
    '0003-printing': printing(kind),
    '0004-drawer': drawer(kind),
    '0005-shared-devices': sharedDevices(),
    '0006-ticket-search': ticketSearch(kind),
    '0008-checks-tabs': checksTabs(),
    '0009-payments-folios': paymentsFolios(kind),
    '0010-voids': voids(),
    '0011-adjustments': adjustments(),
    '0012-shared-throttles': sharedThrottles(),
    '0013-tip-payouts': tipPayouts(),
    '0014-report-rollups': reportRollups(kind, steps.reportRollups),
    '0015-equal-shares': equalShares(),
    '0016-modifiers': modifiers(),
    '0018-promotions': promotions(),
    '0019-print-job-index': printJobIndex(),
    '0020-order-figures-index': orderFiguresIndex(),
    '0021-quick-add': quickAdd(),
    '0022-print-queue-index': printQueueIndex(),
    '0023-rollup-function': rollupFunction(),
    '0024-pin-attempt': pinAttempt(),
    '0025-print-job-indexes': printJobIndexes(),
    '0026-quick-add-groups': quickAddGroups(),
    '0027-quick-delete': quickDelete(),
    '0028-ticket-search-fold': ticketSearchFold(kind),
    '0029-tax-model': taxModel(),
    '0030-split-count': splitCount(),
    '0031-tax-rollups': taxRollups(kind, steps.taxRollups),
    '0032-invoicing': invoicing(),
    '0033-inventory': inventory(),
    '0034-invoices': invoices(),
    '0035-auto-agotado': autoAgotado(),
    '0036-inventory-versions': inventoryVersions(),
    '0037-invoicing-keys': invoicingKeys(),
    '0038-live-adjustments-index': liveAdjustmentsIndex(),
    '0039-audit-item-index': auditItemIndex(),
  };
}

/** Names of the migrations this version knows, in order. */
export const KNOWN_MIGRATIONS: readonly string[] = Object.keys(migrationsFor('sqlite', NAMES_ONLY));

/** The names recorded in the database's migration table (empty for a new database). */
export async function appliedMigrations({ db }: Db): Promise<string[]> {
  try {
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    return rows.rows.map((r) => r.name);
  } catch {
    return [];
  }
}

export class NewerDatabaseError extends Error {}

/** Migration names this version does not know: the database was upgraded by a newer Comanda. */
export function unknownMigrations(applied: readonly string[]): string[] {
  return applied.filter((name) => !KNOWN_MIGRATIONS.includes(name));
}

class StaticProvider implements MigrationProvider {
  constructor(
    private readonly kind: DbKind,
    private readonly steps: MigrationDataSteps,
  ) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrationsFor(this.kind, this.steps));
  }
}

/** Brings the schema up to date; runs on every start, for both databases. */
export async function migrateToLatest(database: Db, steps: MigrationDataSteps): Promise<void> {
  const { db, kind } = database;
  // Never run (or half-run) an older version on data a newer one already changed.
  const newer = unknownMigrations(await appliedMigrations(database));
  if (newer.length) {
    throw new NewerDatabaseError(
      `La base de datos es de una versión más nueva de Comanda (tiene la migración ${newer.join(', ')}, que esta versión no conoce). ` +
        'No se modificó nada. Instala la versión más reciente de Comanda o restaura un respaldo hecho con esta versión.',
    );
  }
  const migrator = new Migrator({ db, provider: new StaticProvider(kind, steps) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`La migración de la base de datos falló: ${reason}`);
  }
  // PostgreSQL's functions (db/functions), made again whenever their text changed.
  if (kind === 'postgres') {
    await applySqlFunctions(database).catch((cause: unknown) => {
      throw new Error(`La migración de la base de datos falló: ${cause instanceof Error ? cause.message : String(cause)}`);
    });
  }
}

/**
 * Tests only: runs the migrations up to `name` included and stops there, so a migration's test can
 * insert the rows as they were stored before it and then run migrateToLatest.
 */
export async function migrateUpTo(database: Db, steps: MigrationDataSteps, name: string): Promise<void> {
  const migrator = new Migrator({ db: database.db, provider: new StaticProvider(database.kind, steps) });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
