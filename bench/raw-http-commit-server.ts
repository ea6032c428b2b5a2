/**
 * A same-run baseline of the write-throughput benchmark: a bare `node:http` server that, for each
 * POST /add, parses the JSON body, commits one row durably and answers a small JSON: what any
 * HTTP server on this machine pays around a durable commit, with no framework, no session, no
 * rules. DATABASE_URL picks the database (`sqlite:FILE`, WAL with synchronous=FULL, one COMMIT
 * per request; or PostgreSQL, BEGIN/INSERT/COMMIT on a pool of 10 connections, as the server's).
 */
import { createServer } from 'node:http';
import SQLite from 'better-sqlite3';
import pg from 'pg';

const port = Number(process.env.PORT ?? 0);
const url = process.env.DATABASE_URL ?? '';

type Commit = (note: string) => Promise<void>;

function sqliteCommit(file: string): Commit {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS bench_http_commit (id INTEGER PRIMARY KEY, note TEXT, at INTEGER)');
  const insert = db.prepare('INSERT INTO bench_http_commit (note, at) VALUES (?, ?)');
  const tx = db.transaction((note: string) => insert.run(note, Date.now()));
  return async (note) => void tx(note);
}

function pgCommit(connectionString: string): Commit {
  const pool = new pg.Pool({ connectionString, max: 10 });
  pool.on('error', () => undefined);
  const ready = pool.query('CREATE TABLE IF NOT EXISTS bench_http_commit (id bigserial PRIMARY KEY, note text, at bigint)');
  return async (note) => {
    await ready;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO bench_http_commit (note, at) VALUES ($1, $2)', [note, Date.now()]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };
}

const commit = url.startsWith('sqlite:') ? sqliteCommit(url.slice('sqlite:'.length)) : pgCommit(url);
let seq = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') {
    res.writeHead(200).end('ok');
    return;
  }
  if (req.method === 'POST' && req.url === '/add') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { productId?: string };
      commit(String(body.productId)).then(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ seq: ++seq })),
        () => res.writeHead(503).end(),
      );
    });
    return;
  }
  res.writeHead(404).end();
});
server.listen(port, '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
