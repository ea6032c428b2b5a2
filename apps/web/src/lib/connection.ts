import { useSyncExternalStore } from 'react';
import { liveClient } from './live.ts';

export type Reachability = 'online' | 'offline';

const PROBE_FIRST_MS = 400;
const PROBE_MAX_MS = 4_000;
const PROBE_TIMEOUT_MS = 3_000;

let state: Reachability = 'online';
let attempt = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let probing = false;
/** A check asked for while a probe was out: that probe may predate the network coming back. */
let recheck = false;
const listeners = new Set<() => void>();
let wired = false;

function set(next: Reachability): void {
  if (state === next) return;
  state = next;
  for (const l of listeners) l();
}

function schedule(delay: number): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => void probe(), delay);
}

/** Asks /api/health; while it fails, asks again with a growing pause (0.4 s, 0.8 s, … 4 s). */
async function probe(): Promise<void> {
  if (probing) {
    recheck = true;
    return;
  }
  probing = true;
  recheck = false;
  timer = null;
  let ok = false;
  try {
    const res = await fetch('/api/health', { cache: 'no-store', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    ok = res.ok;
  } catch {
    ok = false;
  } finally {
    probing = false;
  }
  if (ok) {
    attempt = 0;
    set('online');
    return;
  }
  set('offline');
  attempt += 1;
  schedule(recheck ? 0 : Math.min(PROBE_MAX_MS, PROBE_FIRST_MS * 2 ** (attempt - 1)));
}

/** The browser, the live socket and every request tell us when the server is out of reach. */
function wire(): void {
  if (wired || typeof window === 'undefined') return;
  wired = true;
  window.addEventListener('offline', () => connection.reportFailure());
  window.addEventListener('online', () => connection.check());
  liveClient.onStatus((s) => {
    if (s === 'closed') connection.check();
    // A socket whose handshake finished just as the Wi-Fi dropped opens after the browser said
    // 'offline': that is no proof the server is reachable, so the probe decides.
    else if (s === 'open') {
      if (navigator.onLine === false) connection.check();
      else connection.reportReachable();
    }
  });
}

/**
 * Whether the server answers. A request that fails without an answer (or a closed live socket
 * whose probe fails) turns it 'offline' at once; the health probe turns it back.
 */
export const connection = {
  get: (): Reachability => state,
  isOffline: (): boolean => state === 'offline',
  subscribe(listener: () => void): () => void {
    wire();
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** A request got no answer at all: offline until a probe reaches the server. */
  reportFailure(): void {
    wire();
    set('offline');
    if (!timer && !probing) schedule(PROBE_FIRST_MS);
  },
  reportReachable(): void {
    attempt = 0;
    if (timer) clearTimeout(timer);
    timer = null;
    set('online');
  },
  /** Probe now (the socket closed, the browser says it is back). */
  check(): void {
    wire();
    if (timer) clearTimeout(timer);
    void probe();
  },
};

export function useReachability(): Reachability {
  return useSyncExternalStore(connection.subscribe, connection.get, connection.get);
}
