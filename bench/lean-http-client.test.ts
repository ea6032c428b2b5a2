import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leanPoster } from './lean-http-client.ts';

/** A server answering each POST as its path says: with a length, chunked, or closing the connection. */
let server: Server;
let base = '';
const seen: { path: string; body: string; key: string | undefined; socket: number }[] = [];
const sockets = new Map<object, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (!sockets.has(req.socket)) sockets.set(req.socket, sockets.size);
      seen.push({ path: req.url ?? '', body, key: req.headers['idempotency-key'] as string | undefined, socket: sockets.get(req.socket)! });
      if (req.url === '/chunked') {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.write('{"a":');
        setTimeout(() => res.end('1}'), 5);
      } else if (req.url === '/close') {
        res.writeHead(409, { 'content-type': 'application/json', connection: 'close' });
        res.end('{"error":"x"}');
      } else {
        const answer = JSON.stringify({ echoed: body });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
        res.end(answer);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the write benchmark’s lean HTTP client', () => {
  it('sends headers and body whole, reads each answer to its end and keeps the socket', async () => {
    const post = leanPoster(base);
    const body = JSON.stringify({ productId: 'ñandú', quantity: 1 });
    expect(await post('/items', { 'content-type': 'application/json', 'idempotency-key': 'k1' }, body)).toBe(200);
    expect(await post('/chunked', {}, '{}')).toBe(201);
    expect(await post('/items', { 'idempotency-key': 'k2' }, body)).toBe(200);
    expect(seen.map((s) => [s.path, s.key])).toEqual([
      ['/items', 'k1'],
      ['/chunked', undefined],
      ['/items', 'k2'],
    ]);
    expect(seen[0]!.body).toBe(body);
    // One after another, the three posts went on one kept-alive socket.
    expect(new Set(seen.map((s) => s.socket)).size).toBe(1);
  });

  it('opens a socket per post in flight, and a new one after the server closed one', async () => {
    seen.length = 0;
    const post = leanPoster(base);
    const statuses = await Promise.all([post('/items', {}, 'a'), post('/items', {}, 'b'), post('/items', {}, 'c')]);
    expect(statuses).toEqual([200, 200, 200]);
    expect(new Set(seen.map((s) => s.socket)).size).toBe(3);
    expect(await post('/close', {}, 'd')).toBe(409);
    expect(await post('/items', {}, 'e')).toBe(200);
    expect(await post('/items', {}, 'f')).toBe(200);
    const [closed, after] = [seen.find((s) => s.body === 'd')!, seen.find((s) => s.body === 'e')!];
    expect(seen.filter((s) => s.socket === closed.socket).map((s) => s.body)).not.toContain('e');
    expect(after.socket).not.toBe(closed.socket);
  });

  it('answers 0 when nothing listens', async () => {
    const { port } = new URL(base);
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const free = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    expect(free).not.toBe(Number(port));
    expect(await leanPoster(`http://127.0.0.1:${free}`)('/items', {}, 'x')).toBe(0);
  });
});
