import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * Files that hold the business's data or keys (the database and its -wal/-shm, backups, the PIN
 * key) are readable by their owner only (0600), and their folders 0700, whatever the umask.
 * SQLite gives a new -wal/-shm/-journal the mode of its database file, so fixing the file suffices.
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/** chmod that tolerates file systems without Unix modes (a FAT USB disk refuses it with EPERM). */
export function restrictMode(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOENT') throw error;
  }
}

/** Creates `file` empty and private when it does not exist, and makes an existing one private. */
export function privateFile(file: string): void {
  if (!existsSync(file)) {
    try {
      closeSync(openSync(file, 'wx', PRIVATE_FILE));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  restrictMode(file, PRIVATE_FILE);
}

/** Creates a folder (and missing parents) private; an existing one is left as it is. */
export function privateDir(dir: string): void {
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  restrictMode(dir, PRIVATE_DIR);
}
