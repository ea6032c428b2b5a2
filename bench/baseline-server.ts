/**
 * The skeleton of the benchmarks' bare baselines (raw-ws-server.ts, raw-http-commit-server.ts): a
 * `node:http` server on PORT that answers GET /health, hands each POST /add's body to `onAdd`, and
 * stops on SIGTERM. Nothing of Comanda's is in it.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';

export function serveBaseline(onAdd: (body: Buffer, res: ServerResponse) => void, onStop: () => void = () => undefined): Server {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/health') {
      res.writeHead(200).end('ok');
      return;
    }
    if (req.method === 'POST' && req.url === '/add') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => onAdd(Buffer.concat(chunks), res));
      return;
    }
    res.writeHead(404).end();
  });
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  process.once('SIGTERM', () => {
    onStop();
    server.close(() => process.exit(0));
  });
  return server;
}
