import type { Clock } from '../http/clock.ts';

/**
 * Counts failures per key in a sliding window. Keys name what is limited
 * ('login:email:…', 'login:ip:…', 'pin:user:…'), so one instance serves every route.
 * In-process: with several server processes each enforces its own window.
 */
export interface Throttle {
  isBlocked(key: string, limit: number, windowMs: number): boolean;
  fail(key: string): void;
  reset(key: string): void;
}

export function createThrottle(clock: Clock): Throttle {
  const failures = new Map<string, number[]>();
  const recent = (key: string, windowMs: number): number[] => {
    const since = clock.now() - windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };
  return {
    isBlocked: (key, limit, windowMs) => recent(key, windowMs).length >= limit,
    fail(key) {
      const list = failures.get(key) ?? [];
      list.push(clock.now());
      if (list.length > 1000) list.splice(0, list.length - 1000);
      failures.set(key, list);
    },
    reset: (key) => void failures.delete(key),
  };
}

export const LOGIN_LIMITS = {
  perAccount: { limit: 5, windowMs: 15 * 60_000 },
  perAddress: { limit: 30, windowMs: 15 * 60_000 },
};
export const PIN_LIMITS = {
  perUser: { limit: 5, windowMs: 5 * 60_000 },
  perAddress: { limit: 30, windowMs: 5 * 60_000 },
};
