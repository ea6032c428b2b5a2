import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Order, Product } from '@comanda/contract';
import { FISCAL_MESSAGES, taxBreakdown, type TaxBreakdown } from '@comanda/domain';
import { testDatabaseKinds, type ApiClient } from '../src/testing/index.ts';
import { serverForSuite } from '../src/testing/suite.ts';

type Err = { error: { code: string; message: string } };
const key = () => ({ 'idempotency-key': `k-${randomUUID()}` });
const fiscal = {
  rfc: 'EKU9003173C9',
  razonSocial: 'ESCUELA KEMPER URGATE',
  regimenFiscal: '601',
  lugarExpedicion: '06600',
  defaultIvaRate: 16,
  ticketSeries: 'A',
  facturaGlobal: 'day',
};

/** The tax model (docs/decisions/0051-tax-breakdown.md): fiscal data, product taxes, the breakdown frozen at close. */
describe.each(testDatabaseKinds())('tax model on %s', (kind) => {
  let admin: ApiClient;
  let waiter: ApiClient;
  const suite = serverForSuite(kind, {}, async (server) => {
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
  });
  const products = async () => (await admin.get<{ products: Product[] }>('/api/products')).body.products;
  const editProduct = (p: Product, over: Record<string, unknown>) =>
    admin.put<{ product: Product } & Err>(
      `/api/products/${p.id}`,
      {
        name: p.name,
        description: p.description,
        price: p.price,
        category: p.category,
        imageUrl: p.imageUrl,
        available: p.available,
        ...over,
      },
      key(),
    );

  it('saves the fiscal data, admin only, audited', async () => {
    const saved = await admin.put<typeof fiscal>('/api/config/fiscal', { ...fiscal, rfc: 'eku900317-3c9' }, key());
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual(fiscal);
    expect((await admin.get('/api/config/fiscal')).body).toEqual(fiscal);
    expect((await waiter.get('/api/config/fiscal')).status).toBe(403);
    expect((await waiter.put('/api/config/fiscal', fiscal, key())).status).toBe(403);
    const audit = await suite.server.ctx.db.db
      .selectFrom('audit_log')
      .select('data')
      .where('action', '=', 'config.fiscal.update')
      .execute();
    expect(audit).toHaveLength(1);
    // The factura global's period, when the form does not send it, stays as it was.
    await admin.put('/api/config/fiscal', { ...fiscal, facturaGlobal: 'month' }, key());
    const { facturaGlobal: _, ...without } = fiscal;
    expect((await admin.put('/api/config/fiscal', without, key())).body).toEqual({ ...fiscal, facturaGlobal: 'month' });
    await admin.put('/api/config/fiscal', fiscal, key());
  });

  it('answers a wrong RFC, régimen or código postal in Spanish and keeps what was stored', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ rfc: 'EKU9003173C8' }, 422, FISCAL_MESSAGES.rfcCheckDigit],
      [{ rfc: 'EKU9013173C9' }, 422, FISCAL_MESSAGES.rfcDate],
      [{ rfc: 'EKU90031' }, 422, FISCAL_MESSAGES.rfcLength],
      [{ rfc: 'XAXX010101000', regimenFiscal: '616' }, 422, FISCAL_MESSAGES.rfcGeneric],
      [{ regimenFiscal: '612' }, 422, 'Ese régimen fiscal no aplica a una persona moral'],
      [{ regimenFiscal: '999' }, 422, FISCAL_MESSAGES.regimenUnknown],
      [{ lugarExpedicion: '6600' }, 422, FISCAL_MESSAGES.postalCode],
      [{ lugarExpedicion: '0660A' }, 422, FISCAL_MESSAGES.postalCode],
    ];
    for (const [over, status, message] of cases) {
      const res = await admin.put<Err>('/api/config/fiscal', { ...fiscal, ...over }, key());
      expect([res.status, res.body.error.message], JSON.stringify(over)).toEqual([status, message]);
    }
    // A persona física's RFC (13) with a régimen of hers is accepted.
    const fisica = await admin.put('/api/config/fiscal', { ...fiscal, rfc: 'COSC8001137NA', regimenFiscal: '626' }, key());
    expect(fisica.status).toBe(200);
    expect((await admin.put('/api/config/fiscal', fiscal, key())).status).toBe(200);
  });

  it("gives a new product the site's default treatment and SAT's keys; the form may set them", async () => {
    await admin.put('/api/config/fiscal', { ...fiscal, defaultIvaRate: 8 }, key());
    const body = { name: 'Agua fronteriza', price: 3000, category: 'Bebida' };
    const created = await admin.post<{ product: Product }>('/api/products', body, key());
    expect(created.body.product).toMatchObject({ taxTreatment: 'iva8', satProductKey: '90101501', satUnitKey: 'E48', iepsRateBp: null });
    await admin.put('/api/config/fiscal', fiscal, key());
    const bottle = await admin.post<{ product: Product }>(
      '/api/products',
      { ...body, name: 'Botella de tequila', taxTreatment: 'iva16', satProductKey: '50202206', satUnitKey: 'h87', iepsRateBp: 5300 },
      key(),
    );
    expect(bottle.body.product).toMatchObject({ taxTreatment: 'iva16', satProductKey: '50202206', satUnitKey: 'H87', iepsRateBp: 5300 });
    const bad = await admin.post<Err>('/api/products', { ...body, name: 'Mal', satProductKey: '9010' }, key());
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain(FISCAL_MESSAGES.productKey);
  });

  it('freezes the breakdown at the close; a later rate or price change leaves it as it was', async () => {
    const all = await products();
    const beer = all.find((p) => p.name === 'Cerveza clara')!;
    const tacos = all.find((p) => p.name === 'Tacos al pastor (3)')!;
    expect((await editProduct(beer, { taxTreatment: 'iva8' })).status).toBe(200);
    const table = (await admin.post<{ table: { id: string } }>('/api/tables', { number: 951 }, key())).body.table;
    let order = (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`, {}, key())).body.order;
    for (const [p, quantity] of [
      [beer, 3],
      [tacos, 2],
    ] as const)
      order = (await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: p.id, quantity }, key())).body.order;
    for (const item of order.items)
      expect((await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' }, key())).status).toBe(200);
    expect(order.taxBreakdown ?? null).toBeNull();

    const closed = await waiter.post<{ order: Order } & Err>(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: suite.server.users.waiter.pin, tipBps: 1000, peopleCount: 2, receivedAmount: 100_000_00 },
      key(),
    );
    expect(closed.status).toBe(200);
    const paid = closed.body.order;
    const expected: TaxBreakdown = taxBreakdown(
      paid.items.map((i) => ({
        id: i.id,
        productPrice: i.productPrice,
        quantity: i.quantity,
        isDeleted: false,
        treatment: i.productId === beer.id ? 'iva8' : 'iva16',
        iepsRateBp: null,
      })),
      [],
    );
    expect(paid.tax).toBeNull();
    expect(paid.taxBreakdown).toEqual(expected);
    expect(paid.taxBreakdown!.groups.map((g) => g.treatment)).toEqual(['iva16', 'iva8']);
    // Tips stay out: the breakdown adds up to what the items charged.
    expect(paid.taxBreakdown!.amount).toBe(paid.total - paid.tip);
    expect(paid.taxBreakdown!.base + paid.taxBreakdown!.tax).toBe(paid.taxBreakdown!.amount);

    expect((await editProduct(beer, { taxTreatment: 'exento', price: beer.price + 1000 })).status).toBe(200);
    expect((await editProduct(tacos, { taxTreatment: 'tasa0' })).status).toBe(200);
    const again = await admin.get<{ order: Order }>(`/api/orders/${order.id}`);
    expect(again.body.order.taxBreakdown).toEqual(expected);
    await editProduct(beer, { taxTreatment: 'iva16' });
    await editProduct(tacos, { taxTreatment: 'iva16' });
  });

  it('equal shares carry exactly the taxes of the whole check between them', async () => {
    const all = await products();
    const beer = all.find((p) => p.name === 'Cerveza clara')!;
    const tacos = all.find((p) => p.name === 'Tacos al pastor (3)')!;
    await editProduct(beer, { taxTreatment: 'iva8' });
    const table = (await admin.post<{ table: { id: string } }>('/api/tables', { number: 952 }, key())).body.table;
    let order = (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`, {}, key())).body.order;
    for (const [p, quantity] of [
      [beer, 1],
      [tacos, 1],
    ] as const)
      order = (await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: p.id, quantity }, key())).body.order;
    for (const item of order.items) await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' }, key());
    const whole = taxBreakdown(
      order.items.map((i) => ({ ...i, isDeleted: false, treatment: i.productId === beer.id ? 'iva8' : 'iva16', iepsRateBp: null })),
      [],
    );
    const split = await waiter.post<{ orders: Order[] }>(`/api/orders/${order.id}/shares`, { count: 3 }, key());
    expect(split.status).toBe(200);
    const paid: TaxBreakdown[] = [];
    for (const check of split.body.orders) {
      const res = await waiter.post<{ order: Order } & Err>(
        `/api/orders/${check.id}/close`,
        { method: 'efectivo', pin: suite.server.users.waiter.pin, tipBps: 0, peopleCount: 1, receivedAmount: 100_000_00 },
        key(),
      );
      expect(res.status, res.body.error?.message).toBe(200);
      paid.push(res.body.order.taxBreakdown!);
      expect(res.body.order.taxBreakdown!.amount).toBe(res.body.order.total);
    }
    for (const [i, g] of whole.groups.entries()) {
      expect(
        paid.reduce((s, b) => s + b.groups.find((x) => x.treatment === g.treatment)!.tax, 0),
        `group ${i}`,
      ).toBe(g.tax);
      expect(paid.reduce((s, b) => s + b.groups.find((x) => x.treatment === g.treatment)!.amount, 0)).toBe(g.amount);
    }
    await editProduct(beer, { taxTreatment: 'iva16' });
  });
});
