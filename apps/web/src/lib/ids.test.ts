import { afterEach, describe, expect, it } from 'vitest';
import { newId, newIdempotencyKey } from './ids.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '@comanda/contract';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const original = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(crypto) as object, 'randomUUID');
const insecure = () => Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true, writable: true });

describe('ids', () => {
  afterEach(() => {
    // Restore whatever the runtime had (the property lives on the Crypto prototype).
    delete (crypto as { randomUUID?: unknown }).randomUUID;
  });

  it('builds distinct version-7 UUIDs in an insecure context (no randomUUID)', () => {
    insecure();
    expect(typeof crypto.randomUUID).toBe('undefined');
    const ids = new Set(Array.from({ length: 500 }, () => newId()));
    expect(ids.size).toBe(500);
    for (const id of ids) expect(id).toMatch(UUID_V7);
  });

  it('orders ids by the time they were made: the first 48 bits are the milliseconds', () => {
    const before = Date.now();
    const ids = Array.from({ length: 200 }, () => newId());
    const after = Date.now();
    expect([...ids].sort()).toEqual(ids);
    const ms = parseInt(ids[0]!.replace('-', '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after);
  });

  it('makes idempotency keys the server accepts, with or without randomUUID', () => {
    expect(newIdempotencyKey('cash')).toMatch(IDEMPOTENCY_KEY_PATTERN);
    insecure();
    const key = newIdempotencyKey('card');
    expect(key).toMatch(/^card-/);
    expect(key).toMatch(IDEMPOTENCY_KEY_PATTERN);
  });

  it('leaves the runtime as it found it', () => {
    expect(original).toBeDefined();
    expect(typeof crypto.randomUUID).toBe('function');
  });
});
