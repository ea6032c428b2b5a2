import { AppError, conflict } from './errors.ts';
import { sha256 } from './ids.ts';
import { sql, type Kysely, type QueryCreator, type Selectable } from 'kysely';
import type { Database, IdempotencyKeysTable } from '../db/schema.ts';
import type { Trx } from '../db/trx.ts';
import { MESSAGES } from './messages.ts';
import { compiledOnce, firstRow, insertRider, type Rider } from '../db/compiled.ts';

export const IDEMPOTENCY_MESSAGES = MESSAGES.idempotency;

/**
 * How long a claimed key may stay without its response before we call the response lost
 * (decision 0045). A live process writes it on the next turn of its event loop, a commit later
 * (milliseconds; the longest database stall measured under a night's load was under 0.2 s). A
 * visible claim always means the write committed, so "applied" after the grace is never wrong:
 * a longer grace only keeps a phone sending (409 in flight, retried) after its server died.
 */
export const RESPONSE_GRACE_MS = 5_000;

export interface StoredResponse {
  statusCode: number;
  body: unknown;
  /** The answer exactly as it was sent, when replayed byte for byte (the generic layer's keys). */
  json?: string;
}

/** A key's row as the claim meets it. */
export type KeyRow = Selectable<IdempotencyKeysTable>;

/** A stable hash of what the request asks for (never the PIN itself: only who it identified). */
export function requestHash(value: Record<string, unknown>): string {
  const sorted = Object.keys(value)
    .sort()
    .map((k) => [k, value[k]]);
  return sha256(JSON.stringify(sorted));
}

/** A key ending in a version-7 UUID (the web's): its first 48 bits, the time it was made in milliseconds. */
const TIME_ORDERED = /([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * The key a request's Idempotency-Key is stored under: a hash of it with its scope (user, method,
 * route). A time-ordered key (the web's) is stored behind its time, so a night's keys go onto the
 * last leaves of the index in turn instead of each onto a random one (decision 0067).
 */
export function storedKeyOf(scope: string, header: string): string {
  const hash = sha256(`${scope}\n${header}`);
  const time = TIME_ORDERED.exec(header);
  return time ? `t:${(time[1]! + time[2]!).toLowerCase()}${hash}` : `r:${hash}`;
}

export type KeyClaim = { key: string; scope: string; hash: string; now: number };

/** The claim's INSERT (its `key` back when this request is the first): alone, or a CTE of a command's first statement. */
export const claimInsert = (db: QueryCreator<Database>, a: KeyClaim) =>
  db
    .insertInto('idempotency_keys')
    .values({ key: a.key, scope: a.scope, request_hash: a.hash, status_code: null, response: null, created_at: a.now })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key');

const claimStatement = compiledOnce((db, a: KeyClaim) => claimInsert(db, a));

/**
 * Claims `key` inside the caller's transaction. Returns null when this request is the first
 * (run it, then `storeResponse`), or the first request's stored answer for a repeat.
 * A concurrent twin waits on the key's unique index until the first commits or rolls back.
 * `repeat`, when given, decides what a repeat is answered from the key's row (the generic layer).
 */
export async function claimKey(
  trx: Trx,
  input: KeyClaim & { repeat?: ((row: KeyRow) => StoredResponse) | undefined },
): Promise<StoredResponse | null> {
  const inserted = await firstRow(claimStatement, trx, { key: input.key, scope: input.scope, hash: input.hash, now: input.now });
  if (inserted) return null;
  return answerRepeat(trx, input);
}

/**
 * The key was claimed before (its INSERT did nothing): the first request's stored answer, or a
 * refusal when the key was used for another request or its answer is not there yet.
 */
export async function answerRepeat(
  trx: Trx,
  input: KeyClaim & { repeat?: ((row: KeyRow) => StoredResponse) | undefined },
): Promise<StoredResponse> {
  const row = await trx.selectFrom('idempotency_keys').selectAll().where('key', '=', input.key).executeTakeFirst();
  if (row && input.repeat) return input.repeat(row);
  if (!row || row.scope !== input.scope || row.request_hash !== input.hash) {
    throw new AppError(422, 'idempotency_key_reused', IDEMPOTENCY_MESSAGES.reused);
  }
  if (row.status_code === null || row.response === null) throw conflict(IDEMPOTENCY_MESSAGES.inFlight, 'idempotency_in_flight');
  return { statusCode: row.status_code, body: JSON.parse(row.response) as unknown };
}

/** Thrown inside mutate() when a concurrent twin already answered: the error handler replays it. */
export class IdempotentReplay extends Error {
  constructor(readonly stored: StoredResponse) {
    super('idempotent replay');
    this.name = 'IdempotentReplay';
  }
}

export async function storeResponse(trx: Trx, key: string, response: StoredResponse): Promise<void> {
  await responseRider(trx, key, response).execute();
}

type AnswerRow = { key: string; statusCode: number; json: string };
const answerUpdate = (db: Kysely<Database>, a: AnswerRow) =>
  db.updateTable('idempotency_keys').set({ status_code: a.statusCode, response: a.json }).where('key', '=', a.key);

/** storeResponse's UPDATE, not yet run: a command may send it along with its last statement (attachToDrawer's riders). */
export function responseRider(trx: Trx, key: string, response: StoredResponse): Rider {
  return insertRider(trx, { key, statusCode: response.statusCode, json: JSON.stringify(response.body) }, answerUpdate, answerStatement);
}

/**
 * PostgreSQL: several answers in one UPDATE, one round trip whatever their number. A single
 * statement is atomic on its own: every answer is kept, or none.
 */
export async function storeRawResponses(
  db: Kysely<Database>,
  answers: ReadonlyMap<string, { statusCode: number; json: string }>,
): Promise<void> {
  const keys = [...answers.keys()];
  const codes = keys.map((k) => answers.get(k)!.statusCode);
  const bodies = keys.map((k) => answers.get(k)!.json);
  // The commit does not wait for the disk (set_config for this statement's own transaction): a
  // crash can lose an answer written after it was sent anyway, never the write it answers.
  await sql`WITH quick AS (SELECT set_config('synchronous_commit', 'off', true))
    UPDATE idempotency_keys AS k SET status_code = a.status_code, response = a.response
    FROM quick, unnest(${keys}::text[], ${codes}::int[], ${bodies}::text[]) AS a(key, status_code, response)
    WHERE k.key = a.key`.execute(db);
}

/** The generic (every-route) variant stores the serialized JSON exactly as it was sent. */
const answerStatement = compiledOnce((db, a: AnswerRow) => answerUpdate(db, a));

export async function storeRawResponse(trx: Trx, key: string, statusCode: number, json: string): Promise<void> {
  await answerStatement(trx, { key, statusCode, json });
}
