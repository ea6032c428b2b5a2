import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ZodType } from 'zod';
import type { Access } from '../../src/http/access.ts';

/**
 * The real route table, as the app declared it. A test file wraps the `fastify` factory with
 * `vi.mock('fastify', …wrapFastify)`: every instance then records each route (method, url,
 * config.access and its zod schemas) from the first onRoute hook, before any other hook runs.
 * New routes are picked up without touching the tests.
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

const tables = new WeakMap<object, CollectedRoute[]>();

type FastifyFactory = (...args: unknown[]) => FastifyInstance;

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

/** Module replacement for `fastify`: same exports, but instances remember their routes. */
export function wrapFastify<M extends { default: unknown }>(mod: M): M {
  const original = mod.default as FastifyFactory;
  const wrapped = (...args: unknown[]): FastifyInstance => {
    const app = original(...args);
    const list: CollectedRoute[] = [];
    tables.set(app, list);
    app.addHook('onRoute', (route) => collect(list, route));
    return app;
  };
  Object.assign(wrapped, original);
  return { ...mod, default: wrapped, fastify: wrapped };
}

/** Every /api route of a built app, sorted, without duplicates. */
export function apiRoutes(app: FastifyInstance): CollectedRoute[] {
  const list = tables.get(app);
  if (!list) throw new Error('route table not captured: the test file must vi.mock("fastify") with wrapFastify');
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
