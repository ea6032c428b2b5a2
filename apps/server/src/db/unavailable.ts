/**
 * The errors that mean "the data cannot be reached right now", not "this request is wrong": a lost
 * or refused PostgreSQL connection, and a disk that cannot take (or give back) SQLite's pages. The
 * error handler answers them 503 with a Spanish text, health reports the storage ones, and the
 * start explains them (ops/data-folder.ts). Each is checked on the error, its cause and, for an
 * AggregateError (a host with several addresses), every attempt.
 */

/** Socket-level failures of a connection to PostgreSQL (Node's codes). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATE: class 08 (connection exception), 57P01–57P05 (the server ended the session: admin
 * command, crash shutdown, cannot connect now, database dropped, idle timeout), 53300 (too many
 * connections).
 */
const LOST_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-5]|53300)$/;

/**
 * What pg, pg-pool and Kysely say when there is no usable connection, without a code: a socket
 * that closed ("Connection terminated unexpectedly"), a server that did not answer the connection
 * in time ("timeout expired"), a client whose connection failed earlier and is then asked again (a transaction's
 * ROLLBACK after its backend was terminated), a pool that gave up waiting, a pool or database
 * handle already closed (a stop under way).
 */
const LOST_MESSAGE =
  /Connection terminated|is not queryable|^timeout expired$|timeout exceeded when trying to connect|Cannot use a pool after calling end|driver has already been destroyed|the database system is (starting|shutting) up|terminating connection due to/i;

type Coded = { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };

/** The error and those it carries (cause, AggregateError's attempts), a few levels deep. */
function* chain(error: unknown, depth = 0): Generator<Coded> {
  if (depth > 4 || typeof error !== 'object' || error === null) return;
  const e = error as Coded;
  yield e;
  if (e.cause !== undefined && e.cause !== error) yield* chain(e.cause, depth + 1);
  if (Array.isArray(e.errors)) for (const inner of e.errors) yield* chain(inner, depth + 1);
}

/** The PostgreSQL connection was lost, refused or never obtained: the database is unavailable for now. */
export function connectionLost(error: unknown): boolean {
  for (const e of chain(error)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (SOCKET_CODES.has(code) || LOST_SQLSTATE.test(code)) return true;
    if (typeof e.message === 'string' && LOST_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/** What is wrong with the disk under the data: full, read-only, not allowed, or failing. */
export type StorageProblem = 'full' | 'readOnly' | 'denied' | 'failing';

/**
 * SQLite's (better-sqlite3's extended codes) and Node's file-system codes for a disk that cannot
 * take or give back data, with the code found. SQLITE_CANTOPEN is a file SQLite could not create
 * or open: a folder it may not write to, in practice.
 */
export function storageFailure(error: unknown): { problem: StorageProblem; code: string } | null {
  for (const e of chain(error)) {
    const code = typeof e.code === 'string' ? e.code : '';
    const problem = problemOf(code);
    if (problem) return { problem, code };
  }
  return null;
}

function problemOf(code: string): StorageProblem | null {
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return 'full';
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') return 'readOnly';
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM') || code === 'EACCES' || code === 'EPERM') return 'denied';
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') return 'failing';
  return null;
}
