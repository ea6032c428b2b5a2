import { closeSync, fsyncSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { storageFailure, type StorageProblem } from '../db/unavailable.ts';

/**
 * At start, the folders Comanda writes to (DATA_DIR, and the SQLite file's folder) must take a
 * file: a read-only mount, a full disk or a folder owned by someone else stops the start with a
 * Spanish explanation instead of a raw EROFS or a 500 on the first sale.
 */
export class DataFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFolderError';
  }
}

const WHAT: Record<StorageProblem, (dir: string) => string> = {
  readOnly: (dir) =>
    `La carpeta de datos ${dir} es de solo lectura: Comanda no puede guardar nada en ella. ` +
    'Móntala con permiso de escritura o indica otra carpeta con DATA_DIR.',
  full: (dir) =>
    `El disco de la carpeta de datos ${dir} está lleno: Comanda no puede guardar nada. ` +
    'Libera espacio (por ejemplo, respaldos antiguos en otro disco) y vuelve a iniciarlo.',
  denied: (dir) =>
    `Comanda no tiene permiso de escribir en la carpeta de datos ${dir}. ` +
    'Da permiso de escritura al usuario que ejecuta Comanda o indica otra carpeta con DATA_DIR.',
  failing: (dir) => `El disco de la carpeta de datos ${dir} falla al escribir. Revisa el disco y vuelve a iniciar Comanda.`,
};

/** The Spanish explanation of `error` when it is a disk's refusal in `dir`, else null. */
export function explainDataFolder(error: unknown, dir: string): DataFolderError | null {
  if (error instanceof DataFolderError) return error;
  const failure = storageFailure(error);
  if (failure) return new DataFolderError(`${WHAT[failure.problem](dir)} (${failure.code})`);
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    return new DataFolderError(`La carpeta de datos ${dir} no es una carpeta: hay un archivo con ese nombre. Indica otra con DATA_DIR.`);
  }
  return null;
}

/** Creates each folder if missing and writes, syncs and removes a small file in it; throws DataFolderError. */
export function checkDataFolders(dirs: string[]): void {
  for (const dir of new Set(dirs)) {
    const probe = join(dir, `.comanda-escritura-${process.pid}`);
    try {
      mkdirSync(dir, { recursive: true });
      const fd = openSync(probe, 'w');
      try {
        // A page's worth: a full disk refuses it where an empty file would still be created.
        writeSync(fd, Buffer.alloc(4096));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      rmSync(probe, { force: true });
      throw explainDataFolder(error, dir) ?? error;
    }
    rmSync(probe, { force: true });
  }
}
