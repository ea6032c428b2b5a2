import fc from 'fast-check';
import { z, type ZodType } from 'zod';

/**
 * fast-check arbitraries derived from a route's zod schema (through its JSON Schema, so the walk
 * does not depend on zod internals): valid values, and mutations of them that a client could send.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  default?: unknown;
}

export function jsonSchemaOf(schema: ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  email: fc.emailAddress().filter((e) => e.length <= 60),
  uuid: fc.uuid(),
  'date-time': fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  uri: fc.webUrl(),
  url: fc.webUrl(),
};

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 24, Math.max(min, 24));
  const fits = (v: string) =>
    v.length >= min && v.length <= (s.maxLength ?? Infinity) && (!s.pattern || new RegExp(s.pattern, 'u').test(v));
  if (s.format && FORMATS[s.format]) return FORMATS[s.format]!.filter(fits);
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter(fits);
    } catch {
      /* a pattern fast-check cannot invert: fall back to plain strings */
    }
  }
  return fc.string({ minLength: min, maxLength: max });
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-6) : -1_000_000);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-6) : 1_000_000);
  const min = Math.max(lo, -1_000_000_000);
  const max = Math.min(hi, 1_000_000_000);
  if (integer || s.multipleOf === 1) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Values the schema accepts (best effort: refinements outside JSON Schema are not known). */
export function validArb(s: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => validArb(a, depth + 1)));
  if (s.allOf?.length) return validArb(s.allOf[0]!, depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validArb(s.items ?? {}, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
    case 'object': {
      const props = s.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) model[k] = validArb(v, depth + 1);
      return fc.record(model, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return depth > 2 ? fc.constant(null) : fc.jsonValue({ maxDepth: 1 });
  }
}

/** One deterministic valid value, for requests that need a plausible body. */
export function sampleValid(schema: ZodType, seed = 42): unknown {
  const arb = validArb(jsonSchemaOf(schema));
  for (const value of fc.sample(arb, { seed, numRuns: 50 })) if (schema.safeParse(value).success) return value;
  return fc.sample(arb, { seed, numRuns: 1 })[0];
}

export const HUGE_STRING = 'x'.repeat(1024 * 1024);

/** Fields a browser must never set: the server computes them. */
export const FORBIDDEN_FIELDS = [
  'status',
  'total',
  'subtotal',
  'tip',
  'role',
  'cashierId',
  'price',
  'amount',
  'waiterId',
  'paid',
  'id',
  'active',
  'version',
];

/** Wrong values for any field, whatever its declared type. */
export function badValueArb(s: JsonSchema): fc.Arbitrary<unknown> {
  const common: unknown[] = [
    null,
    true,
    false,
    0,
    -1,
    -0.5,
    0.5,
    1.5,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    '',
    ' ',
    '1',
    'abc',
    [],
    [1, 2],
    {},
    { $gt: '' },
  ];
  const typed: unknown[] = [];
  if (s.maxLength !== undefined) typed.push('y'.repeat(s.maxLength + 1));
  if (s.minLength) typed.push('y'.repeat(s.minLength - 1));
  if (s.minimum !== undefined) typed.push(s.minimum - 1, s.minimum - 0.5);
  if (s.maximum !== undefined) typed.push(s.maximum + 1, s.maximum + 0.5);
  if (s.enum) typed.push('pagado', 'admin', 'ADMIN', `${String(s.enum[0])} `);
  typed.push('../../etc/passwd', "1' OR '1'='1", '<script>alert(1)</script>', '\u0000', '🍺'.repeat(10), 'a\u202Eb');
  return fc.oneof(
    { arbitrary: fc.constantFrom(...common, ...typed), weight: 6 },
    { arbitrary: fc.constant(HUGE_STRING), weight: 1 },
    { arbitrary: fc.integer({ min: -1_000_000, max: -1 }), weight: 1 },
    { arbitrary: fc.double({ noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
    { arbitrary: fc.object({ maxDepth: 2 }), weight: 1 },
  );
}

/** Numbers JSON.stringify cannot write but a hostile client can (JSON.parse reads 1e999 as Infinity). */
export const RAW_NUMBERS = ['NaN', '1e999', '-1e999', 'Infinity', '-0', '1e-400', '0x10', '01'];
