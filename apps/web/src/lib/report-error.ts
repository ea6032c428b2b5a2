import { isRouteErrorResponse } from 'react-router';
import type { ClientErrorBody } from '@comanda/contract';
import { CLIENT_ERROR_LIMITS } from '@comanda/domain';

const reported = new WeakSet<object>();

/** The report of a crashed screen: what broke, where (the path only: a query can hold a token), on which browser. */
export function clientErrorReport(error: unknown): ClientErrorBody {
  let message: string;
  let stack: string | undefined;
  if (isRouteErrorResponse(error)) message = `${error.status} ${error.statusText}`;
  else if (error instanceof Error) {
    message = `${error.name}: ${error.message}`;
    stack = error.stack;
  } else message = String(error);
  return {
    message: message.slice(0, CLIENT_ERROR_LIMITS.message),
    ...(stack ? { stack: stack.slice(0, CLIENT_ERROR_LIMITS.stack) } : {}),
    url: location.pathname.slice(0, CLIENT_ERROR_LIMITS.url),
    userAgent: navigator.userAgent.slice(0, CLIENT_ERROR_LIMITS.userAgent),
  };
}

/**
 * Sends a crash to the server's log (POST /api/client-errors), once per error object, and
 * never throws: the error page must show whether or not the report gets through.
 */
export function reportClientError(error: unknown): void {
  if (typeof error === 'object' && error !== null) {
    if (reported.has(error)) return;
    reported.add(error);
  }
  try {
    void fetch('/api/client-errors', {
      method: 'POST',
      credentials: 'same-origin',
      keepalive: true,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(clientErrorReport(error)),
    }).catch(() => undefined);
  } catch {
    /* reporting is best effort */
  }
}
