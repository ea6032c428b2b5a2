import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** What a queued line looks like on the order screen before the server has it. */
export interface PendingPreview {
  productName: string;
  quantity: number;
  productPrice: number | null;
  notes: string | null;
  /** The chosen modifier options as they read; absent for none. */
  modifiers?: string[];
}

export interface OutboxEntry {
  /** The Idempotency-Key, made when the waiter acted: the same on every retry. */
  id: string;
  /** Send order. */
  seq: number;
  userId: string;
  tableId: string;
  orderId: string;
  kind: 'add-item' | 'add-units' | 'update-order';
  method: 'POST' | 'PATCH';
  path: string;
  body: unknown;
  /** Extra request headers (the item writes ask for the light answer); absent on older entries. */
  headers?: Record<string, string>;
  /** What the waiter sees in a "no enviado" notice. */
  label: string;
  preview: PendingPreview | null;
  state: 'pending' | 'failed';
  error: string | null;
  createdAt: number;
}

interface OutboxDb extends DBSchema {
  entries: { key: string; value: OutboxEntry; indexes: { seq: number } };
}

let db: Promise<IDBPDatabase<OutboxDb>> | null = null;

function open(): Promise<IDBPDatabase<OutboxDb>> {
  db ??= openDB<OutboxDb>('comanda-outbox', 1, {
    upgrade(database) {
      database.createObjectStore('entries', { keyPath: 'id' }).createIndex('seq', 'seq');
    },
  });
  return db;
}

/** IndexedDB survives a reload and a closed tab: nothing the waiter did is kept only in memory. */
export const store = {
  all: async (): Promise<OutboxEntry[]> => (await open()).getAllFromIndex('entries', 'seq'),
  put: async (entry: OutboxEntry): Promise<void> => void (await (await open()).put('entries', entry)),
  remove: async (id: string): Promise<void> => (await open()).delete('entries', id),
};
