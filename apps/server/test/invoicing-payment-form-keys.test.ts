import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardPayment, InvoiceView, Order, Product } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { startInvoicingSimulator, type InvoicingSimulator } from '../src/invoicing/simulator/server.ts';
import { startSimulator, type Simulator } from '../src/payments/mercadopago/simulator/server.ts';
import { cardEnv, openReadyOrder, providerIdOnceSent, waitFor } from './terminals-helpers.ts';

const key = () => ({ 'idempotency-key': `k-${randomUUID()}` });
const FISICA = { rfc: 'COSC8001137NA', legalName: 'CARLOS CORTES SOTO', zip: '01000', taxSystem: '612', use: 'G03', email: '' };

/**
 * What a receipt and an invoice carry from the check: the forma de pago from its payments (a
 * terminal's debit card 28, its credit card 04, a card typed by hand 04) and each product's own
 * SAT keys, the concepts still charging exactly what the check did.
 */
describe.each(testDatabaseKinds())('forma de pago and SAT keys of receipts on %s', (kind) => {
  let mp: Simulator;
  let pac: InvoicingSimulator;
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  const TERMINAL = 'PAX_A910__SMARTPOS0000001';
  beforeAll(async () => {
    mp = await startSimulator({ token: 'APP_USR-37-invoicing-card', terminals: [TERMINAL] });
    pac = await startInvoicingSimulator({ apiKey: 'sk_test_payment_form_suite' });
    server = await startTestServer(kind, {
      env: cardEnv(mp, {
        FACTURAPI_KEY: pac.apiKey,
        FACTURAPI_BASE_URL: pac.apiUrl,
        INVOICING_RETRY_MS: '20',
        INVOICING_RETRY_MAX_MS: '100',
      }),
    });
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
  });
  afterAll(async () => {
    await server?.close();
    await mp?.close();
    await pac?.close();
  });

  const receiptRow = (orderId: string) =>
    server.ctx.db.db.selectFrom('invoice_receipts').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  const issued = (orderId: string) =>
    waitFor(
      () => receiptRow(orderId),
      (r) => r?.state === 'emitido',
    );
  const pacReceipt = (folio: number) => [...pac.store.receipts.values()].find((r) => r.folio_number === folio)!;

  /** Table N charged on the terminal, which approves with this action. */
  async function chargedOnTerminal(table: number, action: 'approve' | 'approve_debit'): Promise<Order> {
    const order = await openReadyOrder(server, admin, waiter, table);
    const payment = (
      await waiter.post<{ payment: CardPayment }>(
        '/api/card-payments',
        { orderId: order.id, terminalId: TERMINAL, method: 'tarjeta', tipBps: 1000, peopleCount: 1 },
        key(),
      )
    ).body.payment;
    mp.store.apply(await providerIdOnceSent(server, payment.id), action);
    await waitFor(
      async () => (await admin.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order,
      (o) => o.status === 'pagado',
    );
    return (await admin.get<{ order: Order }>(`/api/orders/${order.id}`)).body.order;
  }

  it('a debit card on the terminal makes the receipt and the invoice forma de pago 28', async () => {
    const order = await chargedOnTerminal(1, 'approve_debit');
    const payment = await server.ctx.db.db.selectFrom('payments').selectAll().where('order_id', '=', order.id).executeTakeFirstOrThrow();
    expect(payment.card_type).toBe('debito');
    await issued(order.id);
    expect(pacReceipt(order.folio!).payment_form).toBe('28');
    const res = await admin.post<{ invoice: InvoiceView }>(`/api/invoicing/tickets/${order.id}/invoice`, FISICA, key());
    expect(res.status).toBe(200);
    expect(res.body.invoice.paymentForm).toBe('28');
    expect([...pac.store.invoices.values()].find((i) => i.uuid === res.body.invoice.uuid)!.payment_form).toBe('28');
  });

  it('a credit card on the terminal stays 04', async () => {
    const credit = await chargedOnTerminal(2, 'approve');
    await issued(credit.id);
    expect(pacReceipt(credit.folio!).payment_form).toBe('04');
    const payment = await server.ctx.db.db.selectFrom('payments').selectAll().where('order_id', '=', credit.id).executeTakeFirstOrThrow();
    expect(payment.card_type).toBe('credito');
  });

  it('gives each product its own SAT keys on the receipt, frozen when queued, exact to the centavo', async () => {
    const products = (await admin.get<{ products: Product[] }>('/api/products')).body.products.filter((p) => p.available);
    const [beer, tacos, plain] = [products[0]!, products[3]!, products[5]!];
    await server.ctx.db.db
      .updateTable('products')
      .set({ sat_product_key: '50202201', sat_unit_key: 'H87' })
      .where('id', '=', beer.id)
      .execute();
    await server.ctx.db.db
      .updateTable('products')
      .set({ sat_product_key: '90101503', sat_unit_key: 'E48' })
      .where('id', '=', tacos.id)
      .execute();
    const table = (await admin.post<{ table: { id: string } }>('/api/tables', { number: 377 }, key())).body.table;
    let order = (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`, {}, key())).body.order;
    for (const [p, quantity] of [
      [beer, 3],
      [tacos, 2],
      [plain, 1],
    ] as const)
      order = (await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: p.id, quantity }, key())).body.order;
    for (const item of order.items) await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' }, key());
    // A discount on the whole check is shared out over the keys.
    const discount = await admin.post(
      `/api/orders/${order.id}/adjustments`,
      { kind: 'discount', scope: 'order', percentBps: 1500, reason: 'Cliente frecuente', pin: server.users.admin.pin },
      key(),
    );
    expect(discount.status).toBe(200);
    const closed = await waiter.post<{ order: Order }>(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 1000, peopleCount: 2, receivedAmount: 100_000_00 },
      key(),
    );
    expect(closed.status).toBe(200);
    const paid = closed.body.order;
    await issued(paid.id);
    const receipt = pacReceipt(paid.folio!);
    const keys = new Set(receipt.items.map((i) => `${i.product.product_key}/${i.product.unit_key}`));
    expect(keys.has('50202201/H87')).toBe(true);
    expect(keys.has('90101503/E48')).toBe(true);
    expect(receipt.totalCents).toBe(paid.total - paid.tip);
    // Frozen on the row: a key edited after the close changes nothing already queued.
    const row = await receiptRow(paid.id);
    expect(JSON.parse(row!.concept_keys!).map((k: { productKey: string }) => k.productKey)).toContain('50202201');
    const concepts = JSON.parse(row!.concept_keys!) as { amount: number }[];
    expect(concepts.reduce((s, c) => s + c.amount, 0)).toBe(paid.total - paid.tip);
  });
});
