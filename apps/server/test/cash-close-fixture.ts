import { randomUUID } from 'node:crypto';
import { beforeAll } from 'vitest';
import type { TestDbKind, TestServer } from '../src/testing/index.ts';
import { orderItemRow, orderRow } from '../src/testing/factories.ts';
import { productIdsByName } from '../src/testing/reads.ts';
import { serverForSuite } from '../src/testing/suite.ts';

export interface FixtureItem {
  name: string;
  price: number;
  quantity: number;
  deleted?: boolean;
}

export interface FixtureOrder {
  /** Defaults to a random v4 UUID, so ticket numbers differ between orders. */
  id?: string;
  completedAt: number | null;
  status?: 'pagado' | 'activo' | 'cancelado';
  tableNumber?: number;
  tableName?: string | null;
  waiter?: { id: string; name: string } | null;
  method?: 'efectivo' | 'tarjeta' | 'transferencia';
  tipBps?: number;
  items: FixtureItem[];
}

/**
 * Writes a finished order straight into the database, with its items and payment, at a
 * chosen completion instant: the close route always stamps "now", and these tests need
 * orders at 16:59 or 03:00 of some past night.
 */
export async function insertOrder(
  server: TestServer,
  spec: FixtureOrder,
): Promise<{ id: string; total: number; subtotal: number; tip: number }> {
  const db = server.ctx.db.db;
  const id = spec.id ?? randomUUID();
  const status = spec.status ?? 'pagado';
  const subtotal = spec.items.filter((i) => !i.deleted).reduce((sum, i) => sum + i.price * i.quantity, 0);
  const tipBps = spec.tipBps ?? 0;
  const tip = Math.round((subtotal * tipBps) / 10_000);
  const total = subtotal + tip;
  const at = spec.completedAt ?? 1_700_000_000_000;
  const method = spec.method ?? 'efectivo';
  const waiter = spec.waiter === undefined ? { id: server.users.waiter.id, name: server.users.waiter.displayName } : spec.waiter;
  await db.transaction().execute(async (trx) => {
    const table = { id: `table-${spec.tableNumber ?? 1}`, number: spec.tableNumber ?? 1 };
    const orderWaiter = waiter ? { id: waiter.id, displayName: waiter.name } : null;
    const order = orderRow(table, orderWaiter, {
      id,
      table_name: spec.tableName ?? null,
      status,
      payment_method: status === 'pagado' ? method : null,
      people_count: 2,
      subtotal,
      tip: status === 'pagado' ? tip : 0,
      total: status === 'pagado' ? total : subtotal,
      version: 3,
      created_at: at - 3_600_000,
      updated_at: at,
      completed_at: status === 'pagado' ? spec.completedAt : null,
      active_table_id: null,
    });
    await trx.insertInto('orders').values(order).execute();
    const items = spec.items.map((item, index) =>
      orderItemRow(
        id,
        { id: `product-${item.name}`, name: item.name, price: item.price, category: 'Comida' },
        {
          id: randomUUID(),
          quantity: item.quantity,
          is_deleted: item.deleted ? 1 : 0,
          deleted_at: null,
          created_at: at - 3_000_000 + index,
        },
      ),
    );
    for (const item of items) await trx.insertInto('order_items').values(item).execute();
    if (status === 'pagado') {
      await trx
        .insertInto('payments')
        .values({
          id: randomUUID(),
          order_id: id,
          method,
          amount: total,
          received_amount: method === 'efectivo' ? total : null,
          change_amount: method === 'efectivo' ? 0 : null,
          tip_amount: tip,
          tip_bps: tipBps,
          cashier_id: server.users.admin.id,
          cashier_name: server.users.admin.displayName,
          provider_payment_id: null,
          created_at: at,
        })
        .execute();
    }
  });
  return { id, total, subtotal, tip };
}

/** A clock the test moves by hand. */
export function manualClock(start: number) {
  let now = start;
  return { now: () => now, set: (t: number) => void (now = t) };
}

/**
 * For a describe block on a manual clock from `start`: a test server for the block's tests
 * (serverForSuite, with `signIn`), the catalogue's product ids by name, and `setTime`, which
 * moves the clock and signs in again (sessions follow the clock).
 */
export function serverOnManualClock(kind: TestDbKind, start: number, signIn: (server: TestServer) => Promise<void>) {
  const clock = manualClock(start);
  const suite = serverForSuite(kind, { clock }, signIn);
  const products: Record<string, string> = {};
  const db = () => suite.server.ctx.db.db;
  beforeAll(async () => {
    Object.assign(products, await productIdsByName(db()));
  });
  return {
    get server() {
      return suite.server;
    },
    db,
    products,
    setTime: async (at: number) => {
      clock.set(at);
      await suite.signInAgain();
    },
  };
}
