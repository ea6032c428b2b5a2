import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppContext } from '../http/context.ts';
import { sqliteFileOf } from './backup.ts';
import { PRIVATE_DIR, restrictMode } from '../db/private-files.ts';
import { backupFileName, backupTimeOf, planRotation } from './rotation.ts';

/** The first scheduled backup waits at least this long after a start (tests and restarts stay quiet). */
const FIRST_DELAY_MS = 60_000;

export interface LastBackup {
  at: number;
  bytes: number;
  file: string;
}

export interface BackupStatus {
  /** 'sqlite': the server makes them; 'postgres': pg_dump does (docs/install.md). */
  kind: 'sqlite' | 'postgres';
  enabled: boolean;
  everyMs: number | null;
  dir: string | null;
  last: LastBackup | null;
  /** The last backup is older than twice the interval (or none exists after that long). */
  stale: boolean;
  lastError: string | null;
}

interface State {
  dir: string;
  everyMs: number;
  startedAt: number;
  last: LastBackup | null;
  lastError: string | null;
  timer: ReturnType<typeof setTimeout> | null;
  running: Promise<void> | null;
  stopped: boolean;
}

const KEY = 'backups';

export function backupDir(ctx: AppContext): string {
  return resolve(ctx.config.BACKUP_DIR ?? join(ctx.config.DATA_DIR, 'backups'));
}

/** The newest scheduled backup in the folder (by the time in its name). */
export function newestBackup(dir: string): LastBackup | null {
  let best: LastBackup | null = null;
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  for (const name of names) {
    const at = backupTimeOf(name);
    if (at === null || (best && best.at >= at)) continue;
    try {
      best = { at, bytes: statSync(join(dir, name)).size, file: join(dir, name) };
    } catch {
      /* removed meanwhile */
    }
  }
  return best;
}

// From source (tsx, Vitest) this module is src/ops/backup-schedule.ts and the child runs src/cli.ts
// through tsx; in the built server (scripts/build-server.mjs) it is part of dist/main.js, beside
// dist/cli.js, which plain node runs.
const BUILT = !import.meta.url.endsWith('.ts');
const CLI = fileURLToPath(new URL(BUILT ? './cli.js' : '../cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL(BUILT ? '../../../' : '../../../../', import.meta.url));
const CLI_NODE_ARGS = BUILT ? ['--enable-source-maps', CLI] : ['--import', 'tsx', CLI];
const CHILD_TIMEOUT_MS = 10 * 60_000;

/**
 * The copy and its integrity check are synchronous SQLite work (about a second for 50 MB): run
 * them as the `backup` command in a child process, so the server's event loop never stalls.
 */
function backupInChild(source: string, dataDir: string, dest: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...CLI_NODE_ARGS, 'backup', '--to', dest], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${resolve(source)}`, DATA_DIR: resolve(dataDir), BACKUP_EVERY: 'off' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) done();
      else fail(new Error(stderr.trim() || `el proceso de respaldo terminó con código ${code}`));
    });
  });
}

const FS_REASONS: Record<string, string> = {
  ENOENT: 'la carpeta no existe (¿el disco USB está conectado?)',
  EACCES: 'sin permiso para escribir en la carpeta',
  EPERM: 'sin permiso para escribir en la carpeta',
  ENOSPC: 'el disco está lleno',
  EROFS: 'el disco es de solo lectura',
  EEXIST: 'hay un archivo en lugar de la carpeta',
  ENOTDIR: 'hay un archivo en lugar de la carpeta',
};

function describeFailure(error: unknown, dir: string): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code && FS_REASONS[code]) return `${dir}: ${FS_REASONS[code]} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/** One scheduled backup now, then the rotation. */
export async function runScheduledBackup(ctx: AppContext, state: Pick<State, 'dir' | 'last' | 'lastError'>): Promise<void> {
  const source = sqliteFileOf(ctx.db.url);
  if (!source) return;
  const now = ctx.clock.now();
  try {
    mkdirSync(state.dir, { recursive: true, mode: PRIVATE_DIR });
    restrictMode(state.dir, PRIVATE_DIR); // owner-only whatever the umask, also a folder made before
    const file = join(state.dir, backupFileName(now));
    await backupInChild(source, ctx.config.DATA_DIR, file);
    state.last = { at: now, bytes: statSync(file).size, file };
    state.lastError = null;
    for (const name of planRotation(readdirSync(state.dir)).remove) rmSync(join(state.dir, name), { force: true });
  } catch (error) {
    state.lastError = describeFailure(error, state.dir);
  }
}

export async function startBackups(ctx: AppContext, log: (line: string) => void): Promise<void> {
  const everyMs = ctx.config.BACKUP_EVERY;
  if (ctx.db.kind !== 'sqlite' || everyMs === null) return;
  const dir = backupDir(ctx);
  const now = ctx.clock.now();
  const state: State = {
    dir,
    everyMs,
    startedAt: now,
    last: newestBackup(dir),
    lastError: null,
    timer: null,
    running: null,
    stopped: false,
  };
  ctx.services.set(KEY, state);
  const schedule = (delay: number) => {
    if (state.stopped) return;
    state.timer = setTimeout(() => {
      state.running = runScheduledBackup(ctx, state).finally(() => {
        state.running = null;
        if (state.lastError) log(`Respaldo automático falló: ${state.lastError}`);
        schedule(everyMs);
      });
    }, delay);
    state.timer.unref();
  };
  const due = state.last ? state.last.at + everyMs - now : 0;
  schedule(Math.max(FIRST_DELAY_MS, due));
}

export async function stopBackups(ctx: AppContext): Promise<void> {
  const state = ctx.services.get(KEY) as State | undefined;
  if (!state) return;
  state.stopped = true;
  if (state.timer) clearTimeout(state.timer);
  await state.running;
}

/** For Configuración › Respaldos and /api/health. */
export function backupStatus(ctx: AppContext): BackupStatus {
  const state = ctx.services.get(KEY) as State | undefined;
  if (ctx.db.kind !== 'sqlite')
    return { kind: 'postgres', enabled: false, everyMs: null, dir: null, last: null, stale: false, lastError: null };
  if (!state) {
    return {
      kind: 'sqlite',
      enabled: false,
      everyMs: null,
      dir: backupDir(ctx),
      last: newestBackup(backupDir(ctx)),
      stale: false,
      lastError: null,
    };
  }
  const now = ctx.clock.now();
  const since = state.last?.at ?? state.startedAt;
  return {
    kind: 'sqlite',
    enabled: true,
    everyMs: state.everyMs,
    dir: state.dir,
    last: state.last,
    stale: now - since > 2 * state.everyMs,
    lastError: state.lastError,
  };
}
