import type { RouteOptions } from 'fastify';
import type { ZodType } from 'zod';
import type { Access } from '../../src/http/access.ts';

/**
 * The real route table, as the app declared it: each route (method, url, config.access and its
 * zod schemas) is recorded by an onRoute hook, before any other hook runs: pass
 * `routeRecorder().onRoute` to startTestServer, createServer or buildApp. New routes are picked up
 * without touching the tests.
 */
export interface CollectedRoute {
  method: string;
  url: string;
  access: Access | undefined;
  websocket: boolean;
  /** config.idempotency: 'own' when the route keeps its own Idempotency-Key (see http/idempotent-routes.ts). */
  idempotency?: string | undefined;
  params?: ZodType;
  querystring?: ZodType;
  body?: ZodType;
}

function isZod(value: unknown): value is ZodType {
  return (
    typeof value === 'object' && value !== null && 'safeParse' in value && typeof (value as { safeParse: unknown }).safeParse === 'function'
  );
}

function collect(list: CollectedRoute[], route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  for (const method of methods) {
    if (method === 'HEAD' || method === 'OPTIONS') continue;
    const entry: CollectedRoute = {
      method,
      url: route.url,
      access: route.config?.access,
      websocket: Boolean((route as { websocket?: boolean }).websocket),
      idempotency: route.config?.idempotency,
    };
    if (isZod(schema.params)) entry.params = schema.params;
    if (isZod(schema.querystring)) entry.querystring = schema.querystring;
    if (isZod(schema.body)) entry.body = schema.body;
    list.push(entry);
  }
}

/** Records the routes of the app it is given to (the `onRoute` option of startTestServer and buildApp). */
export function routeRecorder(): { onRoute: (route: RouteOptions) => void; routes: () => CollectedRoute[] } {
  const list: CollectedRoute[] = [];
  return { onRoute: (route) => collect(list, route), routes: () => tidy(list) };
}

/** Every /api route, sorted, without duplicates. */
function tidy(list: CollectedRoute[]): CollectedRoute[] {
  const seen = new Set<string>();
  return list
    .filter((r) => r.url.startsWith('/api'))
    .filter((r) => {
      const key = `${r.method} ${r.url}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => (a.url === b.url ? a.method.localeCompare(b.method) : a.url.localeCompare(b.url)));
}

/** Fills `:name` segments from a lookup (unknown names get the fallback id). */
export function fillPath(url: string, ids: Record<string, string>, fallback: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeURIComponent(ids[name] ?? fallback));
}

/** A well-formed id that no row has: handlers answer 404, never touch data. */
export const MISSING_ID = '0190f0f0-0000-7000-8000-000000000000';
