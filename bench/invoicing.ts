/**
 * Invoicing's two figures: a cash close's latency with the receipts' worker stopped and running
 * (the receipt must not slow the close), and the receipts sent per second by the queue after the
 * PAC was down for N tickets. Run: npx tsx bench/invoicing.ts [sqlite|postgres] [N]
 */
import { randomUUID } from 'node:crypto';
import type { Order, Product } from '@comanda/contract';
import { startTestServer } from '../apps/server/src/testing/index.ts';
import { startInvoicingSimulator } from '../apps/server/src/invoicing/simulator/server.ts';
import { startInvoicing, stopInvoicing } from '../apps/server/src/model/invoicing/invoicing-service.ts';

const kind = (process.argv[2] ?? 'sqlite') as 'sqlite' | 'postgres';
const outage = Number(process.argv[3] ?? 500);
const CLOSES = 80;
const key = () => ({ 'idempotency-key': `b-${randomUUID()}` });
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

const sim = await startInvoicingSimulator({ apiKey: 'sk_test_bench' });
const server = await startTestServer(kind, {
  env: { FACTURAPI_KEY: sim.apiKey, FACTURAPI_BASE_URL: sim.apiUrl, INVOICING_RETRY_MS: '200', INVOICING_RETRY_MAX_MS: '1000' },
  checkInvariants: false,
});
const admin = await server.login(server.users.admin.email);
const waiter = await server.login(server.users.waiter.email);
const product = (await admin.get<{ products: Product[] }>('/api/products')).body.products.find((p) => p.available)!;
let tableNumber = 199;

async function ready(): Promise<string> {
  const table = (await admin.post<{ table: { id: string } }>('/api/tables', { number: ++tableNumber }, key())).body.table;
  let order = (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`, {}, key())).body.order;
  order = (await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: product.id, quantity: 3 }, key())).body.order;
  for (const item of order.items) await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' }, key());
  return order.id;
}
async function close(id: string): Promise<number> {
  const t = performance.now();
  const res = await waiter.post(
    `/api/orders/${id}/close`,
    { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 1000, peopleCount: 1, receivedAmount: 10_000_00 },
    key(),
  );
  if (res.status !== 200) throw new Error(`close ${res.status}`);
  return performance.now() - t;
}
async function closes(label: string): Promise<void> {
  const ids: string[] = [];
  for (let i = 0; i < CLOSES; i++) ids.push(await ready());
  const ms: number[] = [];
  for (const id of ids) ms.push(await close(id));
  console.log(`${kind} close ${label}: p50 ${pct(ms, 50).toFixed(1)} ms, p95 ${pct(ms, 95).toFixed(1)} ms (${CLOSES} closes)`);
}

await stopInvoicing(server.ctx);
await closes('worker stopped');
await startInvoicing(server.ctx, () => undefined);
await closes('worker running');
await stopInvoicing(server.ctx);
await closes('worker stopped (again)');
await startInvoicing(server.ctx, () => undefined);

// The PAC down for `outage` tickets, then back: how fast the queue empties.
sim.control.addFault({ status: 503, path: '/v2/receipts', count: 0 });
const ids: string[] = [];
for (let i = 0; i < outage; i++) ids.push(await ready());
for (const id of ids) await close(id);
const db = server.ctx.db.db;
const pending = async () =>
  Number(
    (
      await db
        .selectFrom('invoice_receipts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('state', '=', 'pendiente')
        .executeTakeFirst()
    )?.n ?? 0,
  );
while ((await pending()) < outage) await new Promise((r) => setTimeout(r, 50));
sim.control.faults.length = 0;
const t = performance.now();
while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 20));
const s = (performance.now() - t) / 1000;
const atPac = new Set([...sim.store.receipts.values()].map((r) => r.folio_number)).size;
console.log(
  `${kind} after an outage of ${outage} tickets: ${outage} receipts in ${s.toFixed(2)} s = ${(outage / s).toFixed(0)} receipts/s (first retry within the back-off cap of 1 s); ${atPac} distinct folios at the PAC, ${sim.store.receipts.size} receipts`,
);
await server.close();
await sim.close();
process.exit(0);
