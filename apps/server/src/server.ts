import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { connect } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { reportDataSteps } from './model/reports/rollup-backfill.ts';
import { buildApp, type BuildOptions } from './app.ts';
import type { AppContext } from './http/context.ts';
import { systemClock, type Clock } from './http/clock.ts';
import { LiveHub } from './live/hub.ts';
import { startPgBridge } from './live/pg-bridge.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createPinHasher } from './auth/pin.ts';
import { createThrottle } from './auth/throttle.ts';
import { loadPinKey } from './auth/pin-key.ts';
import { onServerStart, onServerStop } from './features/lifecycle.ts';
import { installDrain } from './ops/graceful.ts';

export interface ServerOptions {
  config: Config;
  clock?: Clock;
  mailer?: Mailer;
  webDist?: string | null;
  logger?: boolean;
  log?: (line: string) => void;
  /** See BuildOptions.onRoute. */
  onRoute?: BuildOptions['onRoute'];
}

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
  /** Before close() on SIGTERM: answers with Connection: close until clients let go (ops/graceful.ts). */
  drain(maxMs: number): Promise<void>;
}

export async function createServer(opts: ServerOptions): Promise<RunningServer> {
  const { config } = opts;
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? ((line: string) => console.log(line));
  const db = connect(config.DATABASE_URL);
  await migrateToLatest(db, reportDataSteps).catch(async (error: unknown) => {
    await db.close(); // a refused (newer) or failed migration leaves no connection behind
    throw error;
  });
  const pinKey = await loadPinKey(db, { envValue: config.PIN_SECRET, dataDir: config.DATA_DIR, now: clock.now() }).catch(
    async (error: unknown) => {
      await db.close(); // a missing or foreign PIN key stops the start (auth/pin-key.ts)
      throw error;
    },
  );
  const live = new LiveHub();
  if (db.kind === 'postgres') live.setBridge(await startPgBridge(db.url, live));
  const ctx: AppContext = {
    config,
    db,
    clock,
    live,
    mailer:
      opts.mailer ?? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: join(config.DATA_DIR, 'outbox'), log }),
    pins: createPinHasher(pinKey),
    throttle: createThrottle(db, clock),
    services: new Map(),
  };
  const app = await buildApp({ ctx, webDist: opts.webDist ?? null, logger: opts.logger ?? false, onRoute: opts.onRoute });
  const drain = installDrain(app);
  await onServerStart(ctx, log);
  return {
    app,
    ctx,
    drain,
    /**
     * Graceful stop: live sockets are told to reconnect (1012), the listener stops taking
     * connections while in-flight requests finish, then features stop and the database closes.
     */
    async close() {
      await live.close();
      await app.close();
      await onServerStop(ctx);
      await db.close();
    },
  };
}
