/**
 * The same-run baseline of the live-latency benchmark: a bare `ws` server that, for each
 * POST /add, broadcasts a small event to every socket and then answers the request — the
 * order in which Comanda publishes after commit and then replies. No database, no auth.
 */
import { createServer } from 'node:http';
import { WebSocketServer, WebSocket } from 'ws';

const port = Number(process.env.PORT ?? 0);
let seq = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') {
    res.writeHead(200).end('ok');
    return;
  }
  if (req.method === 'POST' && req.url === '/add') {
    req.resume();
    req.on('end', () => {
      seq += 1;
      const message = JSON.stringify({
        op: 'event',
        event: { topic: 'board', type: 'board.updated', id: 'raw', version: seq, at: Date.now() },
      });
      for (const client of wss.clients) if (client.readyState === WebSocket.OPEN) client.send(message);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ order: { id: 'raw', version: seq } }));
    });
    return;
  }
  res.writeHead(404).end();
});
const wss = new WebSocketServer({ server, path: '/api/live' });
wss.on('connection', (socket) => {
  socket.on('message', () => socket.send(JSON.stringify({ op: 'subscribed', topics: ['board'] })));
});
server.listen(port, '127.0.0.1');
process.once('SIGTERM', () => {
  wss.close();
  server.close(() => process.exit(0));
});
