import { randomUUID } from 'node:crypto';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface MpHttpOptions {
  /** https://api.mercadopago.com, or the simulator's loopback address. */
  baseUrl: string;
  accessToken: string;
  fetch?: FetchLike;
  /** Per request; a terminal call that hangs must not hold a payment session forever. */
  timeoutMs?: number;
}

/** A provider answer other than 2xx, or no answer at all (status 0). */
export class MpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'MpError';
  }
  get rateLimited(): boolean {
    return this.status === 429;
  }
  /** Network failures, time-outs and 5xx may have succeeded on the other side. */
  get transient(): boolean {
    return this.status === 0 || this.status >= 500 || this.status === 429;
  }
}

export interface MpRequest {
  query?: Record<string, string | number>;
  body?: unknown;
  /** Sent as X-Idempotency-Key; every non-GET call gets one, generated when not given. */
  idempotencyKey?: string;
}

/** Bearer-authenticated JSON calls; the token never leaves the server. */
export class MpHttp {
  private readonly baseUrl: string;
  private readonly fetchImpl: FetchLike;
  constructor(private readonly opts: MpHttpOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = opts.fetch ?? ((input, init) => fetch(input, init));
  }

  async request<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, req: MpRequest = {}): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { authorization: `Bearer ${this.opts.accessToken}`, accept: 'application/json' };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET') headers['x-idempotency-key'] = req.idempotencyKey ?? randomUUID();
    let res: Response;
    try {
      res = await this.fetchImpl(url.toString(), {
        method,
        headers,
        body: req.body === undefined ? null : JSON.stringify(req.body),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
      });
    } catch (error) {
      throw new MpError(0, 'network', error instanceof Error ? error.message : 'network error');
    }
    const text = await res.text();
    const data = parseJson(text);
    if (!res.ok) {
      const err = (data ?? {}) as { error?: unknown; message?: unknown };
      const code = typeof err.error === 'string' ? err.error : `http_${res.status}`;
      const message = typeof err.message === 'string' ? err.message : text.slice(0, 200) || res.statusText;
      throw new MpError(res.status, code, message, data);
    }
    return data as T;
  }
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
