import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { SeriesHistogram, type Series } from './series-histogram.ts';
import type { AppContext } from '../http/context.ts';
import { backupStatus } from './backup-schedule.ts';

/**
 * Prometheus metrics for one server (its own registry: tests build many apps in one process).
 * Request latency per route, live sockets, database query timings, the last backup, and the
 * process defaults (memory, event loop lag, CPU).
 */
export interface Metrics {
  registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

function statementKind(sql: string): string {
  const word = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? 'other';
  return ['select', 'insert', 'update', 'delete', 'with'].includes(word) ? word : 'other';
}

export function createMetrics(ctx: AppContext): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'comanda_' });
  const requests = new SeriesHistogram(
    'comanda_http_request_duration_seconds',
    'HTTP request latency by route (the route pattern, never the raw URL)',
    ['method', 'route', 'status'],
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  );
  registry.registerMetric(requests as never);
  const queries = new SeriesHistogram(
    'comanda_db_query_duration_seconds',
    'Database query time by statement kind',
    ['kind'],
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  );
  registry.registerMetric(queries as never);
  const errors = new Counter({
    name: 'comanda_http_server_errors_total',
    help: 'Responses with a 5xx status',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  /** A gauge read when scraped: a running figure the server keeps anyway. */
  const reading = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  reading('comanda_live_sockets', 'Open live (WebSocket) connections', () => ctx.live.size);
  reading('comanda_backup_last_timestamp_seconds', 'Time of the newest scheduled backup (0: none)', () => {
    const last = backupStatus(ctx).last;
    return last ? last.at / 1000 : 0;
  });
  reading('comanda_backup_stale', '1 when the newest backup is older than twice BACKUP_EVERY', () => (backupStatus(ctx).stale ? 1 : 0));
  const groups = ctx.db.groupCommits;
  if (groups) {
    reading('comanda_sqlite_commit_groups', 'SQLite COMMITs of transaction groups so far', () => groups.groups);
    reading('comanda_sqlite_grouped_transactions', 'SQLite transactions committed in those groups so far', () => groups.members);
    reading(
      'comanda_sqlite_busy_seconds',
      'Seconds the event loop spent inside SQLite so far, every statement and COMMIT included',
      () => groups.busyMs / 1000,
    );
    reading(
      'comanda_sqlite_commit_seconds',
      "Seconds of those spent in the groups' COMMITs (writing their pages, waiting for the disk)",
      () => groups.commitMs / 1000,
    );
    reading('comanda_sqlite_writes_alone', 'SQLite writes outside any transaction so far, each its own COMMIT', () => groups.alone);
  }
  const checkpointer = ctx.db.checkpointer;
  if (checkpointer)
    reading(
      'comanda_sqlite_checkpointed_pages',
      "Pages of SQLite's log found copied into the database file at the checkpoint thread's passes so far",
      () => checkpointer.pages,
    );
  const quick = ctx.db.quickAdds;
  if (quick) {
    reading('comanda_quick_adds', 'Item adds made in one statement so far (PostgreSQL)', () => quick.taken);
    reading(
      'comanda_quick_add_handovers',
      'Item adds the one statement handed to the TypeScript add so far (not the plain case, or a session to read again)',
      () => quick.handedOver,
    );
    reading('comanda_quick_add_groups', 'Statements that carried several item adds so far (PostgreSQL)', () => quick.groups);
    reading('comanda_quick_add_grouped', 'Item adds sent in those statements so far', () => quick.grouped);
  }
  const deletes = ctx.db.quickDeletes;
  if (deletes) {
    reading('comanda_quick_deletes', 'Deletes with PIN made in one statement so far (PostgreSQL)', () => deletes.taken);
    reading(
      'comanda_quick_delete_handovers',
      'Deletes with PIN the one statement handed to the TypeScript delete so far',
      () => deletes.handedOver,
    );
  }
  // Each query goes straight to its series, found once per SQL text (its kind is a regex away).
  const byStatement = new Map<string, Series>();
  ctx.db.onQuery = (ms, sql) => {
    let series = byStatement.get(sql);
    if (!series) {
      series = queries.series({ kind: statementKind(sql) });
      if (byStatement.size < 2000) byStatement.set(sql, series);
    }
    series.observe(ms / 1000);
  };
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.series({ method, route, status: String(status) }).observe(seconds);
      if (status >= 500) errors.inc({ route });
    },
  };
}
