/**
 * A same-run baseline of the write-throughput benchmark: a bare `node:http` server that, for each
 * POST /add, parses the JSON body, commits one row durably and answers a small JSON: what any
 * HTTP server on this machine pays around a durable commit, with no framework, no session, no
 * rules. DATABASE_URL picks the database (`sqlite:FILE`, WAL with synchronous=FULL, one COMMIT
 * per request; or PostgreSQL, BEGIN/INSERT/COMMIT on a pool of 10 connections, as the server's).
 */
import pg from 'pg';
import { serveBaseline } from './baseline-server.ts';
import { PG_COMMIT_TABLE, pgOneRowCommit, sqliteOneRowCommits } from './one-row-commit.ts';

const url = process.env.DATABASE_URL ?? '';

function pgCommit(connectionString: string): (note: string) => Promise<void> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  pool.on('error', () => undefined);
  const ready = pool.query(PG_COMMIT_TABLE);
  return async (note) => {
    await ready;
    const client = await pool.connect();
    try {
      await pgOneRowCommit(client, note);
    } finally {
      client.release();
    }
  };
}

const commit = url.startsWith('sqlite:') ? sqliteOneRowCommits(url.slice('sqlite:'.length)).commit : pgCommit(url);
let seq = 0;
serveBaseline((body, res) => {
  const { productId } = JSON.parse(body.toString('utf8')) as { productId?: string };
  Promise.resolve()
    .then(() => commit(String(productId)))
    .then(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ seq: ++seq })),
      () => res.writeHead(503).end(),
    );
});
