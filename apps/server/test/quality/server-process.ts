import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freePort, spawnTsProcess, type TsProcess } from '../../src/testing/index.ts';

export { REPO_ROOT, freePort } from '../../src/testing/index.ts';
export type ServerProcess = TsProcess;

/** The real server from its sources (`tsx apps/server/src/main.ts`; production runs the same code built, decision 0034), in its own process. */
export function startServerProcess(env: Record<string, string>, port: number, timeoutMs = 60_000): Promise<ServerProcess> {
  return spawnTsProcess('apps/server/src/main.ts', { WEB_DIST: '/nonexistent-web-dist', ...env }, port, '/api/health', timeoutMs);
}

/** A server process on SQLite in a temporary folder of its own (see serverProcessOnTempSqlite). */
export interface TempSqliteServer {
  /** The process now running: the last one started. */
  readonly current: ServerProcess;
  /** The database the process runs on, for a direct connection. */
  readonly databaseUrl: string;
  /** Starts the server again on the same data and port (after a stop or a kill -9). */
  restart(): Promise<ServerProcess>;
}

/**
 * For a describe block: a server process on SQLite in a new temporary folder (`folderPrefix`),
 * its env DATABASE_URL and DATA_DIR there plus `env`, started before the block's tests; after
 * them the process then running is stopped and the folder removed.
 */
export function serverProcessOnTempSqlite(folderPrefix: string, env: Record<string, string>): TempSqliteServer {
  let dir = '';
  let fullEnv: Record<string, string> = {};
  let port = 0;
  let server: ServerProcess | null = null;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), folderPrefix));
    fullEnv = { DATABASE_URL: `sqlite:${join(dir, 'pos.db')}`, DATA_DIR: dir, ...env };
    port = await freePort();
    server = await startServerProcess(fullEnv, port);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get current() {
      if (!server) throw new Error('the server process starts in beforeAll');
      return server;
    },
    get databaseUrl() {
      return fullEnv.DATABASE_URL!;
    },
    restart: async () => (server = await startServerProcess(fullEnv, port)),
  };
}
