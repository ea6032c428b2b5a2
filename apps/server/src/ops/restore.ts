import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { KNOWN_MIGRATIONS } from '../db/migrate.ts';
import { PRIVATE_FILE, restrictMode } from '../db/private-files.ts';
import { inspectDatabaseFile, isComanda, isSound, type DatabaseFileReport } from './backup.ts';
import { liveServerLock } from './server-lock.ts';

export interface RestoreResult {
  report: DatabaseFileReport;
  /** Where the database that was replaced now lives (null: there was none). */
  replacedAs: string | null;
}

function stamp(at: number): string {
  return new Date(at)
    .toISOString()
    .replaceAll(':', '')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * Puts a backup in place of the SQLite database: refuses while a server runs on the same data,
 * checks the file (integrity, a Comanda migration table, not from a newer version) on a copy,
 * and keeps the replaced database aside as `<file>.replaced-<time>`.
 */
export function restoreSqlite(opts: { from: string; dbFile: string; dataDir: string; now: number }): RestoreResult {
  const { from, dbFile, dataDir, now } = opts;
  const running = liveServerLock(dataDir);
  if (running) {
    throw new Error(
      `Hay un servidor de Comanda en marcha con estos datos (proceso ${running.pid}). ` +
        'Detenlo antes de restaurar (por ejemplo: sudo systemctl stop comanda) y vuelve a intentarlo.',
    );
  }
  if (!existsSync(from)) throw new Error(`No existe el archivo ${from}.`);
  // Checked on a copy next to the database: the backup itself is never modified.
  const incoming = `${dbFile}.restoring`;
  rmSync(incoming, { force: true });
  copyFileSync(from, incoming);
  restrictMode(incoming, PRIVATE_FILE); // a copy keeps the backup's mode; the database is owner-only
  try {
    let report: DatabaseFileReport;
    try {
      report = inspectDatabaseFile(incoming, { readonly: false });
    } catch (error) {
      throw new Error(`${from} no es una base de datos SQLite legible (${(error as Error).message}).`);
    }
    if (!isSound(report)) throw new Error(`${from} no pasó la verificación de integridad: ${report.integrity.slice(0, 3).join('; ')}`);
    if (!isComanda(report)) throw new Error(`${from} no es una base de datos de Comanda (no tiene su tabla de migraciones).`);
    const newer = report.migrations.filter((m) => !KNOWN_MIGRATIONS.includes(m));
    if (newer.length) throw new Error(`${from} es de una versión más nueva de Comanda (${newer.join(', ')}); actualiza Comanda primero.`);
    let replacedAs: string | null = null;
    if (existsSync(dbFile)) {
      // Fold the write-ahead log into the file first (one self-contained file), so the copy kept aside is complete.
      const current = new SQLite(dbFile, { fileMustExist: true });
      current.pragma('journal_mode = DELETE');
      current.close();
      replacedAs = `${dbFile}.replaced-${stamp(now)}`;
      renameSync(dbFile, replacedAs);
    }
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(dbFile + suffix, { force: true });
    renameSync(incoming, dbFile);
    return { report: { ...report, file: dbFile }, replacedAs };
  } finally {
    rmSync(incoming, { force: true });
  }
}
