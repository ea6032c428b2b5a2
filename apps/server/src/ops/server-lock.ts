import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * DATA_DIR/comanda.pid: written by a running server (main.ts) at start and removed at stop, so
 * `restore` can refuse to swap the database under a live server. A file left by a crash (kill -9,
 * power cut) names a process that no longer exists and is ignored.
 */
export const LOCK_FILE = 'comanda.pid';

export interface ServerLock {
  pid: number;
  startedAt: number;
  database: string;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user (a service account): still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The server holding DATA_DIR, if one is running. */
export function liveServerLock(dataDir: string): ServerLock | null {
  let lock: ServerLock;
  try {
    lock = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as ServerLock;
  } catch {
    return null;
  }
  return alive(lock.pid) && lock.pid !== process.pid ? lock : null;
}

/** Takes DATA_DIR for this process; refuses when another live server holds it. Returns the release. */
export function acquireServerLock(dataDir: string, database: string, now: number): () => void {
  const other = liveServerLock(dataDir);
  if (other) {
    throw new Error(
      `Ya hay un servidor de Comanda en marcha con esta carpeta de datos (${dataDir}, proceso ${other.pid}). ` +
        'Detenlo antes de iniciar otro.',
    );
  }
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  writeFileSync(file, JSON.stringify({ pid: process.pid, startedAt: now, database } satisfies ServerLock));
  return () => {
    try {
      const held = JSON.parse(readFileSync(file, 'utf8')) as ServerLock;
      if (held.pid === process.pid) rmSync(file, { force: true });
    } catch {
      /* already gone */
    }
  };
}
