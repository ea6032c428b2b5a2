import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowed } from '../../src/http/access.ts';
import { IDEMPOTENCY_MESSAGES } from '../../src/http/idempotency.ts';
import { startTestServer, type TestServer } from '../../src/testing/index.ts';
import { errorMessageOf, makeIdentities, send, type Identity, type IdentityName } from './identities.ts';
import { MISSING_ID, fillPath, routeRecorder, type CollectedRoute } from './route-table.ts';
import { sampleValid } from './schema-arbitraries.ts';

const label = (r: CollectedRoute) => `${r.method} ${r.url}`;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The writes left out of the generic Idempotency-Key layer, on purpose (docs/decisions/0009):
 * public ones (no session to scope a key by) and those that keep their own keys. A new write
 * joins the layer by itself; leaving it out means adding it here.
 */
const EXEMPT = [
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/auth/pin-login',
  'POST /api/auth/reset-password',
  'POST /api/card-payments',
  'POST /api/card-payments/:id/record',
  'POST /api/card-payments/:id/refunded',
  'POST /api/client-errors',
  'POST /api/invoicing/tickets/:orderId/invoice',
  'POST /api/orders/:orderId/close',
  'POST /api/webhooks/mercadopago',
];

describe('the Idempotency-Key layer covers the real route table', () => {
  let server: TestServer;
  let writes: CollectedRoute[];
  let who: Record<IdentityName, Identity>;

  beforeAll(async () => {
    const recorder = routeRecorder();
    server = await startTestServer('sqlite', { onRoute: recorder.onRoute });
    writes = recorder.routes().filter((r) => MUTATING.has(r.method) && !r.websocket);
    who = await makeIdentities(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('leaves out only the public writes and those with their own keys', () => {
    const exempt = writes.filter((r) => r.access === 'public' || r.idempotency === 'own').map(label);
    expect(exempt.sort()).toEqual([...EXEMPT].sort());
  });

  it('every other write reads the key before its handler runs (a malformed key is refused, nothing written)', async () => {
    const keyed = writes.filter((r) => r.access !== 'public' && r.idempotency !== 'own');
    expect(keyed.length).toBeGreaterThan(15);
    const failures: string[] = [];
    const unchecked: string[] = [];
    for (const route of keyed) {
      const caller = (['admin', 'waiterA', 'kitchen'] as const)
        .map((n) => who[n])
        .find((i) => isAllowed(route.access!, i.role ?? undefined));
      const body = route.body ? JSON.stringify(sampleValid(route.body)) : undefined;
      const res = await send(server.url, route.method, fillPath(route.url, {}, MISSING_ID), {
        cookie: await caller!.cookie(),
        body,
        headers: { 'idempotency-key': 'no' },
      });
      const message = errorMessageOf(res.json);
      // A body the sampler could not make valid is refused by validation first; that says nothing.
      if (res.status === 400 && message?.startsWith('Datos inválidos')) {
        unchecked.push(label(route));
        continue;
      }
      if (res.status !== 400 || message !== IDEMPOTENCY_MESSAGES.invalid)
        failures.push(`${label(route)} → ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    console.log(`keyed writes: ${keyed.length}, checked: ${keyed.length - unchecked.length}, unchecked: ${unchecked.join(', ')}`);
    expect(unchecked.length).toBeLessThan(keyed.length / 4);
  });
});
