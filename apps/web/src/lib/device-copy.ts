import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** One query's data as last read from the server, and when. */
export interface DeviceCopy {
  key: string;
  data: unknown;
  savedAt: number;
}

interface CopyDb extends DBSchema {
  copies: { key: string; value: DeviceCopy };
}

let db: Promise<IDBPDatabase<CopyDb>> | null = null;

function open(): Promise<IDBPDatabase<CopyDb>> {
  db ??= openDB<CopyDb>('comanda-device', 1, {
    upgrade(database) {
      database.createObjectStore('copies', { keyPath: 'key' });
    },
  });
  return db;
}

/**
 * What a phone keeps of the server's answers for when the Wi-Fi drops (the catalogue): IndexedDB,
 * like the outbox, so it outlives a reload. A browser that refuses storage just keeps nothing.
 */
export const deviceCopies = {
  all: (): Promise<DeviceCopy[]> =>
    open()
      .then((d) => d.getAll('copies'))
      .catch(() => []),
  put: (copy: DeviceCopy): Promise<void> =>
    open()
      .then((d) => d.put('copies', copy))
      .then(
        () => undefined,
        () => undefined,
      ),
};
