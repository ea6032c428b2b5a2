import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializer } from './serializer.ts';

const Schema = z.object({ order: z.object({ id: z.string(), total: z.number().int() }) });
const compile = (check: boolean) =>
  responseSerializer(check)({ schema: Schema, method: 'POST', url: '/api/orders/:orderId/items', httpStatus: '200' });

describe('responseSerializer', () => {
  it('writes the answer as JSON, unchecked in service', () => {
    const answer = { order: { id: 'o1', total: 12_50, waiterPin: '1111' } };
    expect(compile(false)(answer)).toBe(JSON.stringify(answer));
  });

  it('under the suites, passes an answer that is exactly its schema', () => {
    const answer = { order: { total: 12_50, id: 'o1' } };
    expect(compile(true)(answer)).toBe(JSON.stringify(answer));
  });

  it('under the suites, refuses an answer with a field its schema does not list (zod would have stripped it)', () => {
    expect(() => compile(true)({ order: { id: 'o1', total: 12_50, waiterPin: '1111' } })).toThrow(/differs from its schema/);
  });

  it('under the suites, refuses an answer its schema rejects', () => {
    expect(() => compile(true)({ order: { id: 'o1', total: 12.5 } })).toThrow();
  });
});
