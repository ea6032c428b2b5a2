/**
 * A lean HTTP/1.1 client for the write benchmark's load: kept-alive sockets, each request written
 * as one buffer, each answer read only as far as its status and length. The load generator shares
 * the machine's two cores with the server and the database, while a bar's phones cost the server
 * nothing: the less CPU it takes per request, the less it depresses what it measures.
 */
import { connect, type Socket } from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('0\r\n\r\n');

interface Waiting {
  resolve: (status: number) => void;
}

class Connection {
  readonly socket: Socket;
  #buffer: Buffer = Buffer.alloc(0);
  #waiting: Waiting | null = null;
  closed = false;

  constructor(host: string, port: number) {
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => {
      this.#buffer = this.#buffer.length ? Buffer.concat([this.#buffer, chunk]) : chunk;
      this.#answer();
    });
    const fail = () => {
      this.closed = true;
      const waiting = this.#waiting;
      this.#waiting = null;
      waiting?.resolve(0);
    };
    this.socket.on('error', fail);
    this.socket.on('close', fail);
  }

  send(request: Buffer): Promise<number> {
    return new Promise((resolve) => {
      this.#waiting = { resolve };
      this.socket.write(request);
    });
  }

  /** Resolves the request in flight once its whole answer is here; a `Connection: close` ends the socket. */
  #answer(): void {
    const end = this.#buffer.indexOf(HEADER_END);
    if (end < 0 || !this.#waiting) return;
    const head = this.#buffer.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let total = end + 4;
    if (length) {
      total += Number(length[1]);
      if (this.#buffer.length < total) return;
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      // Chunked: the answer ends with its last, empty chunk.
      const last = this.#buffer.indexOf(CHUNKED_END, end + 4);
      if (last < 0) return;
      total = last + CHUNKED_END.length;
    }
    this.#buffer = this.#buffer.subarray(total);
    const waiting = this.#waiting;
    this.#waiting = null;
    if (/\r\nconnection:\s*close/i.test(head)) {
      this.closed = true;
      this.socket.destroy();
    }
    waiting.resolve(status);
  }
}

/** A POST function over a pool of kept-alive connections to `base` (http://host:port). */
export function leanPoster(base: string): (path: string, headers: Record<string, string>, body: string) => Promise<number> {
  const { hostname, port } = new URL(base);
  const idle: Connection[] = [];
  return async (path, headers, body) => {
    let connection = idle.pop();
    while (connection?.closed) connection = idle.pop();
    connection ??= new Connection(hostname, Number(port));
    let head = `POST ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    const status = await connection.send(Buffer.from(`${head}\r\n${body}`));
    if (!connection.closed) idle.push(connection);
    return status;
  };
}
