import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent, Order, Product, TicketInvoiceInfo } from '@comanda/contract';
import { testDatabaseKinds, type ApiClient, type TestServerOptions } from '../src/testing/index.ts';
import { serverForSuite } from '../src/testing/suite.ts';
import { startInvoicingSimulator, type InvoicingSimulator } from '../src/invoicing/simulator/server.ts';
import { runInvoicingRound, stopInvoicingSchedule } from '../src/features/invoicing/scheduler.ts';
import { SYNC_BATCH, syncOpenReceipts } from '../src/features/invoicing/receipt-sync.ts';
import { invoicingService } from '../src/model/invoicing/invoicing-service.ts';

const key = () => ({ 'idempotency-key': `k-${randomUUID()}` });

async function waitUntil(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A customer who invoices a receipt at the PAC's page is seen at once: the schedule reads the open
 * receipts' states from the PAC (a few per round, backing off while the PAC is down) and tells the
 * screens live ('invoicing.changed'), without waiting for the next global.
 */
describe.each(testDatabaseKinds())('self-invoices seen promptly on %s', (kind) => {
  let sim: InvoicingSimulator;
  let admin: ApiClient;
  let waiter: ApiClient;
  let tableNumber = 900;
  const events: LiveEvent[] = [];
  beforeAll(async () => {
    sim = await startInvoicingSimulator({ apiKey: 'sk_test_sync_suite' });
  });
  afterAll(() => sim?.close());
  const opts: TestServerOptions = {
    get env() {
      return { FACTURAPI_KEY: sim.apiKey, FACTURAPI_BASE_URL: sim.apiUrl, INVOICING_RETRY_MS: '200', INVOICING_RETRY_MAX_MS: '400' };
    },
  };
  const suite = serverForSuite(kind, opts, async (server) => {
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    server.ctx.live.onEvent((e) => events.push(e));
    // The rounds are run by the tests alone: the calls to the PAC are counted.
    await stopInvoicingSchedule(server.ctx);
  });
  const ctx = () => suite.server.ctx;

  async function issuedCheck(): Promise<Order> {
    const products = (await admin.get<{ products: Product[] }>('/api/products')).body.products.filter((p) => p.available);
    const table = (await admin.post<{ table: { id: string } }>('/api/tables', { number: ++tableNumber }, key())).body.table;
    let order = (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`, {}, key())).body.order;
    order = (await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: products[1]!.id, quantity: 1 }, key())).body
      .order;
    for (const item of order.items) await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' }, key());
    const closed = await waiter.post<{ order: Order }>(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: suite.server.users.waiter.pin, tipBps: 0, peopleCount: 1, receivedAmount: 100_000_00 },
      key(),
    );
    expect(closed.status).toBe(200);
    const receipt = () => ctx().db.db.selectFrom('invoice_receipts').selectAll().where('order_id', '=', order.id).executeTakeFirst();
    await waitUntil(async () => (await receipt())?.state === 'emitido');
    return closed.body.order;
  }
  const selfInvoice = (folio: number) => {
    const receipt = [...sim.store.receipts.values()].find((r) => r.folio_number === folio)!;
    const customer = {
      legal_name: 'ESCUELA KEMPER URGATE',
      tax_id: 'EKU9003173C9',
      tax_system: '601',
      email: null,
      address: { zip: '42501', country: 'MEX' },
    };
    return sim.store.invoiceReceipt(receipt.id, customer, 'G03', new Date());
  };
  const getsOfReceipts = () => sim.control.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/v2/receipts/')).length;

  it('shows a receipt the customer invoiced at the page as facturado after one round, and says so live', async () => {
    const order = await issuedCheck();
    const invoice = selfInvoice(order.folio!);
    events.length = 0;
    await runInvoicingRound(ctx());
    const info = (await admin.get<TicketInvoiceInfo>(`/api/invoicing/tickets/${order.id}`)).body;
    expect(info.receipt?.state).toBe('facturado');
    expect(info.invoices).toEqual([expect.objectContaining({ origin: 'autofactura', uuid: invoice.uuid, rfc: 'EKU9003173C9' })]);
    expect(events.some((e) => e.topic === 'invoicing' && e.type === 'invoicing.changed')).toBe(true);
    // Read again later: nothing new, nothing told.
    events.length = 0;
    await runInvoicingRound(ctx());
    expect(events.filter((e) => e.topic === 'invoicing')).toHaveLength(0);
  });

  it('reads at most a batch of open receipts per round, those read longest ago first', async () => {
    const orders: Order[] = [];
    for (let i = 0; i < 5; i++) orders.push(await issuedCheck());
    const pac = invoicingService(ctx())!.pac;
    const before = getsOfReceipts();
    expect((await syncOpenReceipts(ctx(), pac, 3)).checked).toBe(3);
    expect(getsOfReceipts() - before).toBe(3);
    // The last one issued is among the few the next round reads.
    const last = orders.at(-1)!;
    selfInvoice(last.folio!);
    expect((await syncOpenReceipts(ctx(), pac, 3)).changed).toBe(1);
    const row = await ctx().db.db.selectFrom('invoice_receipts').select('state').where('order_id', '=', last.id).executeTakeFirstOrThrow();
    expect(row.state).toBe('facturado');
    expect(SYNC_BATCH).toBe(20);
  });

  it('backs off while the PAC is down, then reads again', async () => {
    const order = await issuedCheck();
    sim.control.addFault({ status: 503, method: 'GET', path: '/v2/receipts/', count: 0 });
    await runInvoicingRound(ctx());
    const tried = getsOfReceipts();
    expect(tried).toBeGreaterThan(0);
    // Within its back-off, a round asks nothing of the PAC.
    await runInvoicingRound(ctx());
    await runInvoicingRound(ctx());
    expect(getsOfReceipts()).toBe(tried);
    sim.control.faults.length = 0;
    selfInvoice(order.folio!);
    await waitUntil(async () => {
      await runInvoicingRound(ctx());
      const row = await ctx()
        .db.db.selectFrom('invoice_receipts')
        .select('state')
        .where('order_id', '=', order.id)
        .executeTakeFirstOrThrow();
      return row.state === 'facturado';
    });
  });
});
