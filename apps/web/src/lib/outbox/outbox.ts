import { connection } from '../connection.ts';
import { newId } from '../ids.ts';
import { sendEntry } from './send.ts';
import { store, type OutboxEntry } from './store.ts';

export type Draft = Omit<OutboxEntry, 'id' | 'seq' | 'userId' | 'state' | 'error' | 'createdAt'>;
type Event = { type: 'sent'; entry: OutboxEntry; body: unknown } | { type: 'refused'; entry: OutboxEntry };

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 15_000;

let entries: OutboxEntry[] = [];
let userId: string | null = null;
let loaded: Promise<void> | null = null;
let draining = false;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let failures = 0;
let lastSeq = 0;
const changeListeners = new Set<() => void>();
const eventListeners = new Set<(e: Event) => void>();

function changed(): void {
  entries = [...entries];
  for (const l of changeListeners) l();
}

function nextSeq(): number {
  lastSeq = Math.max(Date.now() * 1000, lastSeq + 1);
  return lastSeq;
}

function retryLater(): void {
  failures += 1;
  if (retryTimer) clearTimeout(retryTimer);
  const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(failures - 1, 6));
  retryTimer = setTimeout(() => void outbox.drain(), delay);
}

const mine = (e: OutboxEntry) => e.userId === userId;

/**
 * The waiter's actions that can wait for the network, kept in IndexedDB and sent one at a time,
 * in the order they were made, each under the Idempotency-Key made with it: a retry (also of a
 * request whose answer was lost) never writes twice. A 4xx is kept as "no enviado" with its
 * reason until the waiter dismisses it; no answer or a 5xx is retried with backoff.
 */
export const outbox = {
  /** Loads what an earlier page left and starts sending for the signed-in user. */
  start(user: string | null): Promise<void> {
    userId = user;
    loaded ??= store
      .all()
      .then((saved) => {
        const known = new Set(entries.map((e) => e.id));
        entries = [...saved.filter((e) => !known.has(e.id)), ...entries].sort((a, b) => a.seq - b.seq);
        lastSeq = Math.max(lastSeq, ...entries.map((e) => e.seq));
      })
      .catch(() => undefined);
    return loaded.then(() => {
      changed();
      void outbox.drain();
    });
  },
  snapshot: (): OutboxEntry[] => entries,
  subscribe(listener: () => void): () => void {
    changeListeners.add(listener);
    return () => changeListeners.delete(listener);
  },
  onEvent(listener: (e: Event) => void): () => void {
    eventListeners.add(listener);
    return () => eventListeners.delete(listener);
  },
  /** True while this user has actions waiting: new ones queue behind them to keep the order. */
  hasPending: (): boolean => entries.some((e) => mine(e) && e.state === 'pending'),
  get user(): string | null {
    return userId;
  },

  async enqueue(draft: Draft, id: string = newId()): Promise<OutboxEntry> {
    if (!userId) throw new Error('outbox used before sign-in');
    const entry: OutboxEntry = { ...draft, id, seq: nextSeq(), userId, state: 'pending', error: null, createdAt: Date.now() };
    await store.put(entry);
    entries.push(entry);
    changed();
    void outbox.drain();
    return entry;
  },

  async dismiss(id: string): Promise<void> {
    await store.remove(id);
    entries = entries.filter((e) => e.id !== id);
    changed();
  },

  async drain(): Promise<void> {
    if (draining || !userId) return;
    draining = true;
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    try {
      for (;;) {
        if (connection.isOffline()) return; // the probe says when it is back (see start's listener)
        const entry = entries.find((e) => mine(e) && e.state === 'pending');
        if (!entry) return;
        const outcome = await sendEntry(entry);
        if (outcome.kind === 'retry') {
          if (outcome.network) connection.reportFailure();
          retryLater();
          return;
        }
        if (outcome.kind === 'signed-out') return;
        failures = 0;
        if (outcome.kind === 'sent') {
          await store.remove(entry.id);
          entries = entries.filter((e) => e.id !== entry.id);
          changed();
          for (const l of eventListeners) l({ type: 'sent', entry, body: outcome.body });
        } else {
          const failed: OutboxEntry = { ...entry, state: 'failed', error: outcome.message || `Error ${outcome.status}` };
          await store.put(failed);
          entries = entries.map((e) => (e.id === entry.id ? failed : e));
          changed();
          for (const l of eventListeners) l({ type: 'refused', entry: failed });
        }
      }
    } finally {
      draining = false;
    }
  },
};

// The server is back: send what waited at once. After repeated failures the backoff timer
// decides instead, so a route that fails while /api/health answers is not hammered.
connection.subscribe(() => {
  if (!connection.isOffline() && failures < 3) void outbox.drain();
});
