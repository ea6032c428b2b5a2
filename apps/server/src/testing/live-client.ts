import WebSocket from 'ws';
import type { LiveServerMessage } from '@comanda/contract';

export interface LiveTestClient {
  ws: WebSocket;
  messages: LiveServerMessage[];
  /** Resolves with the first message (already received or coming) that matches, or rejects after ms. */
  next: (pred: (m: LiveServerMessage) => boolean, ms?: number) => Promise<LiveServerMessage>;
}

/** A WebSocket client of /api/live for tests, signed in by a session cookie. */
export function connectLive(baseUrl: string, cookie: string | null): Promise<LiveTestClient> {
  const messages: LiveServerMessage[] = [];
  const waiters: { pred: (m: LiveServerMessage) => boolean; resolve: (m: LiveServerMessage) => void }[] = [];
  const ws = new WebSocket(baseUrl.replace('http', 'ws') + '/api/live', { headers: cookie ? { cookie } : {} });
  ws.on('message', (raw: Buffer) => {
    const msg = JSON.parse(raw.toString()) as LiveServerMessage;
    messages.push(msg);
    for (const w of [...waiters])
      if (w.pred(msg)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(msg);
      }
  });
  const next = (pred: (m: LiveServerMessage) => boolean, ms = 5000) =>
    new Promise<LiveServerMessage>((resolve, reject) => {
      const found = messages.find(pred);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error('no matching live message')), ms);
      waiters.push({ pred, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, messages, next }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}
