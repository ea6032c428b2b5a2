import { afterEach, describe, expect, it } from 'vitest';
import { newId, newIdempotencyKey } from './ids.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '@comanda/contract';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const original = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(crypto) as object, 'randomUUID');

describe('ids', () => {
  afterEach(() => {
    // Restore whatever the runtime had (the property lives on the Crypto prototype).
    delete (crypto as { randomUUID?: unknown }).randomUUID;
  });

  it('uses crypto.randomUUID when the context has it', () => {
    expect(newId()).toMatch(UUID_V4);
  });

  it('builds a version-4 UUID from getRandomValues in an insecure context (no randomUUID)', () => {
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true, writable: true });
    expect(typeof crypto.randomUUID).toBe('undefined');
    const ids = new Set(Array.from({ length: 500 }, () => newId()));
    expect(ids.size).toBe(500);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });

  it('makes idempotency keys the server accepts, with or without randomUUID', () => {
    expect(newIdempotencyKey('cash')).toMatch(IDEMPOTENCY_KEY_PATTERN);
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true, writable: true });
    const key = newIdempotencyKey('card');
    expect(key).toMatch(/^card-/);
    expect(key).toMatch(IDEMPOTENCY_KEY_PATTERN);
  });

  it('leaves the runtime as it found it', () => {
    expect(original).toBeDefined();
    expect(typeof crypto.randomUUID).toBe('function');
  });
});
