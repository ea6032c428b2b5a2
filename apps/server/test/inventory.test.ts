import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CfdiPreview, Insumo, ModifierGroup, Order, Purchase, StockCount, Table, VarianceResponse } from '@comanda/contract';
import { DEFAULT_VOID_REASONS } from '@comanda/domain';
import { REPO_ROOT, startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { postSales } from '../src/features/inventory/sales-posting.ts';

type Err = { error: { code: string; message: string } };
const fixture = (name: string) => readFileSync(join(REPO_ROOT, 'apps/server/test/fixtures/cfdi', name), 'utf8');

/** Inventario de barra: insumos, recipes with modifiers, purchases (by hand and CFDI), transfers, merma, counts, variance. */
describe.each(testDatabaseKinds())('inventory on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let barra: ApiClient;
  let tequila: Insumo;
  let naranja: Insumo;
  let limon: Insumo;
  let margaritaId: string;
  let doble: ModifierGroup;
  let nextTable = 800;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    barra = await server.login(server.users.barra.email);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const post = async () => {
    while ((await postSales(server.ctx.db, server.ctx.clock.now())) >= 500);
  };
  const stockOf = async (id: string) => {
    const res = await admin.get<{ insumos: Insumo[] }>('/api/inventory/insumos');
    return res.body.insumos.find((i) => i.id === id)!.stock;
  };
  const fresh = async (): Promise<Order> => {
    const t = await admin.post<{ table: Table }>('/api/tables', { number: nextTable++ });
    return (await waiter.post<{ order: Order }>(`/api/tables/${t.body.table.id}/open`)).body.order;
  };

  it('sets up insumos with presentations, a margarita and a Doble modifier with its own amounts', async () => {
    const t = await admin.post<{ insumo: Insumo }>('/api/inventory/insumos', {
      name: 'Tequila blanco',
      unit: 'ml',
      minStock: 1500,
      pourSize: 45,
      presentations: [{ name: 'Botella 750 ml', content: 750, tareG: 520, densityMgPerMl: 950 }],
    });
    expect(t.status).toBe(201);
    tequila = t.body.insumo;
    expect(tequila.presentations[0]).toMatchObject({ content: 750, tareG: 520, densityMgPerMl: 950 });
    naranja = (
      await admin.post<{ insumo: Insumo }>('/api/inventory/insumos', {
        name: 'Licor de naranja',
        unit: 'ml',
        presentations: [{ name: 'Botella 700 ml', content: 700, tareG: 480, densityMgPerMl: 1050 }],
      })
    ).body.insumo;
    limon = (
      await admin.post<{ insumo: Insumo }>('/api/inventory/insumos', {
        name: 'Limón',
        unit: 'pieza',
        presentations: [{ name: 'Caja 100', content: 100_000 }],
      })
    ).body.insumo;
    const dup = await admin.post<Err>('/api/inventory/insumos', { name: 'Limón', unit: 'pieza' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe('Ya hay un insumo con ese nombre.');
    expect((await waiter.get('/api/inventory/insumos')).status).toBe(403);
    expect((await barra.get('/api/inventory/insumos')).status).toBe(200);

    margaritaId = (await admin.post<{ product: { id: string } }>('/api/products', { name: 'Margarita', price: 120_00, category: 'Bebida' }))
      .body.product.id;
    const d = await admin.post<{ group: ModifierGroup }>('/api/modifier-groups', {
      name: 'Tamaño',
      minSelect: 0,
      maxSelect: 1,
      options: [{ name: 'Doble', priceDelta: 60_00 }, { name: 'Sin hielo' }],
      productIds: [margaritaId],
    });
    expect(d.status).toBe(201);
    doble = d.body.group;
    const recipe = await admin.put(`/api/inventory/recipes/products/${margaritaId}`, {
      items: [
        { insumoId: tequila.id, amount: 60 },
        { insumoId: naranja.id, amount: 30 },
        { insumoId: limon.id, amount: 1000 },
      ],
    });
    expect(recipe.status).toBe(200);
    const dobleId = doble.options.find((o) => o.name === 'Doble')!.id;
    expect((await admin.put(`/api/inventory/recipes/options/${dobleId}`, { items: [{ insumoId: tequila.id, amount: 60 }] })).status).toBe(
      200,
    );
    const recipes = await admin.get<{ products: { productId: string; items: unknown[] }[]; options: { optionId: string }[] }>(
      '/api/inventory/recipes',
    );
    expect(recipes.body.products.find((p) => p.productId === margaritaId)!.items).toHaveLength(3);
    expect(recipes.body.options.map((o) => o.optionId)).toContain(dobleId);
  });

  it('buys by hand into the bodega, transfers to the barra, and lists what is below its minimum', async () => {
    const bought = await admin.post<{ purchase: Purchase }>('/api/inventory/purchases', {
      supplierName: 'Vinos del Centro',
      lines: [
        { presentationId: tequila.presentations[0]!.id, units: 6, unitCostCents: 450_00, ivaCents: 432_00 },
        { presentationId: naranja.presentations[0]!.id, units: 2, unitCostCents: 280_00 },
        { presentationId: limon.presentations[0]!.id, units: 1, unitCostCents: 150_00 },
      ],
    });
    expect(bought.status).toBe(201);
    expect(bought.body.purchase).toMatchObject({ subtotalCents: 6 * 450_00 + 2 * 280_00 + 150_00, ivaCents: 432_00 });
    expect(await stockOf(tequila.id)).toEqual({ bodega: 4500 });
    const low = await admin.get<{ items: { insumoId: string }[] }>('/api/inventory/low-stock');
    expect(low.body.items.map((i) => i.insumoId)).not.toContain(tequila.id);
    const moved = await admin.post('/api/inventory/transfers', {
      from: 'bodega',
      to: 'barra',
      lines: [
        { insumoId: tequila.id, qty: 3000 },
        { insumoId: naranja.id, qty: 1400 },
        { insumoId: limon.id, qty: 100_000 },
      ],
    });
    expect(moved.status).toBe(200);
    expect(await stockOf(tequila.id)).toEqual({ bodega: 1500, barra: 3000 });
    const same = await admin.post<Err>('/api/inventory/transfers', {
      from: 'barra',
      to: 'barra',
      lines: [{ insumoId: tequila.id, qty: 1 }],
    });
    expect(same.status).toBe(400);
    const tq = (await admin.get<{ insumos: Insumo[] }>('/api/inventory/insumos')).body.insumos.find((i) => i.id === tequila.id)!;
    expect(tq).toMatchObject({ lastCostCents: 450_00, lastCostContent: 750 });
  });

  it('a night with recipes: stock after it = purchases − recipes × sales − merma, exactly', async () => {
    const dobleId = doble.options.find((o) => o.name === 'Doble')!.id;
    const sinHielo = doble.options.find((o) => o.name === 'Sin hielo')!.id;
    const before = { t: (await stockOf(tequila.id)).barra!, n: (await stockOf(naranja.id)).barra!, l: (await stockOf(limon.id)).barra! };
    let plain = 0;
    let doubles = 0;
    const voidable: { orderId: string; itemId: string }[] = [];
    for (let round = 0; round < 6; round++) {
      const order = await fresh();
      const a = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, {
        productId: margaritaId,
        quantity: 2,
        optionIds: [sinHielo],
      });
      expect(a.status).toBe(200);
      plain += 2;
      const b = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, {
        productId: margaritaId,
        quantity: 1,
        optionIds: [dobleId],
      });
      expect(b.status).toBe(200);
      doubles += 1;
      if (round % 3 === 0)
        voidable.push({
          orderId: order.id,
          itemId: b.body.order.items.find((i) => i.modifiers?.some((m) => m.optionName === 'Doble'))!.id,
        });
    }
    await post();
    // Two doubles voided before the bar made them: their pour comes back.
    for (const v of voidable) {
      const res = await waiter.post(`/api/orders/${v.orderId}/items/${v.itemId}/void`, { quantity: 1, reason: DEFAULT_VOID_REASONS[0] });
      expect(res.status).toBe(200);
      doubles -= 1;
    }
    const merma = await barra.post('/api/inventory/merma', { insumoId: tequila.id, qty: 45, reason: 'Se cayó una copa' });
    expect(merma.status).toBe(200);
    const noReason = await barra.post<Err>('/api/inventory/merma', { insumoId: tequila.id, qty: 45, reason: ' ' });
    expect(noReason.status).toBe(400);
    await post();
    await post();
    const after = await stockOf(tequila.id);
    expect(after.barra).toBe(before.t - 60 * plain - 120 * doubles - 45);
    expect((await stockOf(naranja.id)).barra).toBe(before.n - 30 * (plain + doubles));
    expect((await stockOf(limon.id)).barra).toBe(before.l - 1000 * (plain + doubles));
  });

  it('counts the bar with closed and weighed bottles: one adjustment per insumo, and the variance reads it', async () => {
    const theory = (await stockOf(tequila.id)).barra!;
    const p = tequila.presentations[0]!;
    const closed = Math.floor(theory / 750);
    const openMl = theory - closed * 750;
    // The open bottle weighs 90 ml short of the theory: 90 ml that left without a sale.
    const grossG = 520 + Math.round(((openMl - 90) * 950) / 1000);
    const count = await barra.post<{ count: StockCount }>('/api/inventory/counts', {
      lines: [
        { insumoId: tequila.id, closed: [{ presentationId: p.id, units: closed }], open: [{ presentationId: p.id, grossG }] },
        { insumoId: naranja.id, loose: (await stockOf(naranja.id)).barra! },
      ],
    });
    expect(count.status).toBe(201);
    const line = count.body.count.lines.find((l) => l.insumoId === tequila.id)!;
    expect(line.theoretical).toBe(theory);
    expect(line.adjustment).toBe(-90);
    expect(count.body.count.lines.find((l) => l.insumoId === naranja.id)!.adjustment).toBe(0);
    expect(count.body.count.countedByName).toBe(server.users.barra.displayName);
    expect((await stockOf(tequila.id)).barra).toBe(theory - 90);
    const audit = await server.ctx.db.db.selectFrom('audit_log').select(['actor_name']).where('action', '=', 'inventory.count').execute();
    expect(audit.map((a) => a.actor_name)).toContain(server.users.barra.displayName);

    const today = new Date(server.ctx.clock.now()).toISOString().slice(0, 10);
    const from = new Date(server.ctx.clock.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const variance = await admin.get<VarianceResponse>(`/api/inventory/variance?from=${from}&to=${today}`);
    expect(variance.status).toBe(200);
    const row = variance.body.rows[0]!;
    expect(row).toMatchObject({ insumoId: tequila.id, variance: 90, pourTenths: 20, costCents: 54_00 });
    expect(variance.body.rows.find((r) => r.insumoId === naranja.id)!.variance).toBe(0);
    expect(variance.body.byWaiter[0]!.waiterName).toBe(server.users.waiter.displayName);
    const xlsx = await admin.get(`/api/inventory/variance.xlsx?from=${from}&to=${today}`);
    expect(xlsx.status).toBe(200);
    expect((await barra.get('/api/inventory/variance')).status).toBe(403);
  });

  it('reads a supplier’s CFDI 4.0, remembers each concept’s presentation and refuses bad files in Spanish', async () => {
    const xml = fixture('compra-licores.xml');
    const preview = await admin.post<{ invoice: CfdiPreview }>('/api/inventory/purchases/cfdi/preview', { xml });
    expect(preview.status).toBe(200);
    expect(preview.body.invoice).toMatchObject({
      rfc: 'DLS010101AB1',
      uuid: '6F1C2A3E-4B5D-4E6F-8A9B-0C1D2E3F4A5B',
      supplierName: 'DISTRIBUIDORA DE LICORES DEL SUR',
    });
    expect(preview.body.invoice.concepts).toEqual([
      {
        claveProdServ: '50202206',
        description: 'TEQUILA BLANCO 100% AGAVE 750 ML',
        quantity: 12,
        unitValueCents: 320_00,
        ivaCents: 614_40,
        presentationId: null,
      },
      {
        claveProdServ: '50202203',
        description: 'LICOR DE NARANJA 700 ML',
        quantity: 3,
        unitValueCents: 300_00,
        ivaCents: 144_00,
        presentationId: null,
      },
    ]);
    const unmapped = await admin.post<Err>('/api/inventory/purchases/cfdi', { xml });
    expect(unmapped.status).toBe(400);
    expect(unmapped.body.error.message).toBe('Asigna cada concepto de la factura a una presentación de insumo.');
    const before = (await stockOf(tequila.id)).bodega!;
    const bought = await admin.post<{ purchase: Purchase }>('/api/inventory/purchases/cfdi', {
      xml,
      mappings: [tequila.presentations[0]!.id, naranja.presentations[0]!.id],
    });
    expect(bought.status).toBe(201);
    expect(bought.body.purchase).toMatchObject({ subtotalCents: 4740_00, ivaCents: 758_40, supplierRfc: 'DLS010101AB1' });
    expect((await stockOf(tequila.id)).bodega).toBe(before + 12 * 750);
    const again = await admin.post<{ invoice: CfdiPreview }>('/api/inventory/purchases/cfdi/preview', { xml });
    expect(again.body.invoice.concepts.map((c) => c.presentationId)).toEqual([tequila.presentations[0]!.id, naranja.presentations[0]!.id]);
    const twice = await admin.post<Err>('/api/inventory/purchases/cfdi', { xml });
    expect(twice.status).toBe(409);
    const tq = (await admin.get<{ insumos: Insumo[] }>('/api/inventory/insumos')).body.insumos.find((i) => i.id === tequila.id)!;
    expect(tq.lastCostCents).toBe(320_00);

    const refusals: [string, string][] = [
      ['roto.xml', 'El archivo no es un XML válido.'],
      ['no-cfdi.xml', 'El XML no es un CFDI: no tiene el nodo cfdi:Comprobante.'],
      ['version-33.xml', 'Solo se aceptan CFDI versión 4.0.'],
      ['cantidad-fraccion.xml', 'El concepto 2 del CFDI no es una cantidad entera de piezas: regístralo a mano.'],
    ];
    for (const [file, message] of refusals) {
      const res = await admin.post<Err>('/api/inventory/purchases/cfdi/preview', { xml: fixture(file) });
      expect(res.status, file).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
  });
});
