import { t } from './i18n/es-MX.ts';
import { connection } from './connection.ts';

/** An API failure carrying the server's Spanish message, safe to show in a toast. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface ErrorBody {
  error?: { code?: string; message?: string };
}

// Above the server's own 15 s limit on calls to the card provider, so a slow provider still answers.
const WRITE_TIMEOUT_MS = 25_000;

export async function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : null,
      // A write never spins forever on a Wi-Fi that drops without telling the browser.
      signal: method === 'GET' ? null : AbortSignal.timeout(WRITE_TIMEOUT_MS),
    });
  } catch (error) {
    connection.reportFailure();
    if (error instanceof DOMException && error.name === 'TimeoutError') throw new ApiError(0, 'timeout', t.app.timeout);
    throw new ApiError(0, 'network', t.app.unavailable);
  }
  const text = await res.text();
  const data: unknown = text ? safeJson(text) : null;
  if (!res.ok) {
    const err = (data as ErrorBody | null)?.error;
    throw new ApiError(
      res.status,
      err?.code ?? 'http_' + res.status,
      err?.message ?? (res.status >= 500 ? t.app.unexpected : t.app.forbidden),
    );
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown, headers?: Record<string, string>) => api<T>('POST', path, body, headers);
export const patch = <T>(path: string, body?: unknown) => api<T>('PATCH', path, body);
export const put = <T>(path: string, body?: unknown) => api<T>('PUT', path, body);
export const del = <T>(path: string, body?: unknown) => api<T>('DELETE', path, body);

/** Actions that cannot wait in the outbox fail at once, with their own message, when the server is out of reach. */
export function requireOnline(message: string): void {
  if (connection.isOffline()) throw new ApiError(0, 'offline', message);
}

/** The offline refusal's own message, or the screen's usual one. */
export function offlineOr(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.code === 'offline' ? error.message : fallback;
}

export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}
