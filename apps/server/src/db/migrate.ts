import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db, DbKind } from './connect.ts';
import { initial } from './migrations/0001-initial.ts';
import { cardReview } from './migrations/0002-card-review.ts';
import { ticketSearch } from './migrations/0006-ticket-search.ts';

function migrationsFor(kind: DbKind): Record<string, Migration> {
  return { '0001-initial': initial(kind), '0002-card-review': cardReview(), '0006-ticket-search': ticketSearch(kind) };
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly kind: DbKind) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrationsFor(this.kind));
  }
}

/** Brings the schema up to date; runs on every start, for both databases. */
export async function migrateToLatest({ db, kind }: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: new StaticProvider(kind) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`La migración de la base de datos falló: ${reason}`);
  }
}
