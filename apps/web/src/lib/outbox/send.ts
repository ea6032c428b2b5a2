import type { OutboxEntry } from './store.ts';

const TIMEOUT_MS = 10_000;

export type Outcome =
  | { kind: 'sent'; body: unknown }
  /** The server refused it for good (4xx): show why, never retry. */
  | { kind: 'refused'; status: number; code: string; message: string }
  /** No answer, or a server error, or the key's first try still running: retry later. */
  | { kind: 'retry'; network: boolean }
  /** The session ended: keep it for when this user signs in again. */
  | { kind: 'signed-out' };

/** One try of one queued action, always under its own Idempotency-Key. */
export async function sendEntry(entry: Pick<OutboxEntry, 'id' | 'method' | 'path' | 'body' | 'headers'>): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetch(entry.path, {
      method: entry.method,
      credentials: 'same-origin',
      headers: { ...entry.headers, 'content-type': 'application/json', 'idempotency-key': entry.id },
      body: JSON.stringify(entry.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    return { kind: 'retry', network: true };
  }
  type Body = { error?: { code?: string; message?: string } } | null;
  let data = null as Body;
  try {
    data = (await res.json()) as Body;
  } catch {
    if (res.ok) return { kind: 'retry', network: true }; // the answer was cut off: ask again, same key
  }
  if (res.ok) return { kind: 'sent', body: data };
  const code = data?.error?.code ?? `http_${res.status}`;
  // The write committed but its answer was lost in a crash: it is done.
  if (code === 'idempotency_applied') return { kind: 'sent', body: null };
  if (code === 'idempotency_in_flight' || res.status >= 500 || res.status === 429) return { kind: 'retry', network: false };
  if (res.status === 401) return { kind: 'signed-out' };
  return { kind: 'refused', status: res.status, code, message: data?.error?.message ?? '' };
}
