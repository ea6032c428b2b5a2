import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Writes each answer as JSON. With `check` (the test suites, CHECK_RESPONSES=on) every answer is
 * also encoded through its route's response schema and must come out the same: nothing missing,
 * nothing extra (zod would strip it), no transform changing a value. The server builds its answers
 * from its own presenters, so in service that check is our own output checked again on every
 * request: it cost about a tenth of the server's CPU on a Saturday night (docs/performance.md).
 * The suites keep it honest; the routes' input is still validated on every request.
 */
export function responseSerializer(check: boolean): FastifySerializerCompiler<unknown> {
  return ({ schema, method, url }) => {
    const zodSchema = schema instanceof z.ZodType ? schema : null;
    return (data: unknown) => {
      const json = JSON.stringify(data);
      if (!check || !zodSchema) return json;
      const encoded = z.safeEncode(zodSchema, data);
      if (encoded.error) throw new ResponseSerializationError(method, url, { cause: encoded.error });
      if (!isDeepStrictEqual(JSON.parse(json), JSON.parse(JSON.stringify(encoded.data)))) {
        throw new Error(`${method} ${url}: the answer differs from its schema's encoding: ${JSON.stringify(encoded.data).slice(0, 300)}`);
      }
      return json;
    };
  };
}
