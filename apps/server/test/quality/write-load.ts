/**
 * Concurrent clients that write through the HTTP API until the server goes away, recording
 * which writes were acknowledged (a 200 reached the client) and which were in flight.
 */
export interface WriteLog {
  ackedItems: string[];
  unackedItems: string[];
  ackedOpens: string[];
  ackedCloses: string[];
  unackedCloses: string[];
  statuses: Map<number, number>;
}

export function newWriteLog(): WriteLog {
  return { ackedItems: [], unackedItems: [], ackedOpens: [], ackedCloses: [], unackedCloses: [], statuses: new Map() };
}

interface Call {
  status: number;
  body: unknown;
}

async function call(
  base: string,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Call> {
  const res = await fetch(base + path, {
    method,
    headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : null,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

export async function login(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

type TableRow = { id: string; number: number; status: string; currentOrderId: string | null };
type OrderBody = {
  order: { id: string; status: string; items: { id: string; notes: string | null; status: string; isDeleted: boolean }[] };
};

/** The active order of a table for this caller: opens it when free, else takes the current one. */
async function orderOf(base: string, cookie: string, table: TableRow, log: WriteLog): Promise<string | null> {
  const opened = await call(base, cookie, 'POST', `/api/tables/${table.id}/open`);
  count(log, opened.status);
  if (opened.status === 200) {
    const id = (opened.body as OrderBody).order.id;
    log.ackedOpens.push(id);
    return id;
  }
  const current = await call(base, cookie, 'GET', `/api/tables/${table.id}/order`);
  count(log, current.status);
  return current.status === 200 ? (current.body as OrderBody).order.id : null;
}

function count(log: WriteLog, status: number): void {
  log.statuses.set(status, (log.statuses.get(status) ?? 0) + 1);
}

export interface LoadOptions {
  base: string;
  waiterCookie: string;
  adminCookie: string;
  adminPin: string;
  productId: string;
  tables: TableRow[];
  /** Marks every item note so each acknowledged write can be found exactly once later. */
  tag: string;
  stop: () => boolean;
  log: WriteLog;
}

/** One waiter client: adds items (with a unique note) to its own table until stopped or cut off. */
async function waiterLoop(o: LoadOptions, table: TableRow, n: number): Promise<void> {
  const orderId = await orderOf(o.base, o.waiterCookie, table, o.log);
  if (!orderId) return;
  for (let seq = 0; !o.stop() && seq < 10_000; seq++) {
    const note = `${o.tag}-w${n}-${seq}`;
    try {
      const res = await call(o.base, o.waiterCookie, 'POST', `/api/orders/${orderId}/items`, {
        productId: o.productId,
        quantity: 1,
        notes: note,
      });
      count(o.log, res.status);
      if (res.status === 200) o.log.ackedItems.push(note);
      else o.log.unackedItems.push(note);
    } catch {
      o.log.unackedItems.push(note);
      return; // the server is gone
    }
  }
}

/** One cashier client: opens a table, adds two items, delivers them and closes the order in cash. */
async function closerLoop(o: LoadOptions, table: TableRow): Promise<void> {
  for (let round = 0; !o.stop() && round < 1000; round++) {
    const key = `${o.tag}-close-${round}-${Math.random().toString(36).slice(2, 10)}`;
    let orderId: string | null = null;
    try {
      orderId = await orderOf(o.base, o.adminCookie, table, o.log);
      if (!orderId) return;
      for (let i = 0; i < 2; i++) {
        const note = `${o.tag}-c-${round}-${i}`;
        const res = await call(o.base, o.adminCookie, 'POST', `/api/orders/${orderId}/items`, {
          productId: o.productId,
          quantity: 1,
          notes: note,
        });
        count(o.log, res.status);
        if (res.status !== 200) return;
        o.log.ackedItems.push(note);
      }
      const order = await call(o.base, o.adminCookie, 'GET', `/api/orders/${orderId}`);
      for (const item of (order.body as OrderBody).order.items) {
        if (item.isDeleted || item.status === 'entregado') continue;
        const res = await call(o.base, o.adminCookie, 'PATCH', `/api/orders/${orderId}/items/${item.id}/status`, { status: 'entregado' });
        count(o.log, res.status);
      }
      const body = { method: 'efectivo', pin: o.adminPin, tipBps: 1000, peopleCount: 2, receivedAmount: 10_000_000 };
      const closed = await call(o.base, o.adminCookie, 'POST', `/api/orders/${orderId}/close`, body, { 'idempotency-key': key });
      count(o.log, closed.status);
      if (closed.status === 200) o.log.ackedCloses.push(orderId);
      else o.log.unackedCloses.push(orderId);
    } catch {
      if (orderId) o.log.unackedCloses.push(orderId);
      return;
    }
  }
}

/** Runs waiters on their tables and one cashier on the last table, until stopped or cut off. */
export async function runWriteLoad(o: LoadOptions, waiters: number): Promise<void> {
  const loops: Promise<void>[] = [];
  for (let i = 0; i < waiters; i++) loops.push(waiterLoop(o, o.tables[i]!, i).catch(() => undefined));
  loops.push(closerLoop(o, o.tables[waiters]!).catch(() => undefined));
  await Promise.all(loops);
}
