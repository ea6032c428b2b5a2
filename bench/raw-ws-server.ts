/**
 * The same-run baseline of the live-latency benchmark: a bare `ws` server that, for each
 * POST /add, broadcasts a small event to every socket and then answers the request — the
 * order in which Comanda publishes after commit and then replies. No database, no auth.
 */
import { WebSocketServer, WebSocket } from 'ws';
import { serveBaseline } from './baseline-server.ts';

let seq = 0;
const server = serveBaseline(
  (_body, res) => {
    seq += 1;
    const message = JSON.stringify({
      op: 'event',
      event: { topic: 'board', type: 'board.updated', id: 'raw', version: seq, at: Date.now() },
    });
    for (const client of wss.clients) if (client.readyState === WebSocket.OPEN) client.send(message);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ order: { id: 'raw', version: seq } }));
  },
  () => wss.close(),
);
const wss = new WebSocketServer({ server, path: '/api/live' });
wss.on('connection', (socket) => {
  socket.on('message', () => socket.send(JSON.stringify({ op: 'subscribed', topics: ['board'] })));
});
