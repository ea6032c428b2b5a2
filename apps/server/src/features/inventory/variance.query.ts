import { FIELD_MESSAGES, type LowStockResponse, type VarianceResponse } from '@comanda/contract';
import { costOf, defaultShiftDate, divRound, sortWorstFirst, varianceOf } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import { badRequest } from '../../http/errors.ts';
import { getGeneralConfig } from '../../model/config-store.ts';
import { shiftInterval } from '../../model/shift-windows.ts';
import { listInsumos, stockByInsumo } from './inventory-store.ts';
import { varianceByPreparer } from './variance-preparer.query.ts';

type Insumos = Awaited<ReturnType<typeof listInsumos>>;

/** One warehouse's variance rows for [start, end), worst first. */
async function warehouseRows(db: AppContext['db']['db'], insumos: Insumos, warehouseId: string, start: number, end: number) {
  const opening = await stockByInsumo(db, { before: start, warehouseId });
  const closing = await stockByInsumo(db, { before: end, warehouseId });
  const moves = await db
    .selectFrom('stock_movements')
    .select(['insumo_id', 'kind', (eb) => eb.fn.sum<number>('qty').as('qty')])
    .where('warehouse_id', '=', warehouseId)
    .where('at', '>=', start)
    .where('at', '<', end)
    .groupBy(['insumo_id', 'kind'])
    .execute();
  const sums = new Map<string, { received: number; removed: number; theoretical: number }>();
  for (const m of moves) {
    const s = sums.get(m.insumo_id) ?? { received: 0, removed: 0, theoretical: 0 };
    const qty = Number(m.qty);
    if (m.kind === 'purchase' || m.kind === 'transfer_in') s.received += qty;
    else if (m.kind === 'transfer_out' || m.kind === 'merma' || m.kind === 'comp') s.removed -= qty;
    else if (m.kind === 'sale' || m.kind === 'void_restore') s.theoretical -= qty;
    sums.set(m.insumo_id, s);
  }
  const rows = insumos
    .filter((i) => sums.has(i.id) || opening.get(i.id)?.[warehouseId] || closing.get(i.id)?.[warehouseId])
    .map((i) => {
      const s = sums.get(i.id) ?? { received: 0, removed: 0, theoretical: 0 };
      const v = varianceOf({
        insumoId: i.id,
        opening: opening.get(i.id)?.[warehouseId] ?? 0,
        received: s.received,
        removed: s.removed,
        closing: closing.get(i.id)?.[warehouseId] ?? 0,
        theoretical: s.theoretical,
        pourSize: i.pourSize,
        costCents: i.lastCostCents,
        costContent: i.lastCostContent,
      });
      return {
        ...v,
        name: i.name,
        unit: i.unit,
        opening: opening.get(i.id)?.[warehouseId] ?? 0,
        received: s.received,
        removed: s.removed,
        closing: closing.get(i.id)?.[warehouseId] ?? 0,
      };
    });
  return sortWorstFirst(rows);
}

/**
 * The variance of a period in one warehouse: theoretical consumption (sales by recipe less voids
 * given back) against real consumption (opening + received − removed − closing, the closing being
 * the ledger after the period's counts), per insumo, worst first; the same per station (each
 * station's sales go to its own warehouse, so it has a real variance of its own); and per waiter
 * the theoretical consumption of the lines they sold (a count belongs to no one person), and per
 * preparer that of the lines they marked listo (variance-preparer.query.ts). A
 * business day is the shift's window (17:00–03:00 in the business time zone by default); a range
 * runs from the first day's opening to the last day's close.
 */
export async function varianceReport(
  ctx: AppContext,
  q: { date?: string; from?: string; to?: string; warehouseId: string },
): Promise<VarianceResponse> {
  const db = ctx.db.db;
  const general = await getGeneralConfig(db, ctx.config.BUSINESS_TIMEZONE);
  const today = defaultShiftDate(new Date(ctx.clock.now()), general.timezone, general.shiftStartHour);
  const first = q.date ?? q.from ?? today;
  const last = q.date ?? q.to ?? first;
  let start: number;
  let end: number;
  try {
    start = shiftInterval(first, general).start;
    end = shiftInterval(last < first ? first : last, general).end;
  } catch {
    throw badRequest(FIELD_MESSAGES.invalidDate, 'validation');
  }
  const insumos = await listInsumos(db, { includeInactive: true });
  const rows = await warehouseRows(db, insumos, q.warehouseId, start, end);
  const stationWarehouses = await db
    .selectFrom('warehouses')
    .select(['id', 'name', 'station'])
    .where('station', 'is not', null)
    .orderBy('position')
    .execute();
  const byStation = [];
  for (const w of stationWarehouses) {
    const wRows = w.id === q.warehouseId ? rows : await warehouseRows(db, insumos, w.id, start, end);
    const cost = new Map(insumos.map((i) => [i.id, i]));
    let theoreticalCostCents = 0;
    for (const r of wRows) {
      const i = cost.get(r.insumoId);
      if (i?.lastCostCents != null && i.lastCostContent) theoreticalCostCents += costOf(r.theoretical, i.lastCostCents, i.lastCostContent);
    }
    byStation.push({
      station: w.station!,
      warehouseId: w.id,
      warehouseName: w.name,
      theoreticalCostCents,
      varianceCostCents: wRows.reduce((a, r) => a + (r.costCents ?? 0), 0),
      rows: wRows,
    });
  }
  const cost = new Map(insumos.map((i) => [i.id, i]));
  const sold = await db
    .selectFrom('stock_movements')
    .select(['waiter_id', 'station', 'insumo_id', (eb) => eb.fn.sum<number>('qty').as('qty')])
    .where('kind', 'in', ['sale', 'void_restore'])
    .where('at', '>=', start)
    .where('at', '<', end)
    .groupBy(['waiter_id', 'station', 'insumo_id'])
    .execute();
  const names = new Map(
    (await db.selectFrom('users').select(['id', 'display_name']).execute()).map((u) => [u.id, u.display_name] as const),
  );
  type WaiterEntry = VarianceResponse['byWaiter'][number];
  const byWaiter = new Map<string, WaiterEntry>();
  for (const r of sold) {
    const i = cost.get(r.insumo_id);
    const key = `${r.waiter_id ?? ''}\u0000${r.station ?? ''}`;
    const entry: WaiterEntry = byWaiter.get(key) ?? {
      basis: 'theoretical',
      waiterName: (r.waiter_id && names.get(r.waiter_id)) || 'Sin mesero',
      station: r.station ?? '',
      pourTenths: 0,
      costCents: 0,
      items: [],
    };
    const qty = -Number(r.qty);
    if (i?.lastCostCents != null && i.lastCostContent) entry.costCents += costOf(qty, i.lastCostCents, i.lastCostContent);
    if (i?.pourSize) entry.pourTenths += divRound(qty * 10, i.pourSize);
    if (i) entry.items.push({ insumoId: i.id, name: i.name, unit: i.unit, theoretical: qty });
    byWaiter.set(key, entry);
  }
  return {
    from: start,
    to: end,
    rows,
    byStation,
    byWaiter: [...byWaiter.values()].sort((a, b) => b.costCents - a.costCents || b.pourTenths - a.pourTenths),
    byPreparer: await varianceByPreparer(db, insumos, start, end),
  };
}

/** Insumos whose stock (every warehouse together) is below their minimum. */
export async function lowStock(ctx: AppContext): Promise<LowStockResponse> {
  const insumos = await listInsumos(ctx.db.db);
  return {
    items: insumos
      .map((i) => ({
        insumoId: i.id,
        name: i.name,
        unit: i.unit,
        stock: Object.values(i.stock).reduce((a, b) => a + b, 0),
        minStock: i.minStock,
      }))
      .filter((i) => i.minStock > 0 && i.stock < i.minStock),
  };
}
