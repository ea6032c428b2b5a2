import WebSocket from 'ws';
import type { LiveServerMessage } from '@comanda/contract';

export interface LiveTestClient {
  ws: WebSocket;
  messages: LiveServerMessage[];
  /** Resolves with the first message (already received or coming) that matches, or rejects after ms. */
  next: (pred: (m: LiveServerMessage) => boolean, ms?: number) => Promise<LiveServerMessage>;
}

/**
 * Keeps every message a live socket receives, from now on. `next` waits for a matching one
 * (default `waitMs`); on timeout it rejects with "no matching live message" and `detail()`.
 */
export function liveInbox(ws: WebSocket, opts: { waitMs: number; detail?: () => string }): Pick<LiveTestClient, 'messages' | 'next'> {
  const messages: LiveServerMessage[] = [];
  const waiters: { pred: (m: LiveServerMessage) => boolean; resolve: (m: LiveServerMessage) => void }[] = [];
  ws.on('message', (raw: Buffer) => {
    const msg = JSON.parse(raw.toString()) as LiveServerMessage;
    messages.push(msg);
    for (const w of [...waiters])
      if (w.pred(msg)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(msg);
      }
  });
  const next = (pred: (m: LiveServerMessage) => boolean, ms = opts.waitMs) =>
    new Promise<LiveServerMessage>((resolve, reject) => {
      const found = messages.find(pred);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`no matching live message${opts.detail?.() ?? ''}`)), ms);
      waiters.push({ pred, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  return { messages, next };
}

/** A WebSocket client of /api/live for tests, signed in by a session cookie. */
export function connectLive(baseUrl: string, cookie: string | null): Promise<LiveTestClient> {
  const ws = new WebSocket(baseUrl.replace('http', 'ws') + '/api/live', { headers: cookie ? { cookie } : {} });
  const { messages, next } = liveInbox(ws, { waitMs: 5000 });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, messages, next }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}
