import { POLL_INTERVAL_MS, POLL_MAX_ATTEMPTS, RATE_LIMIT_WAIT_MS, isFinalPaymentState } from '@comanda/domain';
import { MpError } from './http.ts';
import type { ProviderPayment } from './provider.ts';

export interface PollSettings {
  intervalMs: number;
  maxAttempts: number;
  rateLimitWaitMs: number;
}

/** SPEC §7 and §9: every 5 s, at most 18 reads (about 90 s), 10 s after a 429. */
export const DEFAULT_POLL: PollSettings = {
  intervalMs: POLL_INTERVAL_MS,
  maxAttempts: POLL_MAX_ATTEMPTS,
  rateLimitWaitMs: RATE_LIMIT_WAIT_MS,
};

/** Tests shorten the interval; the rate-limit wait keeps its proportion to it. */
export function pollSettings(intervalMs: number | undefined): PollSettings {
  if (!intervalMs) return DEFAULT_POLL;
  return { ...DEFAULT_POLL, intervalMs, rateLimitWaitMs: Math.round((intervalMs * RATE_LIMIT_WAIT_MS) / POLL_INTERVAL_MS) };
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A timer that an AbortSignal cuts short (the caller then checks signal.aborted). */
export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export type PollOutcome =
  | { kind: 'final'; payment: ProviderPayment; attempts: number }
  | { kind: 'timeout'; last: ProviderPayment | null; lastError: MpError | null; attempts: number }
  | { kind: 'aborted'; attempts: number };

export interface PollInput {
  read: () => Promise<ProviderPayment>;
  settings?: PollSettings;
  sleep?: Sleep;
  signal?: AbortSignal;
  /** Reads already spent before a restart; the limit counts them too. */
  startAttempt?: number;
  onAttempt?: (attempt: number, result: { payment: ProviderPayment | null; error: MpError | null }) => Promise<void> | void;
}

/**
 * Reads the payment until it is final or the attempts run out. A failed read (network, 5xx,
 * 429) counts as an attempt and polling goes on: the payment is still alive at the terminal.
 */
export async function pollPayment(input: PollInput): Promise<PollOutcome> {
  const settings = input.settings ?? DEFAULT_POLL;
  const sleep = input.sleep ?? realSleep;
  let attempts = input.startAttempt ?? 0;
  let last: ProviderPayment | null = null;
  let lastError: MpError | null = null;
  while (attempts < settings.maxAttempts) {
    await sleep(lastError?.rateLimited ? settings.rateLimitWaitMs : settings.intervalMs, input.signal);
    if (input.signal?.aborted) return { kind: 'aborted', attempts };
    attempts += 1;
    try {
      last = await input.read();
      lastError = null;
    } catch (error) {
      lastError = error instanceof MpError ? error : new MpError(0, 'unknown', error instanceof Error ? error.message : String(error));
    }
    await input.onAttempt?.(attempts, { payment: lastError ? null : last, error: lastError });
    if (!lastError && last && isFinalPaymentState(last.state)) return { kind: 'final', payment: last, attempts };
  }
  return { kind: 'timeout', last, lastError, attempts };
}
