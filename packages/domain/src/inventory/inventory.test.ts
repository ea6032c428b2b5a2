import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  autoAgotadoStep,
  countAdjustment,
  divRound,
  formatQuantity,
  lineConsumption,
  makeableUnits,
  parseQuantity,
  postLine,
  type LinePosted,
  type LineSeen,
  sortWorstFirst,
  stockKey,
  stockOf,
  tenthsContent,
  varianceOf,
  weighedMl,
  type Movement,
} from './index.ts';

describe('units', () => {
  it('rounds an integer division half away from zero, exactly', () => {
    expect(divRound(7, 2)).toBe(4);
    expect(divRound(-7, 2)).toBe(-4);
    expect(divRound(5, 3)).toBe(2);
    expect(divRound(4, 3)).toBe(1);
  });
  it('parses typed amounts to exact integers, milli-pieces for piezas', () => {
    expect(parseQuantity('60', 'ml')).toBe(60);
    expect(parseQuantity('0,5', 'pieza')).toBe(500);
    expect(parseQuantity('1.25', 'pieza')).toBe(1250);
    expect(parseQuantity('1.5', 'ml')).toBeNull();
    expect(parseQuantity('abc', 'g')).toBeNull();
    expect(formatQuantity(1500, 'pieza')).toBe('1.5 pieza');
    expect(formatQuantity(60, 'ml')).toBe('60 ml');
  });
  it('weighs an open bottle: (gross − tare) ÷ density, within the bottle', () => {
    const bottle = { content: 750, tareG: 500, densityMgPerMl: 950 };
    expect(weighedMl(500 + 285, bottle)).toBe(300); // 285 g of tequila at 0.95 g/ml
    expect(weighedMl(400, bottle)).toBe(0);
    expect(weighedMl(5000, bottle)).toBe(750);
    expect(weighedMl(501, bottle)).toBe(1);
    expect(tenthsContent(3, 750)).toBe(225);
    expect(tenthsContent(12, 750)).toBe(750);
  });
});

describe('recipes', () => {
  it('a line consumes its recipe × quantity plus each modifier’s own amounts × quantity', () => {
    const margarita = [
      { insumoId: 'tequila', amount: 60 },
      { insumoId: 'naranja', amount: 30 },
      { insumoId: 'limon', amount: 1000 },
    ];
    const doble = [{ insumoId: 'tequila', amount: 60 }];
    const sinHielo: never[] = [];
    const used = lineConsumption(margarita, [doble, sinHielo], 3);
    expect(Object.fromEntries(used)).toEqual({ tequila: 360, naranja: 90, limon: 3000 });
    expect(makeableUnits(margarita, (id) => ({ tequila: 130, naranja: 1000, limon: 9000 })[id] ?? 0)).toBe(2);
  });
});

type Op =
  | { t: 'sale'; insumo: number; units: number; amount: number }
  | { t: 'void'; index: number }
  | { t: 'comp'; insumo: number; qty: number }
  | { t: 'merma'; insumo: number; qty: number }
  | { t: 'purchase'; insumo: number; qty: number }
  | { t: 'transfer'; insumo: number; qty: number }
  | { t: 'count'; insumo: number; counted: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    t: fc.constant('sale' as const),
    insumo: fc.nat(2),
    units: fc.integer({ min: 1, max: 5 }),
    amount: fc.integer({ min: 0, max: 120 }),
  }),
  fc.record({ t: fc.constant('void' as const), index: fc.nat(50) }),
  fc.record({ t: fc.constant('comp' as const), insumo: fc.nat(2), qty: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ t: fc.constant('merma' as const), insumo: fc.nat(2), qty: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ t: fc.constant('purchase' as const), insumo: fc.nat(2), qty: fc.integer({ min: 1, max: 3000 }) }),
  fc.record({ t: fc.constant('transfer' as const), insumo: fc.nat(2), qty: fc.integer({ min: 1, max: 3000 }) }),
  fc.record({ t: fc.constant('count' as const), insumo: fc.nat(2), counted: fc.integer({ min: 0, max: 5000 }) }),
);

/** A model of the bar kept by plain arithmetic, next to the ledger the rules append. */
function replay(ops: readonly Op[]) {
  const ledger: Movement[] = [];
  const model = new Map<string, number>();
  const bump = (w: string, i: string, q: number) => model.set(stockKey(w, i), (model.get(stockKey(w, i)) ?? 0) + q);
  const sales: { insumoId: string; qty: number; voided: boolean }[] = [];
  for (const op of ops) {
    switch (op.t) {
      case 'sale': {
        const insumoId = `i${op.insumo}`;
        const qty = lineConsumption([{ insumoId, amount: op.amount }], [], op.units).get(insumoId) ?? 0;
        if (qty) ledger.push({ kind: 'sale', warehouseId: 'barra', insumoId, qty: -qty });
        sales.push({ insumoId, qty, voided: false });
        bump('barra', insumoId, -qty);
        break;
      }
      case 'void': {
        const sale = sales[op.index % Math.max(1, sales.length)];
        if (!sale || sale.voided) break;
        sale.voided = true;
        if (sale.qty) ledger.push({ kind: 'void_restore', warehouseId: 'barra', insumoId: sale.insumoId, qty: sale.qty });
        bump('barra', sale.insumoId, sale.qty);
        break;
      }
      case 'comp':
      case 'merma':
        ledger.push({ kind: op.t, warehouseId: 'barra', insumoId: `i${op.insumo}`, qty: -op.qty });
        bump('barra', `i${op.insumo}`, -op.qty);
        break;
      case 'purchase':
        ledger.push({ kind: 'purchase', warehouseId: 'bodega', insumoId: `i${op.insumo}`, qty: op.qty });
        bump('bodega', `i${op.insumo}`, op.qty);
        break;
      case 'transfer':
        ledger.push({ kind: 'transfer_out', warehouseId: 'bodega', insumoId: `i${op.insumo}`, qty: -op.qty });
        ledger.push({ kind: 'transfer_in', warehouseId: 'barra', insumoId: `i${op.insumo}`, qty: op.qty });
        bump('bodega', `i${op.insumo}`, -op.qty);
        bump('barra', `i${op.insumo}`, op.qty);
        break;
      case 'count': {
        const insumoId = `i${op.insumo}`;
        const theoretical = stockOf(ledger).get(stockKey('barra', insumoId)) ?? 0;
        const adj = countAdjustment(op.counted, theoretical);
        if (adj) ledger.push({ kind: 'count_adjustment', warehouseId: 'barra', insumoId, qty: adj });
        model.set(stockKey('barra', insumoId), op.counted);
        break;
      }
    }
  }
  return { ledger, model };
}

describe('the ledger', () => {
  it('sums to the stock for any night of sales, voids, comps, merma, purchases, transfers and counts', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 80 }), (ops) => {
        const { ledger, model } = replay(ops);
        const stock = stockOf(ledger);
        for (const [key, qty] of model) expect(stock.get(key) ?? 0).toBe(qty);
        for (const [key, qty] of stock) expect(model.get(key) ?? 0).toBe(qty);
      }),
    );
  });

  it('shows no variance when the closing count matches the theory, and the exact loss otherwise', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: -500, max: 500 }),
        (opening, received, removed, sold, missing) => {
          const theoryClosing = opening + received - removed - sold;
          const base = { insumoId: 't', opening, received, removed, theoretical: sold, pourSize: 45, costCents: 45_000, costContent: 750 };
          expect(varianceOf({ ...base, closing: theoryClosing }).variance).toBe(0);
          expect(varianceOf({ ...base, closing: theoryClosing }).costCents).toBe(0);
          expect(varianceOf({ ...base, closing: theoryClosing - missing }).variance).toBe(missing);
        },
      ),
    );
  });

  it('prices a variance at last cost and in pours, worst first', () => {
    const row = varianceOf({
      insumoId: 't',
      opening: 750,
      received: 0,
      removed: 0,
      closing: 300,
      theoretical: 360,
      pourSize: 45,
      costCents: 45_000,
      costContent: 750,
    });
    expect(row).toMatchObject({ real: 450, variance: 90, pourTenths: 20, costCents: 5400 });
    const gain = { ...row, insumoId: 'g', variance: -10, costCents: -600 };
    expect(sortWorstFirst([gain, row]).map((r) => r.insumoId)).toEqual(['t', 'g']);
  });
});

describe('posting order lines', () => {
  type Row = LineSeen & { id: number };
  const eventArb = fc.array(
    fc.oneof(
      fc.record({ t: fc.constant('prepare' as const) }),
      fc.record({ t: fc.constant('void' as const), units: fc.integer({ min: 1, max: 6 }) }),
      fc.record({ t: fc.constant('comp' as const), units: fc.integer({ min: 1, max: 6 }) }),
      fc.record({ t: fc.constant('uncomp' as const) }),
      fc.record({ t: fc.constant('look' as const) }),
    ),
    { maxLength: 14 },
  );

  it('ends with the real consumption, split into sales and comps, whatever the worker saw in between', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), eventArb, fc.boolean(), (quantity, events, lookFirst) => {
        const rows: Row[] = [{ id: 0, quantity, isDeleted: false, status: 'pendiente', compUnits: 0 }];
        const posted = new Map<number, LinePosted | null>();
        const ledger = { sale: 0, comp: 0, void_restore: 0 };
        let movementCount = 0;
        const look = () => {
          for (const row of rows) {
            const { movements, next } = postLine(row, posted.get(row.id) ?? null);
            for (const m of movements) {
              ledger[m.kind] += m.units;
              movementCount++;
            }
            posted.set(row.id, next);
            // Seen again unchanged: nothing more (each state is posted exactly once).
            expect(postLine(row, next).movements).toEqual([]);
          }
        };
        if (lookFirst) look();
        for (const e of events) {
          const line = rows[0]!;
          if (e.t === 'look') look();
          else if (line.isDeleted) continue;
          else if (e.t === 'prepare') line.status = 'listo';
          else if (e.t === 'comp') line.compUnits = Math.min(line.quantity, (line.compUnits ?? 0) + e.units);
          else if (e.t === 'uncomp') line.compUnits = 0;
          else if (e.t === 'void') {
            const units = Math.min(e.units, line.quantity);
            if (units === line.quantity) line.isDeleted = true;
            else {
              line.quantity -= units;
              rows.push({ id: rows.length, quantity: units, isDeleted: true, status: line.status });
            }
          }
        }
        look();
        const kept = (r: Row) => (!r.isDeleted || r.status !== 'pendiente' ? r.quantity : 0);
        const real = rows.reduce((sum, r) => sum + kept(r), 0);
        const comped = rows.reduce((sum, r) => sum + Math.min(r.compUnits ?? 0, kept(r)), 0);
        // The ledger's sum is the real consumption; comps are exactly the comped units still taken.
        expect(ledger.sale + ledger.comp + ledger.void_restore).toBe(real);
        expect(ledger.comp).toBe(comped);
        expect(ledger.sale + ledger.void_restore).toBe(real - comped);
        expect(movementCount).toBeGreaterThanOrEqual(real > 0 ? 1 : 0);
      }),
    );
  });

  it('reclassifies a comp given after the sale was posted, and back when the comp is removed', () => {
    const sold = postLine({ quantity: 3, isDeleted: false, status: 'listo' }, null);
    expect(sold.movements).toEqual([{ kind: 'sale', units: 3 }]);
    const comped = postLine({ quantity: 3, isDeleted: false, status: 'listo', compUnits: 1 }, sold.next);
    expect(comped.movements).toEqual([
      { kind: 'sale', units: -1 },
      { kind: 'comp', units: 1 },
    ]);
    expect(comped.next).toEqual({ units: 3, compUnits: 1, closed: false });
    const back = postLine({ quantity: 3, isDeleted: false, status: 'listo', compUnits: 0 }, comped.next);
    expect(back.movements).toEqual([
      { kind: 'comp', units: -1 },
      { kind: 'sale', units: 1 },
    ]);
  });

  it('posts a line comped before it was first seen as a comp, and gives back a comped line voided before preparation', () => {
    const comped = postLine({ quantity: 2, isDeleted: false, status: 'pendiente', compUnits: 2 }, null);
    expect(comped.movements).toEqual([{ kind: 'comp', units: 2 }]);
    expect(postLine({ quantity: 2, isDeleted: true, status: 'pendiente', compUnits: 2 }, comped.next).movements).toEqual([
      { kind: 'comp', units: -2 },
    ]);
    // Poured and then voided: a comp stays taken.
    expect(postLine({ quantity: 2, isDeleted: true, status: 'listo', compUnits: 2 }, comped.next).movements).toEqual([]);
  });
});

describe('autoAgotadoStep', () => {
  it('marks an available product the barra cannot make, and gives back only what it marked', () => {
    expect(autoAgotadoStep(0, true, 0)).toEqual({ available: false, state: 1 });
    expect(autoAgotadoStep(3, false, 1)).toEqual({ available: true, state: 0 });
    // Marked agotado by a person: never switched back on by the stock.
    expect(autoAgotadoStep(3, false, 0)).toEqual({ available: null, state: 0 });
    expect(autoAgotadoStep(0, false, 0)).toEqual({ available: null, state: 0 });
  });

  it('leaves a product someone switched back on while short until the stock makes it again', () => {
    expect(autoAgotadoStep(0, true, 1)).toEqual({ available: null, state: 2 });
    expect(autoAgotadoStep(0, true, 2)).toEqual({ available: null, state: 2 });
    expect(autoAgotadoStep(1, true, 2)).toEqual({ available: null, state: 0 });
    expect(autoAgotadoStep(0, true, 0)).toEqual({ available: false, state: 1 });
    // An empty recipe is always makeable.
    expect(autoAgotadoStep(Infinity, true, 0)).toEqual({ available: null, state: 0 });
  });
});
