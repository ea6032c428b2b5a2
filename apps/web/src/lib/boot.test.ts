import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { seedQueryCache, takeBootData, TABLES_KEY } from './boot.ts';
import { CONFIG_KEYS } from './config.ts';
import { SHARED_DEVICE_KEY } from './shared-device.ts';

/** The one thing takeBootData asks of the page: an element by id, with its text, that can be removed. */
function page(text: string | null) {
  let element: { textContent: string; remove(): void } | null =
    text === null ? null : { textContent: text, remove: () => void (element = null) };
  return { doc: { getElementById: () => element } as unknown as Document, present: () => element !== null };
}

describe('first visit data', () => {
  it('is read once: the block leaves the page, so nothing reads it again (after a sign-out, for one)', () => {
    const p = page('{"user":{"id":"u1","role":"waiter"},"tables":[]}');
    expect(takeBootData(p.doc)?.user).toMatchObject({ id: 'u1' });
    expect(p.present()).toBe(false);
    expect(takeBootData(p.doc)).toBeNull();
  });

  it('no block, broken JSON or no user: nothing, and the queries fetch as usual', () => {
    expect(takeBootData(page(null).doc)).toBeNull();
    expect(takeBootData(page('{"user":').doc)).toBeNull();
    expect(takeBootData(page('{"tables":[]}').doc)).toBeNull();
  });

  it('seeds the session and, when present, the tables into the query cache', () => {
    const client = new QueryClient();
    const user = { id: 'u1', role: 'waiter' };
    seedQueryCache(client, takeBootData(page(JSON.stringify({ user, tables: [{ id: 't1' }] })).doc), ['session']);
    expect(client.getQueryData(['session'])).toEqual(user);
    expect(client.getQueryData(TABLES_KEY)).toEqual([{ id: 't1' }]);
    const other = new QueryClient();
    seedQueryCache(other, takeBootData(page(JSON.stringify({ user })).doc), ['session']);
    expect(other.getQueryData(TABLES_KEY)).toBeUndefined();
    expect(other.getQueryData(CONFIG_KEYS.general)).toBeUndefined();
    expect(other.getQueryData(SHARED_DEVICE_KEY)).toBeUndefined();
  });

  it('seeds the business information and the shared-device state under the keys their hooks read', () => {
    const client = new QueryClient();
    const generalConfig = { name: 'La Cantina', logoUrl: '' };
    const sharedDevice = { enrolled: false };
    seedQueryCache(client, takeBootData(page(JSON.stringify({ user: { id: 'u1', role: 'waiter' }, generalConfig, sharedDevice })).doc), [
      'session',
    ]);
    expect(client.getQueryData(CONFIG_KEYS.general)).toEqual(generalConfig);
    expect(client.getQueryData(SHARED_DEVICE_KEY)).toEqual(sharedDevice);
  });
});
