import type { Clock } from '../http/clock.ts';

/**
 * Two kinds of limits, both keyed by what they limit, so one instance serves every route:
 *
 * - a sliding window of failures ('pin:session:…', 'pin:user:…', 'pin:target:…', 'pin:ip:…'):
 *   blocked while `limit` failures fall inside the window. A success never clears it, so a
 *   correct PIN (an attacker's own) cannot buy more guesses;
 * - an exponential back-off ('login:acct:…', 'login:pair:…', 'login:ip:…'): from `threshold`
 *   failures on, each failure opens a window of base·2ⁿ (capped) during which attempts are not
 *   even checked. Once the window has passed, the next attempt is checked normally, so a correct
 *   password always gets in after the wait.
 *
 * In-process and in memory: with several server processes each enforces its own limits, and a
 * restart forgets them. The clock is the app's (tests move it by hand). Entries are forgotten
 * when they no longer matter, and the maps are capped so a flood of new keys cannot grow memory
 * without bound (the oldest entries go first).
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

export interface Throttle {
  /** Sliding window: true while `limit` failures fall inside the last `windowMs`. */
  isBlocked(key: string, limit: number, windowMs: number): boolean;
  fail(key: string): void;
  /** Takes back the latest failure of a key (an attempt counted in advance that succeeded). */
  refund(key: string): void;
  /**
   * Runs `work` after every earlier call with the same key has finished (one at a time per key),
   * or answers null at once when `maxWaiting` calls are already queued.
   */
  serialize<T>(key: string, maxWaiting: number, work: () => Promise<T>): Promise<T | null>;
  /** Back-off: ms still to wait before an attempt is checked (0 when free). */
  waitMs(key: string, rule: BackoffRule): number;
  /** Records a failure; answers the wait it started (0 when below the threshold). */
  backoffFail(key: string, rule: BackoffRule): number;
  backoffState(key: string, rule: BackoffRule): BackoffState | null;
  /** Forgets one key (both kinds). */
  reset(key: string): void;
  /** Forgets every key that starts with the prefix (both kinds). */
  resetPrefix(prefix: string): void;
  /** Keys with a back-off state that start with the prefix. */
  keys(prefix: string): string[];
}

const MAX_KEYS = 50_000;
const MAX_FAILURES_PER_KEY = 1000;

interface BackoffEntry {
  failures: number;
  last: number;
  until: number;
}

export function backoffDelay(failures: number, rule: BackoffRule): number {
  if (failures < rule.threshold) return 0;
  const steps = Math.min(failures - rule.threshold, 40);
  return Math.min(rule.baseMs * 2 ** steps, rule.maxMs);
}

export function createThrottle(clock: Clock): Throttle {
  const windows = new Map<string, number[]>();
  const backoffs = new Map<string, BackoffEntry>();
  const queues = new Map<string, { tail: Promise<unknown>; size: number }>();

  const cap = <V>(map: Map<string, V>) => {
    while (map.size > MAX_KEYS) {
      const oldest = map.keys().next().value;
      if (oldest === undefined) break;
      map.delete(oldest);
    }
  };
  const recent = (key: string, windowMs: number): number[] => {
    const since = clock.now() - windowMs;
    const list = (windows.get(key) ?? []).filter((t) => t > since);
    if (list.length) windows.set(key, list);
    else windows.delete(key);
    return list;
  };
  const entry = (key: string, rule: BackoffRule): BackoffEntry | null => {
    const found = backoffs.get(key);
    if (!found) return null;
    const now = clock.now();
    if (found.until <= now && now - found.last > rule.forgetMs) {
      backoffs.delete(key);
      return null;
    }
    return found;
  };

  return {
    isBlocked: (key, limit, windowMs) => recent(key, windowMs).length >= limit,
    fail(key) {
      const list = windows.get(key) ?? [];
      list.push(clock.now());
      if (list.length > MAX_FAILURES_PER_KEY) list.splice(0, list.length - MAX_FAILURES_PER_KEY);
      windows.delete(key);
      windows.set(key, list);
      cap(windows);
    },
    refund(key) {
      const list = windows.get(key);
      list?.pop();
      if (list && !list.length) windows.delete(key);
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
    waitMs(key, rule) {
      const found = entry(key, rule);
      return found ? Math.max(0, found.until - clock.now()) : 0;
    },
    backoffFail(key, rule) {
      const now = clock.now();
      const found = entry(key, rule) ?? { failures: 0, last: now, until: 0 };
      found.failures += 1;
      found.last = now;
      const delay = backoffDelay(found.failures, rule);
      if (delay > 0) found.until = now + delay;
      backoffs.delete(key);
      backoffs.set(key, found);
      cap(backoffs);
      return delay;
    },
    backoffState(key, rule) {
      const found = entry(key, rule);
      return found ? { failures: found.failures, until: found.until } : null;
    },
    reset(key) {
      windows.delete(key);
      backoffs.delete(key);
    },
    resetPrefix(prefix) {
      for (const key of [...windows.keys()]) if (key.startsWith(prefix)) windows.delete(key);
      for (const key of [...backoffs.keys()]) if (key.startsWith(prefix)) backoffs.delete(key);
    },
    keys: (prefix) => [...backoffs.keys()].filter((key) => key.startsWith(prefix)),
  };
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
};

export const pinKeys = {
  session: (hash: string) => `pin:session:${hash}`,
  user: (id: string) => `pin:user:${id}`,
  target: (purpose: string) => `pin:target:${purpose}`,
  address: (ip: string) => `pin:ip:${ip}`,
  device: (id: string) => `pin:device:${id}`,
};

/** "Demasiados intentos…" with how long to wait, in Spanish. */
export function waitMessage(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / SECOND));
  const wait =
    seconds < 60
      ? `${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}`
      : `${Math.ceil(seconds / 60)} ${Math.ceil(seconds / 60) === 1 ? 'minuto' : 'minutos'}`;
  return `Demasiados intentos. Intenta más tarde (espera ${wait}).`;
}
