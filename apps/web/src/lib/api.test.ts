import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderResponseSchema, ProductResponseSchema } from '@comanda/contract';
import { ApiError, get, unchecked } from './api.ts';
import { t } from './i18n/es-MX.ts';

// A real HTTP server answering fixed bodies: what `api` parses is what came over the wire.
const product = {
  id: 'p1',
  name: 'Cerveza',
  description: '',
  price: 4500,
  category: 'Bebida',
  imageUrl: null,
  available: true,
  createdAt: 1,
  updatedAt: 2,
};
const bodies: Record<string, unknown> = {
  '/good': { product },
  '/bad-money': { product: { ...product, price: 45.5 } },
  '/missing': { order: { id: 'o1' } },
};
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(bodies[req.url ?? ''] ?? null));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('api reads responses through the contract', () => {
  it('returns the parsed body, its money branded by the schema', async () => {
    const { product: read } = await get(ProductResponseSchema, `${base}/good`);
    expect(read).toEqual(product);
  });

  it('refuses a body the schema does not describe, with a Spanish message', async () => {
    const refused = { status: 200, code: 'invalid_response', message: t.apiResponse.invalid };
    const badMoney = await get(ProductResponseSchema, `${base}/bad-money`).catch((e: unknown) => e);
    expect(badMoney).toBeInstanceOf(ApiError);
    expect(badMoney).toMatchObject(refused);
    const missing = await get(OrderResponseSchema, `${base}/missing`).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject(refused);
  });

  it('passes the first screen’s calls through unchecked', async () => {
    await expect(get(unchecked<{ order: { id: string } }>(), `${base}/missing`)).resolves.toEqual({ order: { id: 'o1' } });
  });
});
