/**
 * What one /api/live socket may cost the server. A browser needs a handful of topics and a few
 * messages a minute; these bounds are far above that and far below what hurts the process.
 */
export interface LiveLimits {
  /** Largest frame accepted; a bigger one closes that socket with 1009 (set on the ws server). */
  maxPayloadBytes: number;
  /** Distinct topics one socket may hold; one more closes it with 4413. */
  maxTopics: number;
  /** Token bucket: refill per second and size of a burst; an empty bucket closes the socket with 4429. */
  messagesPerSecond: number;
  burst: number;
  /** Messages received but not yet handled (topic checks wait for the database); one more closes with 4429. */
  maxPending: number;
  /** Bytes queued to a client that does not read; beyond this its socket is closed with 4408. */
  maxBufferedBytes: number;
}

export const LIVE_LIMITS: LiveLimits = {
  maxPayloadBytes: 16 * 1024,
  maxTopics: 200,
  messagesPerSecond: 50,
  burst: 50,
  maxPending: 20,
  maxBufferedBytes: 1024 * 1024,
};

/** A token bucket: `take()` is false once more than `burst` messages came faster than `perSecond`. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
