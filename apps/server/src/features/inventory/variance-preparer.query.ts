import { sql } from 'kysely';
import type { VarianceResponse } from '@comanda/contract';
import { costOf, divRound, preparerOf, statusMoveTarget, type Preparer, type StatusMove } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import type { listInsumos } from './inventory-store.ts';

type Insumos = Awaited<ReturnType<typeof listInsumos>>;
type PreparerEntry = VarianceResponse['byPreparer'][number];

/** The row of the lines nobody marked listo on record. */
export const UNPREPARED_NAME = 'Sin preparar registrado';

type Db = AppContext['db']['db'];

/** The ledger's sales and voids given back in [start, end). */
const saleLines = (db: Db, start: number, end: number) =>
  db.selectFrom('stock_movements').where('kind', 'in', ['sale', 'void_restore']).where('at', '>=', start).where('at', '<', end);

/** The board's status moves of the lines sold in [start, end), from the audit log's partial index audit_log_item. */
export const statusMovesOfSales = (db: Db, start: number, end: number) =>
  db
    .selectFrom('audit_log')
    .select(['seq', 'entity_id', 'actor_id', 'actor_name', 'data'])
    .where('action', '=', 'item.status_changed')
    // Stated as the index states it (a literal), so both databases may use it.
    .where(sql<boolean>`entity = 'order_item'`)
    .where('entity_id', 'in', saleLines(db, start, end).select('line_id').where('line_id', 'is not', null).distinct());

/**
 * Per preparer and station, the theoretical consumption of the period's sale lines (sales by
 * recipe less voids given back), each line going to whoever the board's audit trail says marked
 * it listo last (domain preparerOf). Read-only: the audit entries the board writes on every move
 * (action item.status_changed, entity order_item, data.to), joined to the ledger by line id.
 */
export async function varianceByPreparer(db: Db, insumos: Insumos, start: number, end: number): Promise<PreparerEntry[]> {
  const sold = await saleLines(db, start, end)
    .select(['line_id', 'station', 'insumo_id', (eb) => eb.fn.sum<number>('qty').as('qty')])
    .groupBy(['line_id', 'station', 'insumo_id'])
    .execute();
  if (sold.length === 0) return [];
  const audit = await statusMovesOfSales(db, start, end).execute();
  const moves = new Map<string, StatusMove[]>();
  for (const a of audit) {
    const list = moves.get(a.entity_id!) ?? [];
    list.push({ seq: Number(a.seq), actorId: a.actor_id, actorName: a.actor_name, to: statusMoveTarget(a.data) });
    moves.set(a.entity_id!, list);
  }
  const names = new Map(
    (await db.selectFrom('users').select(['id', 'display_name']).execute()).map((u) => [u.id, u.display_name] as const),
  );
  // Quantities summed per preparer, station and insumo first: pours and pesos are then rounded
  // once per insumo, as in the per-waiter table.
  const groups = new Map<string, { who: Preparer | null; station: string; qty: Map<string, number> }>();
  for (const r of sold) {
    const who = r.line_id ? preparerOf(moves.get(r.line_id) ?? []) : null;
    const station = r.station ?? '';
    const key = `${who ? `${who.id ?? ''}\u0001${who.name}` : ''}\u0000${station}`;
    const group = groups.get(key) ?? { who, station, qty: new Map<string, number>() };
    group.qty.set(r.insumo_id, (group.qty.get(r.insumo_id) ?? 0) - Number(r.qty));
    groups.set(key, group);
  }
  const cost = new Map(insumos.map((i) => [i.id, i]));
  const entries: PreparerEntry[] = [];
  for (const { who, station, qty } of groups.values()) {
    const entry: PreparerEntry = {
      basis: 'theoretical',
      preparerId: who?.id ?? null,
      preparerName: who ? (who.id && names.get(who.id)) || who.name : UNPREPARED_NAME,
      station,
      pourTenths: 0,
      costCents: 0,
      items: [],
    };
    for (const [insumoId, q] of qty) {
      const i = cost.get(insumoId);
      if (!i) continue;
      if (i.lastCostCents != null && i.lastCostContent) entry.costCents += costOf(q, i.lastCostCents, i.lastCostContent);
      if (i.pourSize) entry.pourTenths += divRound(q * 10, i.pourSize);
      entry.items.push({ insumoId: i.id, name: i.name, unit: i.unit, theoretical: q });
    }
    entries.push(entry);
  }
  // Largest first, as the per-waiter table; the lines nobody marked listo last.
  const unrecorded = (e: PreparerEntry) => Number(e.preparerName === UNPREPARED_NAME && e.preparerId === null);
  return entries.sort((a, b) => unrecorded(a) - unrecorded(b) || b.costCents - a.costCents || b.pourTenths - a.pourTenths);
}
