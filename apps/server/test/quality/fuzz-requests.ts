import fc from 'fast-check';
import type { ZodType } from 'zod';
import type { CollectedRoute } from './route-table.ts';
import {
  FORBIDDEN_FIELDS,
  HUGE_STRING,
  RAW_NUMBERS,
  badValueArb,
  jsonSchemaOf,
  sampleValid,
  type JsonSchema,
} from './schema-arbitraries.ts';

/** One hostile request: which part was mutated, and whether the schema itself refuses it. */
export interface FuzzRequest {
  part: 'body' | 'querystring' | 'params';
  mutation: string;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  bodyText: string | undefined;
  /** True when the route's own zod schema rejects the mutated part: the server must answer 4xx. */
  invalid: boolean;
}

const BAD_SEGMENTS = [
  '',
  ' ',
  '..',
  '.',
  'x'.repeat(65),
  'x'.repeat(4000),
  '-1',
  '1.5',
  'NaN',
  '__proto__',
  'constructor',
  '🍺',
  "1' OR '1'='1",
  '\u0000',
  '%',
  'a/b',
  'null',
];
const BAD_QUERY_VALUES = [
  '',
  'abc',
  '-1',
  '1.5',
  'NaN',
  'Infinity',
  '1e999',
  '0x10',
  'x'.repeat(6000),
  '__proto__',
  'pagado',
  'admin',
  "'; DROP TABLE orders; --",
  '\u0000',
  '9999-99-99',
  '2024-02-30',
  '🍺',
];
const EXTRA_VALUES: unknown[] = ['pagado', 0, -1, 'admin', 1e9, true, null, 99_999_999, { $ne: null }];

function nullRecord<T>(entries: [string, T][]): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

function parses(schema: ZodType | undefined, value: unknown): boolean {
  return schema ? schema.safeParse(value).success : true;
}

function textParses(schema: ZodType | undefined, text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  return parses(schema, value);
}

function toStrings(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) out[k] = String(v);
  return out;
}

/** Mutated JSON bodies: wrong types, broken JSON, raw NaN/Infinity, 1 MB strings, forbidden and prototype keys. */
function bodyMutations(schema: ZodType): fc.Arbitrary<{ mutation: string; text: string }> {
  const js = jsonSchemaOf(schema);
  const valid = (sampleValid(schema) ?? {}) as Record<string, unknown>;
  const base = typeof valid === 'object' && !Array.isArray(valid) ? valid : {};
  const props: Record<string, JsonSchema> = js.properties ?? {};
  const names = Object.keys(props).length ? Object.keys(props) : ['value'];
  const with_ = (k: string, v: unknown) => JSON.stringify({ ...base, [k]: v });
  return fc.oneof(
    fc
      .constantFrom('[]', '"x"', '42', 'null', 'true', '{', '{"a":', "{'a':1}", '{"a":1}}', '['.repeat(2000) + ']'.repeat(2000))
      .map((text) => ({ mutation: `top-level ${text.slice(0, 12)}`, text })),
    fc
      .constantFrom(...names)
      .chain((k) =>
        badValueArb(props[k] ?? {}).map((v) => ({ mutation: `field ${k} = ${JSON.stringify(v)?.slice(0, 40)}`, text: with_(k, v) })),
      ),
    fc
      .tuple(fc.constantFrom(...names), fc.constantFrom(...RAW_NUMBERS))
      .map(([k, raw]) => ({ mutation: `field ${k} = raw ${raw}`, text: with_(k, '__RAW__').replace('"__RAW__"', raw) })),
    fc.constantFrom(...names).map((k) => {
      const rest = { ...base };
      delete rest[k];
      return { mutation: `missing ${k}`, text: JSON.stringify(rest) };
    }),
    fc
      .tuple(fc.constantFrom(...FORBIDDEN_FIELDS), fc.constantFrom(...EXTRA_VALUES))
      .map(([k, v]) => ({ mutation: `extra ${k}`, text: with_(k, v) })),
    fc.constantFrom('__proto__', 'constructor').map((k) => ({
      mutation: `prototype key ${k}`,
      text: JSON.stringify(base)
        .replace(
          /^\{/,
          k === '__proto__' ? '{"__proto__":{"role":"admin","status":"pagado"},' : '{"constructor":{"prototype":{"role":"admin"}},',
        )
        .replace(/,\}$/, '}'),
    })),
    fc.constantFrom(...names).map((k) => ({ mutation: `field ${k} = 1 MB string`, text: with_(k, HUGE_STRING) })),
  );
}

function queryMutations(
  schema: ZodType,
  valid: Record<string, string>,
): fc.Arbitrary<{ mutation: string; query: Record<string, string | string[]> }> {
  const js = jsonSchemaOf(schema);
  const names = Object.keys(js.properties ?? {}).length ? Object.keys(js.properties ?? {}) : ['q'];
  const entries = Object.entries(valid);
  return fc.oneof(
    fc
      .tuple(fc.constantFrom(...names), fc.constantFrom(...BAD_QUERY_VALUES))
      .map(([k, v]) => ({ mutation: `query ${k}=${v.slice(0, 20)}`, query: nullRecord([...entries.filter(([n]) => n !== k), [k, v]]) })),
    fc.constantFrom(...names).map((k) => ({
      mutation: `query ${k} twice`,
      query: nullRecord<string | string[]>([...entries.filter(([n]) => n !== k), [k, [valid[k] ?? '1', 'x']]]),
    })),
    fc.constantFrom(...names).map((k) => ({ mutation: `query without ${k}`, query: nullRecord(entries.filter(([n]) => n !== k)) })),
    fc
      .tuple(
        fc.constantFrom(...FORBIDDEN_FIELDS, '__proto__', 'constructor', '__proto__[role]'),
        fc.constantFrom('pagado', 'admin', '1', '-1'),
      )
      .map(([k, v]) => ({
        mutation: `query extra ${k}`,
        query: nullRecord([...entries, [k, v]]),
      })),
  );
}

function paramMutations(
  schema: ZodType,
  valid: Record<string, string>,
): fc.Arbitrary<{ mutation: string; params: Record<string, string> }> {
  const names = Object.keys(valid);
  return fc
    .tuple(fc.constantFrom(...names), fc.constantFrom(...BAD_SEGMENTS))
    .map(([k, v]) => ({ mutation: `param ${k}=${JSON.stringify(v.slice(0, 20))}`, params: { ...valid, [k]: v } }));
}

/** Requests for one route: exactly one part (body, query or params) is hostile, the others plausible. */
export function fuzzRequests(route: CollectedRoute, ids: Record<string, string>, fallbackId: string): fc.Arbitrary<FuzzRequest> {
  const paramNames = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const params = Object.fromEntries(paramNames.map((n) => [n, ids[n] ?? fallbackId]));
  const query = route.querystring ? toStrings(sampleValid(route.querystring)) : {};
  const bodyText = route.body ? JSON.stringify(sampleValid(route.body) ?? {}) : route.method === 'GET' ? undefined : '{}';
  const common = { params, query, bodyText };
  const parts: fc.Arbitrary<FuzzRequest>[] = [];
  if (route.body) {
    const schema = route.body;
    parts.push(
      bodyMutations(schema).map(({ mutation, text }) => ({
        ...common,
        part: 'body',
        mutation,
        bodyText: text,
        invalid: !textParses(schema, text),
      })),
    );
  }
  if (route.querystring) {
    const schema = route.querystring;
    parts.push(
      queryMutations(schema, query).map(({ mutation, query: q }) => ({
        ...common,
        part: 'querystring',
        mutation,
        query: q,
        invalid: !parses(schema, q),
      })),
    );
  }
  if (route.params && paramNames.length) {
    const schema = route.params;
    parts.push(
      paramMutations(schema, params).map(({ mutation, params: p }) => ({
        ...common,
        part: 'params',
        mutation,
        params: p,
        invalid: !parses(schema, p),
      })),
    );
  }
  if (!parts.length) throw new Error(`${route.method} ${route.url} has no schema to fuzz`);
  return fc.oneof(...parts).map(describable);
}

const clip = (v: string | undefined) => (v === undefined ? 'none' : v.length > 200 ? `${v.slice(0, 200)}… (${v.length} chars)` : v);

/** Counterexamples print short: a 1 MB string would bury the report. */
function describable(req: FuzzRequest): FuzzRequest {
  return Object.assign(req, {
    [fc.toStringMethod]: () =>
      `${req.part}: ${req.mutation} | params ${clip(JSON.stringify(req.params))} | query ${clip(JSON.stringify(req.query))} | body ${clip(req.bodyText)}`,
  });
}

/** The URL of a fuzz request: segments encoded so '..' and '/' stay inside their segment. */
export function fuzzPath(url: string, req: FuzzRequest): string {
  const path = url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeURIComponent(req.params[name] ?? '').replace(/\./g, '%2E'));
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query)) for (const one of Array.isArray(v) ? v : [v]) search.append(k, one);
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}
