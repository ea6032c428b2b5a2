import { sql, type Kysely } from 'kysely';
import type { Clock } from '../http/clock.ts';
import type { Db } from '../db/connect.ts';
import { transact } from '../db/transact.ts';
import type { Database } from '../db/schema.ts';
import { newId } from '../http/ids.ts';

/**
 * Two kinds of limits, both keyed by what they limit, so one instance serves every route:
 *
 * - a sliding window of failures ('pin:session:…', 'pin:user:…', 'pin:person:…', 'pin:target:…', 'pin:ip:…'):
 *   blocked while `limit` failures fall inside the window. A success never clears it, so a
 *   correct PIN (an attacker's own) cannot buy more guesses;
 * - an exponential back-off ('login:acct:…', 'login:pair:…', 'login:ip:…'): from `threshold`
 *   failures on, each failure opens a window of base·2ⁿ (capped) during which attempts are not
 *   even checked. Once the window has passed, the next attempt is checked normally, so a correct
 *   password always gets in after the wait.
 *
 * Kept in the database (`throttle_hits`, `throttle_backoffs`), so every server process on one
 * database shares one window and a restart forgets nothing (docs/decisions/0018-several-processes.md).
 * Every count is atomic: an attempt is recorded first (an INSERT per window key; for back-off
 * keys an increment under the row's lock), and only then compared with the limit, so two
 * processes racing on one key both count. The clock is the app's (tests move it by hand). Old rows are pruned by the
 * housekeeping (`pruneThrottles`).
 */
export interface BackoffRule {
  /** Failures before the first wait. */
  threshold: number;
  /** First wait; each further failure doubles it. */
  baseMs: number;
  /** Longest wait. */
  maxMs: number;
  /** A key with no failure for this long starts over from zero. */
  forgetMs: number;
}

export interface BackoffState {
  failures: number;
  /** End of the current wait (ms since epoch), 0 when none has started. */
  until: number;
}

export interface BackoffCounted {
  key: string;
  /** Failures now counted on the key, this one included. */
  failures: number;
  /** The wait this failure started (0 when below the threshold). */
  waitMs: number;
  until: number;
  /** What a refund puts back. */
  previousUntil: number;
  previousLast: number;
  at: number;
}

export type BackoffReservation = { ok: true; counted: BackoffCounted[] } | { ok: false; waitMs: number };

/** Where a throttle reads and writes: the database, or the caller's open transaction. */
export type ThrottleDb = Kysely<Database>;

export interface WindowHit {
  /** Identifies the recorded attempts, to take them back with `refund`. */
  batch: string;
  /** Per key, in the order given: failures inside its window, this attempt included. */
  counts: number[];
}

export interface Throttle {
  /**
   * Sliding windows: records one failure on each key, then answers how many fall inside each
   * key's window, this one included. Over the limit means blocked: the caller refunds the batch
   * (a refused attempt is not counted) and answers 429.
   */
  hit(keys: readonly (readonly [key: string, windowMs: number])[]): Promise<WindowHit>;
  /** Takes back the failures one `hit` recorded (an attempt counted in advance that succeeded). */
  refund(batch: string): Promise<void>;
  /** When each failure still inside a key's window happened, oldest first. */
  windowHits(key: string, windowMs: number, db?: ThrottleDb): Promise<number[]>;
  /**
   * Runs `work` after every earlier call with the same key in this process has finished (one at
   * a time per key), or answers null at once when `maxWaiting` calls are already queued.
   */
  serialize<T>(key: string, maxWaiting: number, work: () => Promise<T>): Promise<T | null>;
  /**
   * Back-off: counts one failure in advance on every key, in one transaction that locks their
   * rows, unless one of them is still waiting: then nothing is counted and the longest wait is
   * answered. Attempts racing from any process on one key are thus counted one after another,
   * and the attempt that starts a wait makes the others wait at once.
   */
  backoffReserve(keys: readonly (readonly [key: string, rule: BackoffRule])[]): Promise<BackoffReservation>;
  /** Takes back a reserved failure (the attempt succeeded). */
  backoffRefund(reserved: BackoffCounted[]): Promise<void>;
  backoffState(key: string, rule: BackoffRule, db?: ThrottleDb): Promise<BackoffState | null>;
  /** Forgets one key (both kinds). */
  reset(key: string, db?: ThrottleDb): Promise<void>;
  /** Forgets every key that starts with the prefix (both kinds). */
  resetPrefix(prefix: string, db?: ThrottleDb): Promise<void>;
  /** Keys with a back-off state that start with the prefix. */
  keys(prefix: string, db?: ThrottleDb): Promise<string[]>;
}

/** The longest window or back-off memory any rule uses: rows older than this are pruned. */
export const THROTTLE_KEEP_MS = 2 * 60 * 60_000;

export function backoffDelay(failures: number, rule: BackoffRule): number {
  if (failures < rule.threshold) return 0;
  const steps = Math.min(failures - rule.threshold, 40);
  return Math.min(rule.baseMs * 2 ** steps, rule.maxMs);
}

/** `key` starts with `prefix`, without LIKE (an e-mail may hold % or _). */
const startsWith = (prefix: string) => sql<boolean>`substr(key, 1, ${prefix.length}) = ${prefix}`;

export function createThrottle(database: Db, clock: Clock): Throttle {
  const queues = new Map<string, { tail: Promise<unknown>; size: number }>();
  const base = (): ThrottleDb => database.db;

  const backoffState = async (key: string, rule: BackoffRule, db: ThrottleDb = base()): Promise<BackoffState | null> => {
    const row = await db
      .selectFrom('throttle_backoffs')
      .select(['failures', 'last_at', 'until_at'])
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) return null;
    const now = clock.now();
    if (row.until_at <= now && now - row.last_at > rule.forgetMs) return null;
    return { failures: row.failures, until: row.until_at };
  };

  return {
    async hit(keys) {
      const batch = newId();
      const now = clock.now();
      const unique = [...new Map(keys.map(([key, windowMs]) => [key, windowMs])).entries()];
      if (!unique.length) return { batch, counts: [] };
      await base()
        .insertInto('throttle_hits')
        .values(unique.map(([key]) => ({ batch, key, at: now })))
        .execute();
      const rows = await base()
        .selectFrom('throttle_hits')
        .select(['key', (eb) => eb.fn.countAll<number>().as('n')])
        .where((eb) => eb.or(unique.map(([key, windowMs]) => eb.and([eb('key', '=', key), eb('at', '>', now - windowMs)]))))
        .groupBy('key')
        .execute();
      const counted = new Map(rows.map((r) => [r.key, Number(r.n)]));
      return { batch, counts: keys.map(([key]) => counted.get(key) ?? 0) };
    },
    async refund(batch) {
      await base().deleteFrom('throttle_hits').where('batch', '=', batch).execute();
    },
    async windowHits(key, windowMs, db = base()) {
      const rows = await db
        .selectFrom('throttle_hits')
        .select('at')
        .where('key', '=', key)
        .where('at', '>', clock.now() - windowMs)
        .orderBy('at')
        .execute();
      return rows.map((r) => Number(r.at));
    },
    async serialize(key, maxWaiting, work) {
      const queue = queues.get(key) ?? { tail: Promise.resolve(), size: 0 };
      if (queue.size >= maxWaiting) return null;
      queue.size += 1;
      queues.set(key, queue);
      const previous = queue.tail;
      const run = previous.then(() => work());
      queue.tail = run.catch(() => undefined);
      try {
        return await run;
      } finally {
        queue.size -= 1;
        if (queue.size === 0) queues.delete(key);
      }
    },
    async backoffReserve(keys) {
      const now = clock.now();
      // Every process locks a request's keys in the same (sorted) order: no deadlock between them.
      const sorted = [...keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return transact(database, async (trx): Promise<BackoffReservation> => {
        // One statement creates the missing rows and locks and returns them all (a no-op update on conflict).
        const found = await trx
          .insertInto('throttle_backoffs')
          .values(sorted.map(([key]) => ({ key, failures: 0, last_at: now, until_at: 0 })))
          .onConflict((oc) => oc.column('key').doUpdateSet({ failures: sql<number>`throttle_backoffs.failures` }))
          .returning(['key', 'failures', 'last_at', 'until_at'])
          .execute();
        const byKey = new Map(found.map((r) => [r.key, r]));
        const rows = keys.map(([key, rule]) => {
          const row = byKey.get(key)!;
          const forgotten = row.until_at <= now && now - row.last_at > rule.forgetMs;
          return { key, rule, failures: forgotten ? 0 : row.failures, until: Number(row.until_at), last: Number(row.last_at) };
        });
        const waitMs = Math.max(0, ...rows.map((r) => r.until - now));
        if (waitMs > 0) return { ok: false, waitMs };
        const counted: BackoffCounted[] = rows.map((row) => {
          const failures = row.failures + 1;
          const delay = backoffDelay(failures, row.rule);
          const until = delay > 0 ? now + delay : row.until;
          return { key: row.key, failures, waitMs: delay, until, previousUntil: row.until, previousLast: row.last, at: now };
        });
        const when = (value: (c: BackoffCounted) => number, type: 'integer' | 'bigint') =>
          sql.join(
            counted.map((c) => sql`WHEN ${c.key} THEN CAST(${value(c)} AS ${sql.raw(type)})`),
            sql` `,
          );
        await trx
          .updateTable('throttle_backoffs')
          .set({
            failures: sql<number>`CASE key ${when((c) => c.failures, 'integer')} END`,
            last_at: now,
            until_at: sql<number>`CASE key ${when((c) => c.until, 'bigint')} END`,
          })
          .where(
            'key',
            'in',
            counted.map((c) => c.key),
          )
          .execute();
        return { ok: true, counted };
      });
    },
    async backoffRefund(reserved) {
      if (!reserved.length) return;
      const restore = (column: 'until_at' | 'last_at', from: (c: BackoffCounted) => number, to: (c: BackoffCounted) => number) =>
        sql.join(
          reserved.map((c) => sql`WHEN key = ${c.key} AND ${sql.ref(column)} = CAST(${from(c)} AS bigint) THEN CAST(${to(c)} AS bigint)`),
          sql` `,
        );
      const until = restore(
        'until_at',
        (c) => c.until,
        (c) => c.previousUntil,
      );
      const last = restore(
        'last_at',
        (c) => c.at,
        (c) => c.previousLast,
      );
      await base()
        .updateTable('throttle_backoffs')
        .set({
          failures: sql<number>`failures - 1`,
          until_at: sql<number>`CASE ${until} ELSE until_at END`,
          last_at: sql<number>`CASE ${last} ELSE last_at END`,
        })
        .where(
          'key',
          'in',
          reserved.map((c) => c.key),
        )
        .where('failures', '>', 0)
        .execute();
    },
    backoffState,
    async reset(key, db = base()) {
      await db.deleteFrom('throttle_hits').where('key', '=', key).execute();
      await db.deleteFrom('throttle_backoffs').where('key', '=', key).execute();
    },
    async resetPrefix(prefix, db = base()) {
      await db.deleteFrom('throttle_hits').where(startsWith(prefix)).execute();
      await db.deleteFrom('throttle_backoffs').where(startsWith(prefix)).execute();
    },
    async keys(prefix, db = base()) {
      const rows = await db.selectFrom('throttle_backoffs').select('key').where(startsWith(prefix)).orderBy('key').execute();
      return rows.map((r) => r.key);
    },
  };
}

/** Deletes failures past every window and back-offs past every wait and memory (the housekeeping). */
export async function pruneThrottles(db: ThrottleDb, now: number): Promise<number> {
  const hits = await db
    .deleteFrom('throttle_hits')
    .where('at', '<=', now - THROTTLE_KEEP_MS)
    .executeTakeFirst();
  const backoffs = await db
    .deleteFrom('throttle_backoffs')
    .where('until_at', '<=', now)
    .where('last_at', '<=', now - THROTTLE_KEEP_MS)
    .executeTakeFirst();
  return Number(hits.numDeletedRows) + Number(backoffs.numDeletedRows);
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/**
 * Sign-in back-off. Per account and address: a person mistyping on their own device. Per
 * account (from any address): guesses spread over many addresses. Per address: only slows a
 * spray over many accounts, with a short cap, so a whole bar behind one NAT is never locked out.
 * A correct password clears only the account+address pair (never the address: an attacker's
 * own account must not reset the budget of an address).
 */
export const LOGIN_BACKOFF = {
  pair: { threshold: 5, baseMs: SECOND, maxMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
  account: { threshold: 10, baseMs: SECOND, maxMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
  address: { threshold: 50, baseMs: SECOND, maxMs: MINUTE, forgetMs: 15 * MINUTE },
} satisfies Record<string, BackoffRule>;

/**
 * Sign-in attempts for one account are checked one at a time (a burst of parallel guesses would
 * otherwise all pass the back-off check before the first failure is counted); this many may wait.
 */
export const LOGIN_QUEUE_PER_ACCOUNT = 64;

export const loginKeys = {
  account: (email: string) => `login:acct:${email}`,
  pair: (email: string, ip: string) => `login:pair:${email}|${ip}`,
  pairsOf: (email: string) => `login:pair:${email}|`,
  address: (ip: string) => `login:ip:${ip}`,
};

/**
 * PIN guesses: failures only, never cleared by a success. Per session and per signed-in user
 * (a waiter cannot rotate addresses or sessions), per target (every user together against, e.g.,
 * the admin PIN that authorises deleting an item) and per address.
 */
export const PIN_LIMITS = {
  perSession: { limit: 5, windowMs: 5 * MINUTE },
  perUser: { limit: 10, windowMs: 15 * MINUTE },
  perTarget: {
    'delete-item': { limit: 20, windowMs: 15 * MINUTE },
    // Every shared device together (PIN sign-in: nobody is signed in yet).
    'pin-login': { limit: 60, windowMs: 15 * MINUTE },
    default: { limit: 60, windowMs: 15 * MINUTE },
  },
  perAddress: { limit: 30, windowMs: 5 * MINUTE },
  /** PIN sign-in on one shared device (it has no session yet): like a session's budget. */
  perDevice: { limit: 5, windowMs: 5 * MINUTE },
  /** PIN sign-in as one person, from every shared device together ('Desbloquear' lifts it). */
  perPerson: { limit: 5, windowMs: 15 * MINUTE },
};

export const pinKeys = {
  session: (hash: string) => `pin:session:${hash}`,
  user: (id: string) => `pin:user:${id}`,
  target: (purpose: string) => `pin:target:${purpose}`,
  address: (ip: string) => `pin:ip:${ip}`,
  device: (id: string) => `pin:device:${id}`,
  person: (id: string) => `pin:person:${id}`,
};

/** How long to wait, in Spanish ("3 minutos"). */
export function waitPhrase(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / SECOND));
  return seconds < 60
    ? `${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}`
    : `${Math.ceil(seconds / 60)} ${Math.ceil(seconds / 60) === 1 ? 'minuto' : 'minutos'}`;
}

/** "Demasiados intentos…" with how long to wait, in Spanish. */
export function waitMessage(ms: number): string {
  return `Demasiados intentos. Intenta más tarde (espera ${waitPhrase(ms)}).`;
}

declare module '../http/context.ts' {
  interface AppContext {
    /** Sign-in and PIN attempt limits, shared by every process. */
    throttle: Throttle;
  }
}
