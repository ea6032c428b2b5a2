import { spawnTsProcess, type TsProcess } from '../../src/testing/index.ts';

export { REPO_ROOT, freePort } from '../../src/testing/index.ts';
export type ServerProcess = TsProcess;

/** The real server as production runs it (`tsx apps/server/src/main.ts`), in its own process. */
export function startServerProcess(env: Record<string, string>, port: number, timeoutMs = 60_000): Promise<ServerProcess> {
  return spawnTsProcess('apps/server/src/main.ts', { WEB_DIST: '/nonexistent-web-dist', ...env }, port, '/api/health', timeoutMs);
}
