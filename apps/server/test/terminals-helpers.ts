import { randomUUID } from 'node:crypto';
import type { Order, Table } from '@comanda/contract';
import type { ApiClient } from '../src/testing/index.ts';
import type { RunningServer } from '../src/server.ts';
import type { Simulator } from '../src/payments/mercadopago/simulator/server.ts';

export type Err = { error: { message: string; code: string } };

export const key = () => `k-${randomUUID()}`;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Points a server at a test-owned simulator, with polling shortened to 20 ms. */
export function cardEnv(sim: Simulator, extra: Record<string, string> = {}): Record<string, string> {
  return { MP_ACCESS_TOKEN: sim.token, MP_BASE_URL: sim.url, MP_POLL_MS: '20', ...extra };
}

export async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 8000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > until) throw new Error(`waitFor timed out; last value: ${JSON.stringify(last)}`);
    await sleep(15);
    last = await read();
  }
  return last;
}

/** The waiter opens table N, orders two products, and (unless told not to) the kitchen delivers them. */
export async function openReadyOrder(
  server: Pick<RunningServer, 'ctx'>,
  admin: ApiClient,
  waiter: ApiClient,
  number: number,
  productId?: string,
  deliver = true,
): Promise<Order> {
  const tables = (await waiter.get<{ tables: Table[] }>('/api/tables')).body.tables;
  const table = tables.find((t) => t.number === number);
  if (!table) throw new Error(`no table ${number}`);
  const opened = await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`);
  if (opened.status !== 200) throw new Error(`open table ${number}: ${opened.status} ${JSON.stringify(opened.body)}`);
  const products = await server.ctx.db.db
    .selectFrom('products')
    .select(['id'])
    .where('name', 'in', ['Tacos al pastor (3)', 'Cerveza clara'])
    .execute();
  const ids = productId ? [productId] : products.map((p) => p.id);
  let order = opened.body.order;
  for (const id of ids)
    order = (await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: id, quantity: 1 })).body.order;
  if (deliver) {
    for (const item of order.items) {
      const res = await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' });
      if (res.status !== 200) throw new Error(`deliver: ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
  return (await admin.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order;
}
