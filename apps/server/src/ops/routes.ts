import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BackupStatusSchema } from '@comanda/contract';
import { ADMIN, isAllowed } from '../http/access.ts';
import { forbidden, unauthorized } from '../http/errors.ts';
import { resolveSession, sessionToken } from '../auth/sessions.ts';
import { appliedMigrations, KNOWN_MIGRATIONS, unknownMigrations } from '../db/migrate.ts';
import { backupStatus } from './backup-schedule.ts';
import { createMetrics } from './metrics.ts';
import { noteWriteSucceeded, storageHealth } from '../http/storage-health.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Scrapers on the machine itself, or a signed-in administrator. request.ip honours TRUST_PROXY. */
async function metricsAllowed(request: FastifyRequest): Promise<void> {
  if (LOOPBACK.test(request.ip)) return;
  const session = await resolveSession(request.server.ctx, sessionToken(request.cookies));
  if (!session) throw unauthorized();
  if (!isAllowed(ADMIN, session.user.role)) throw forbidden();
}

/**
 * Operations: /api/health (probe), /api/backups (Configuración › Respaldos), /metrics (Prometheus).
 * Installed on the root instance (not a plugin) before the other routes, so that the latency hook
 * sees every route.
 */
export function installOpsRoutes(base: FastifyInstance): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const metrics = createMetrics(ctx);
  const started = Date.now();

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'sin-ruta';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (reply.statusCode < 300 && request.method !== 'GET' && request.method !== 'HEAD') noteWriteSucceeded(ctx);
    done();
  });

  // Public: load balancers and systemd watchdogs probe it. The first two fields are the original
  // shape ({ ok, database }); the rest was added for operations.
  app.get('/api/health', { config: { access: 'public' } }, async (_request, reply) => {
    const t0 = performance.now();
    let reachable = true;
    let applied: string[] = [];
    try {
      await ctx.db.db.selectFrom('config').select('key').limit(1).execute();
      applied = await appliedMigrations(ctx.db);
    } catch {
      reachable = false;
    }
    const newer = unknownMigrations(applied);
    const pending = KNOWN_MIGRATIONS.filter((m) => !applied.includes(m)).length;
    const backup = backupStatus(ctx);
    // Degraded (the disk refused a write since the last one it took) still answers 200: reads are
    // served, and the web app takes a non-2xx probe for "no connection". `ok` and `status` say it.
    const storage = storageHealth(ctx);
    if (!reachable) reply.code(503);
    return {
      ok: reachable && storage.state === 'ok',
      status: !reachable ? 'unavailable' : storage.state,
      database: ctx.db.kind,
      databaseReachable: reachable,
      databaseMs: Math.round((performance.now() - t0) * 10) / 10,
      migrations: {
        state: !reachable ? 'unknown' : newer.length ? 'newer' : pending ? 'pending' : 'current',
        applied: applied.length,
        known: KNOWN_MIGRATIONS.length,
      },
      backup: {
        enabled: backup.enabled,
        lastAt: backup.last?.at ?? null,
        stale: backup.stale,
      },
      lastWriteFailure: storage.lastWriteFailure,
      uptimeSeconds: Math.round((Date.now() - started) / 1000),
      // TODO(printing): once the print queue lands, report it here from its own module
      // (e.g. printQueue: { pending, oldestAgeMs, failing }), never a placeholder number.
    };
  });

  app.get('/api/backups', { config: { access: ADMIN }, schema: { response: { 200: BackupStatusSchema } } }, async () => backupStatus(ctx));

  // Not under /api: Prometheus scrapes /metrics. Access is checked here (loopback or admin).
  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    await metricsAllowed(request);
    reply.header('cache-control', 'no-store');
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
