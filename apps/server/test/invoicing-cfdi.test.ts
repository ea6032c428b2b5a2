import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceView, InvoicingOverview, Order, Product } from '@comanda/contract';
import { testDatabaseKinds, type ApiClient, type TestServerOptions } from '../src/testing/index.ts';
import { serverForSuite } from '../src/testing/suite.ts';
import { startInvoicingSimulator, type InvoicingSimulator } from '../src/invoicing/simulator/server.ts';
import type { Mail } from '../src/mail/mailer.ts';
import { runInvoicingRound } from '../src/features/invoicing/scheduler.ts';

const key = () => ({ 'idempotency-key': `k-${randomUUID()}` });

async function waitUntil(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const DAY = 86_400_000;
/** A customer (persona física) with a valid RFC, as in SAT's test data. */
const FISICA = {
  rfc: 'COSC8001137NA',
  legalName: 'CARLOS CORTES SOTO',
  zip: '01000',
  taxSystem: '612',
  use: 'G03',
  email: 'carlos@example.mx',
};
/** A company (persona moral). */
const MORAL = { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', zip: '42501', taxSystem: '601', use: 'G03', email: '' };

/**
 * Facturación against the PAC simulator through the official SDK: the cashier's "Facturar" (with
 * SAT's combinations refused in Spanish), the factura global of each ended period (each receipt
 * once, whoever runs the schedule and however often, retried until stamped) and cancellations.
 */
describe.each(testDatabaseKinds())('CFDI invoices on %s', (kind) => {
  let sim: InvoicingSimulator;
  let admin: ApiClient;
  let waiter: ApiClient;
  let tableNumber = 800;
  let offset = 0;
  const mails: Mail[] = [];
  beforeAll(async () => {
    sim = await startInvoicingSimulator({ apiKey: 'sk_test_cfdi_suite', issuer: { zip: '06600' } });
  });
  afterAll(() => sim?.close());
  afterEach(() => {
    sim.control.faults.length = 0;
    sim.store.cancellationMode = 'accepted';
  });
  const opts: TestServerOptions = {
    get env() {
      return { FACTURAPI_KEY: sim.apiKey, FACTURAPI_BASE_URL: sim.apiUrl, INVOICING_RETRY_MS: '20', INVOICING_RETRY_MAX_MS: '100' };
    },
    clock: { now: () => Date.now() + offset },
    mailer: {
      async send(mail) {
        mails.push(mail);
      },
    },
  };
  const suite = serverForSuite(kind, opts, async (server) => {
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
  });
  const ctx = () => suite.server.ctx;
  const db = () => ctx().db.db;
  const users = () => suite.server.users;

  /** A check opened, served and paid in cash, with a tip. */
  async function paidCheck(): Promise<Order> {
    const products = (await admin.get<{ products: Product[] }>('/api/products')).body.products.filter((p) => p.available);
    const table = (await admin.post<{ table: { id: string } }>('/api/tables', { number: ++tableNumber }, key())).body.table;
    let order = (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`, {}, key())).body.order;
    order = (await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: products[0]!.id, quantity: 2 }, key())).body
      .order;
    for (const item of order.items) await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' }, key());
    const closed = await waiter.post<{ order: Order }>(
      `/api/orders/${order.id}/close`,
      {
        method: 'efectivo',
        pin: users().waiter.pin,
        tipBps: 1000,
        peopleCount: 2,
        receivedAmount: 100_000_00,
      },
      key(),
    );
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    return closed.body.order;
  }
  const receiptOf = (orderId: string) => db().selectFrom('invoice_receipts').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  const issued = async (order: Order) => waitUntil(async () => (await receiptOf(order.id))?.state === 'emitido');
  const facturar = (order: Order, body: Record<string, unknown>, client = admin, headers = key()) =>
    client.post<{ invoice: InvoiceView }>(`/api/invoicing/tickets/${order.id}/invoice`, body, headers);
  /** Every global the simulator stamped, with the receipts each took. */
  const simGlobals = () => [...sim.store.invoices.values()].filter((i) => i.global);

  it('invoices a ticket at the cashier: the receipt becomes the customer’s CFDI, downloadable and e-mailed with its PDF and XML', async () => {
    const order = await paidCheck();
    await issued(order);
    const res = await facturar(order, FISCAL_BODY(FISICA));
    expect(res.status).toBe(200);
    const invoice = res.body.invoice;
    expect(invoice).toMatchObject({
      state: 'timbrada',
      kind: 'cliente',
      origin: 'caja',
      rfc: FISICA.rfc,
      folio: order.folio,
      paymentForm: '01',
    });
    expect(invoice.total).toBe(order.total - order.tip);
    const receipt = await receiptOf(order.id);
    expect(receipt).toMatchObject({ state: 'facturado', invoice_uuid: invoice.uuid });
    const stamped = [...sim.store.invoices.values()].find((i) => i.uuid === invoice.uuid)!;
    expect(stamped.customer).toMatchObject({ tax_id: FISICA.rfc, tax_system: '612', address: { zip: '01000', country: 'MEX' } });
    expect(stamped).toMatchObject({ use: 'G03', payment_method: 'PUE', payment_form: '01' });
    expect(stamped.receipts).toEqual([receipt!.pac_receipt_id]);
    // The server hands over the PAC's files; the key never leaves it.
    const pdf = await admin.get<string>(`/api/invoicing/invoices/${invoice.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.body.startsWith('%PDF-1.4')).toBe(true);
    const xml = await admin.get<string>(`/api/invoicing/invoices/${invoice.id}/xml`);
    expect(xml.body).toContain(`UUID="${invoice.uuid}"`);
    expect(xml.body).not.toContain(sim.apiKey);
    const mail = mails.find((m) => m.to === FISICA.email && m.text.includes(invoice.uuid!));
    expect(mail?.attachments?.map((a) => a.filename)).toEqual([`${invoice.uuid}.pdf`, `${invoice.uuid}.xml`]);
    expect(
      (await db().selectFrom('invoices').select('emailed_at').where('id', '=', invoice.id).executeTakeFirst())?.emailed_at,
    ).not.toBeNull();
    const audits = await db().selectFrom('audit_log').select('action').where('entity_id', '=', invoice.id).execute();
    expect(audits.map((a) => a.action).sort()).toEqual(['invoice.request', 'invoice.stamp']);
    // A second "Facturar" of the same ticket is refused; the same request again answers the same invoice.
    const again = await facturar(order, FISCAL_BODY(MORAL));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { message: 'Este ticket ya se facturó' } });
  });

  it('refuses SAT’s invalid combinations in Spanish, before calling the PAC', async () => {
    const order = await paidCheck();
    await issued(order);
    const calls = sim.control.calls.length;
    const cases: [Record<string, string>, string][] = [
      [{ ...FISICA, taxSystem: '601' }, 'Ese régimen fiscal no aplica a una persona física'],
      [{ ...MORAL, taxSystem: '605' }, 'Ese régimen fiscal no aplica a una persona moral'],
      [{ ...MORAL, use: 'D01' }, 'El uso D01 no aplica al régimen fiscal 601'],
      [
        { ...MORAL, legalName: 'ESCUELA KEMPER URGATE SA DE CV' },
        'Escribe la razón social sin el régimen societario (sin «S.A. de C.V.», «S. de R.L.», etc.)',
      ],
      [{ ...FISICA, rfc: 'COSC8001137N9' }, 'El dígito verificador del RFC no corresponde'],
      [{ ...FISICA, rfc: 'XAXX010101000' }, 'Para el público en general no se factura al momento: el ticket entra en la factura global'],
      [{ ...FISICA, zip: '0100' }, 'El código postal del receptor debe tener 5 dígitos'],
    ];
    for (const [body, message] of cases) {
      const res = await facturar(order, FISCAL_BODY(body));
      expect(res.status, message).toBe(422);
      expect(res.body).toMatchObject({ error: { code: 'invoice_receptor_invalid', message } });
    }
    expect(sim.control.calls.length).toBe(calls);
    // A persona moral with a valid régimen and uso is invoiced.
    const ok = await facturar(order, FISCAL_BODY(MORAL));
    expect(ok.status).toBe(200);
    expect(ok.body.invoice).toMatchObject({ state: 'timbrada', rfc: MORAL.rfc, legalName: MORAL.legalName });
  });

  it('asks a waiter at the cashier for a PIN; the same Idempotency-Key stamps once', async () => {
    const order = await paidCheck();
    await issued(order);
    const noPin = await facturar(order, FISCAL_BODY(FISICA), waiter);
    expect(noPin.status).toBe(403);
    expect(noPin.body).toMatchObject({ error: { message: 'Escribe tu PIN para facturar' } });
    const headers = key();
    const body = { ...FISCAL_BODY(FISICA), pin: users().waiter.pin };
    const [a, b] = await Promise.all([facturar(order, body, waiter, headers), facturar(order, body, waiter, headers)]);
    const ok = [a, b].filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of [a, b]) expect([200, 409]).toContain(r.status);
    const again = await facturar(order, body, waiter, headers);
    expect(again.status).toBe(200);
    expect(again.body.invoice.id).toBe(ok[0]!.body.invoice.id);
    expect(again.body.invoice.paymentForm).toBe('01');
    const stamped = [...sim.store.invoices.values()].filter((i) => i.customer.tax_id === FISICA.rfc);
    expect(stamped.filter((i) => i.uuid === again.body.invoice.uuid)).toHaveLength(1);
    const rows = await db().selectFrom('invoices').selectAll().where('order_id', '=', order.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ created_by: users().waiter.id });
  });

  it('creates the receipt first, exactly once, when the queue has not sent it yet', async () => {
    sim.control.addFault({ status: 503, path: '/v2/receipts', method: 'POST', count: 0 });
    const order = await paidCheck();
    await waitUntil(async () => Number((await receiptOf(order.id))?.attempts ?? 0) >= 1);
    // Only the queue's call was refused; the cashier's goes through.
    sim.control.faults.length = 0;
    await ctx()
      .db.db.updateTable('invoice_receipts')
      .set({ next_attempt_at: Date.now() + offset + 60_000 })
      .where('order_id', '=', order.id)
      .execute();
    const res = await facturar(order, FISCAL_BODY(FISICA));
    expect(res.status).toBe(200);
    const receipts = [...sim.store.receipts.values()].filter((r) => r.folio_number === order.folio);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.status).toBe('invoiced_to_customer');
    expect(await receiptOf(order.id)).toMatchObject({ state: 'facturado', pac_receipt_id: receipts[0]!.id, claim: null });
  });

  it('puts every receipt nobody invoiced in its period’s factura global once, also when two schedulers race', async () => {
    await db()
      .updateTable('config')
      .set({ value: JSON.stringify({ ...(await fiscal()), facturaGlobal: 'day' }) })
      .where('key', '=', 'fiscal')
      .execute();
    const orders = [await paidCheck(), await paidCheck(), await paidCheck()];
    for (const o of orders) await issued(o);
    const invoiced = await facturar(orders[0]!, FISCAL_BODY(FISICA));
    expect(invoiced.status).toBe(200);
    // The day ends.
    offset += 2 * DAY;
    await Promise.all([runInvoicingRound(ctx()), runInvoicingRound(ctx()), runInvoicingRound(ctx())]);
    await settled();
    const rows = await Promise.all(orders.map((o) => receiptOf(o.id)));
    expect(rows.map((r) => r!.state)).toEqual(['facturado', 'en_global', 'en_global']);
    // Each receipt in one CFDI at most, at the PAC.
    const taken = [...sim.store.invoices.values()].flatMap((i) => i.receipts);
    expect(new Set(taken).size).toBe(taken.length);
    const global = simGlobals().find((g) => g.receipts.includes(rows[1]!.pac_receipt_id!))!;
    expect(global.receipts).toContain(rows[2]!.pac_receipt_id);
    expect(global.customer).toMatchObject({
      tax_id: 'XAXX010101000',
      legal_name: 'PUBLICO EN GENERAL',
      tax_system: '616',
      address: { zip: '06600' },
    });
    expect(global.use).toBe('S01');
    expect(global.global).toMatchObject({ periodicity: 'day' });
    const local = await db().selectFrom('invoices').selectAll().where('uuid', '=', global.uuid).execute();
    expect(local).toHaveLength(1);
    expect(local[0]).toMatchObject({ state: 'timbrada', kind: 'global', rfc: 'XAXX010101000' });
    expect(rows[1]!.invoice_uuid).toBe(global.uuid);
    // Rounds again: nothing more is asked of the PAC.
    const globals = simGlobals().length;
    await Promise.all([runInvoicingRound(ctx()), runInvoicingRound(ctx())]);
    expect(simGlobals().length).toBe(globals);
    await suite.signInAgain();
    const overview = await admin.get<InvoicingOverview>('/api/invoicing');
    expect(overview.status).toBe(200);
    expect(overview.body.invoices.find((i) => i.uuid === global.uuid)).toMatchObject({
      kind: 'global',
      state: 'timbrada',
      origin: 'global',
    });
  });

  it('retries a global the PAC failed until it is stamped, and stamps it once when its answer was lost', async () => {
    const orders = [await paidCheck(), await paidCheck()];
    for (const o of orders) await issued(o);
    offset += 2 * DAY;
    sim.control.addFault({ status: 503, path: '/v2/receipts/global-invoice', count: 2 });
    await runInvoicingRound(ctx());
    const pending = await db().selectFrom('invoices').selectAll().where('kind', '=', 'global').where('state', '=', 'solicitando').execute();
    expect(pending).toHaveLength(1);
    expect(pending[0]!.last_error).toBe('Error simulado del PAC');
    expect((await receiptOf(orders[0]!.id))!.state).toBe('emitido');
    // The answer of the stamp itself is lost on the way back.
    sim.control.addFault({ dropAfter: true, path: '/v2/receipts/global-invoice' });
    await waitUntil(async () => {
      await runInvoicingRound(ctx());
      return (await receiptOf(orders[0]!.id))!.state === 'en_global';
    });
    await settled();
    const row = await db().selectFrom('invoices').selectAll().where('id', '=', pending[0]!.id).executeTakeFirstOrThrow();
    expect(row.state).toBe('timbrada');
    const rows = await Promise.all(orders.map((o) => receiptOf(o.id)));
    const holding = simGlobals().filter((g) => rows.some((r) => g.receipts.includes(r!.pac_receipt_id!)));
    expect(holding).toHaveLength(1);
    expect(holding[0]!.uuid).toBe(row.uuid);
    expect(rows.map((r) => r!.state)).toEqual(['en_global', 'en_global']);
  });

  it('cancels with motivo 02, and with 01 naming the invoice that replaces it; the admin’s PIN and the PAC’s answer kept', async () => {
    await suite.signInAgain();
    const [a, b, c] = [await paidCheck(), await paidCheck(), await paidCheck()];
    for (const o of [a, b, c]) await issued(o);
    const first = (await facturar(a!, FISCAL_BODY(FISICA))).body.invoice;
    const second = (await facturar(b!, FISCAL_BODY(MORAL))).body.invoice;
    const third = (await facturar(c!, FISCAL_BODY(FISICA))).body.invoice;
    const cancel = (id: string, body: Record<string, unknown>) =>
      admin.post<{ invoice: InvoiceView }>(`/api/invoicing/invoices/${id}/cancel`, body, key());

    const waiterPin = await cancel(first.id, { motive: '02', pin: users().waiter.pin });
    expect(waiterPin.status).toBe(403);
    const ok = await cancel(first.id, { motive: '02', pin: users().admin.pin });
    expect(ok.status).toBe(200);
    expect(ok.body.invoice).toMatchObject({ state: 'cancelada', cancelMotive: '02', cancellationStatus: 'accepted' });
    expect([...sim.store.invoices.values()].find((i) => i.uuid === first.uuid)).toMatchObject({
      status: 'canceled',
      cancellation: { motive: '02', substitutionUUID: null },
    });
    expect((await receiptOf(a!.id))!.state).toBe('cancelado');
    const audit = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'invoice.cancel')
      .where('entity_id', '=', first.id)
      .executeTakeFirst();
    expect(audit).toMatchObject({ authorized_by: users().admin.id });

    const noSub = await cancel(second.id, { motive: '01', pin: users().admin.pin });
    expect(noSub.status).toBe(422);
    expect(noSub.body).toMatchObject({
      error: { message: 'El motivo 01 pide el folio fiscal (UUID) de la factura que sustituye a la cancelada' },
    });
    const unknown = await cancel(second.id, { motive: '01', substitution: randomUUID(), pin: users().admin.pin });
    expect(unknown.body).toMatchObject({ error: { message: 'No hay una factura timbrada con ese folio fiscal (UUID)' } });
    // The receptor must accept this one: the PAC answers pending.
    sim.store.cancellationMode = 'pending';
    const replaced = await cancel(second.id, { motive: '01', substitution: third.uuid, pin: users().admin.pin });
    expect(replaced.status).toBe(200);
    expect(replaced.body.invoice).toMatchObject({
      state: 'cancelacion_pendiente',
      cancelMotive: '01',
      cancelSubstitution: third.uuid,
      cancellationStatus: 'pending',
    });
    expect([...sim.store.invoices.values()].find((i) => i.uuid === second.uuid)!.cancellation).toMatchObject({
      motive: '01',
      substitutionUUID: third.uuid,
    });
    expect((await receiptOf(b!.id))!.state).toBe('facturado');
  });

  async function fiscal() {
    const row = await db().selectFrom('config').select('value').where('key', '=', 'fiscal').executeTakeFirst();
    return row ? (JSON.parse(row.value) as Record<string, unknown>) : {};
  }
  /** No global still being stamped (the server's own schedule may be at it too). */
  async function settled() {
    await waitUntil(async () => {
      const busy = await db()
        .selectFrom('invoices')
        .select('id')
        .where('state', '=', 'solicitando')
        .where('lease_until', 'is not', null)
        .execute();
      return busy.length === 0;
    });
  }
});

function FISCAL_BODY(r: Record<string, string>) {
  return { rfc: r.rfc, legalName: r.legalName, zip: r.zip, taxSystem: r.taxSystem, use: r.use, email: r.email ?? '' };
}
