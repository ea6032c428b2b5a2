import { t } from './i18n/first-screen.ts';
import { connection } from './connection.ts';
import { reportClientError } from './report-error.ts';

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

/**
 * How a response is read: the contract's response schema for the route (the one the server
 * serialises with), so what the screens get is the contract's type, checked. Typed by shape
 * (`safeParse`), so this module — on the first screen — does not import zod itself.
 */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: unknown };
}

/**
 * The calls of the first screen (session, sign-in, the business name) read their answer
 * unchecked: parsing them would put zod into the entry the login route loads. The server still
 * serialises them through their schema.
 */
export function unchecked<T>(): ResponseSchema<T> {
  return { safeParse: (data) => ({ success: true, data: data as T }) };
}

/** For writes whose answer the screen does not read. */
export const IGNORED: ResponseSchema<void> = { safeParse: () => ({ success: true, data: undefined }) };

// Above the server's own 15 s limit on calls to the card provider, so a slow provider still answers.
const WRITE_TIMEOUT_MS = 25_000;

export async function api<T>(
  schema: ResponseSchema<T>,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
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
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    // A server and a web of different versions, or a bug: logged on the server like a crashed
    // screen (the path only, as crash reports do: a query can hold a token); the person gets a
    // message, not a broken screen.
    reportClientError(new Error(`${method} ${path.split('?')[0]}: response does not match its schema: ${String(parsed.error)}`));
    throw new ApiError(res.status, 'invalid_response', t.apiResponse.invalid);
  }
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export const get = <T>(schema: ResponseSchema<T>, path: string) => api(schema, 'GET', path);
export const post = <T>(schema: ResponseSchema<T>, path: string, body?: unknown, headers?: Record<string, string>) =>
  api(schema, 'POST', path, body, headers);
export const patch = <T>(schema: ResponseSchema<T>, path: string, body?: unknown) => api(schema, 'PATCH', path, body);
export const put = <T>(schema: ResponseSchema<T>, path: string, body?: unknown) => api(schema, 'PUT', path, body);
export const del = <T>(schema: ResponseSchema<T>, path: string, body?: unknown) => api(schema, 'DELETE', path, body);

/** Actions that cannot wait in the outbox fail at once, with their own message, when the server is out of reach. */
export function requireOnline(message: string): void {
  if (connection.isOffline()) throw new ApiError(0, 'offline', message);
}

/**
 * A write that cannot wait in the outbox (it depends on the server's state at the moment: splits,
 * moves): refused at once when offline, and a request the network dropped before the browser
 * noticed is refused with the same message. Never queued, never retried here.
 */
export async function onlineOnly<T>(message: string, write: () => Promise<T>): Promise<T> {
  requireOnline(message);
  try {
    return await write();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'network') throw new ApiError(0, 'offline', message);
    throw error;
  }
}

/** The offline refusal's own message, or the screen's usual one. */
export function offlineOr(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.code === 'offline' ? error.message : fallback;
}

export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}
