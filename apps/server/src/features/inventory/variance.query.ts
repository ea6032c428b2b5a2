import { FIELD_MESSAGES, type LowStockResponse, type VarianceResponse } from '@comanda/contract';
import { costOf, defaultShiftDate, sortWorstFirst, varianceOf } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import { badRequest } from '../../http/errors.ts';
import { getGeneralConfig } from '../../model/config-store.ts';
import { shiftInterval } from '../../model/shift-windows.ts';
import { listInsumos, stockByInsumo } from './inventory-store.ts';

/**
 * The variance of a period in one warehouse: theoretical consumption (sales by recipe less voids
 * given back) against real consumption (opening + received − removed − closing, the closing being
 * the ledger after the period's counts), per insumo, worst first. A business day is the shift's
 * window (17:00–03:00 in the business time zone by default); a range runs from the first day's
 * opening to the last day's close.
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
  const opening = await stockByInsumo(db, { before: start, warehouseId: q.warehouseId });
  const closing = await stockByInsumo(db, { before: end, warehouseId: q.warehouseId });
  const moves = await db
    .selectFrom('stock_movements')
    .select(['insumo_id', 'kind', (eb) => eb.fn.sum<number>('qty').as('qty')])
    .where('warehouse_id', '=', q.warehouseId)
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
  const insumos = await listInsumos(db, { includeInactive: true });
  const rows = insumos
    .filter((i) => sums.has(i.id) || opening.get(i.id)?.[q.warehouseId] || closing.get(i.id)?.[q.warehouseId])
    .map((i) => {
      const s = sums.get(i.id) ?? { received: 0, removed: 0, theoretical: 0 };
      const v = varianceOf({
        insumoId: i.id,
        opening: opening.get(i.id)?.[q.warehouseId] ?? 0,
        received: s.received,
        removed: s.removed,
        closing: closing.get(i.id)?.[q.warehouseId] ?? 0,
        theoretical: s.theoretical,
        pourSize: i.pourSize,
        costCents: i.lastCostCents,
        costContent: i.lastCostContent,
      });
      return {
        ...v,
        name: i.name,
        unit: i.unit,
        opening: opening.get(i.id)?.[q.warehouseId] ?? 0,
        received: s.received,
        removed: s.removed,
        closing: closing.get(i.id)?.[q.warehouseId] ?? 0,
      };
    });
  const cost = new Map(insumos.map((i) => [i.id, i]));
  const sold = await db
    .selectFrom('stock_movements')
    .select(['waiter_id', 'station', 'insumo_id', (eb) => eb.fn.sum<number>('qty').as('qty')])
    .where('warehouse_id', '=', q.warehouseId)
    .where('kind', 'in', ['sale', 'void_restore'])
    .where('at', '>=', start)
    .where('at', '<', end)
    .groupBy(['waiter_id', 'station', 'insumo_id'])
    .execute();
  const names = new Map(
    (await db.selectFrom('users').select(['id', 'display_name']).execute()).map((u) => [u.id, u.display_name] as const),
  );
  const byWaiter = new Map<string, { waiterName: string; station: string; costCents: number }>();
  for (const r of sold) {
    const i = cost.get(r.insumo_id);
    const key = `${r.waiter_id ?? ''}\u0000${r.station ?? ''}`;
    const entry = byWaiter.get(key) ?? {
      waiterName: (r.waiter_id && names.get(r.waiter_id)) || 'Sin mesero',
      station: r.station ?? '',
      costCents: 0,
    };
    if (i?.lastCostCents != null && i.lastCostContent) entry.costCents += costOf(-Number(r.qty), i.lastCostCents, i.lastCostContent);
    byWaiter.set(key, entry);
  }
  return {
    from: start,
    to: end,
    rows: sortWorstFirst(rows),
    byWaiter: [...byWaiter.values()].sort((a, b) => b.costCents - a.costCents),
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
