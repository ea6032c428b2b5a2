import { divRound } from './units.ts';

/**
 * The stock ledger: every change of stock is an appended movement with a signed integer
 * quantity; stock is the sum of the movements and nothing edits it in place. A count never
 * overwrites the stock either: it appends counted − theoretical.
 */

export const MOVEMENT_KINDS = [
  'sale',
  'void_restore',
  'comp',
  'merma',
  'purchase',
  'transfer_out',
  'transfer_in',
  'count_adjustment',
] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

export const MOVEMENT_LABELS: Record<MovementKind, string> = {
  sale: 'Venta',
  void_restore: 'Cancelación (regresa)',
  comp: 'Cortesía',
  merma: 'Merma',
  purchase: 'Compra',
  transfer_out: 'Traspaso (salida)',
  transfer_in: 'Traspaso (entrada)',
  count_adjustment: 'Ajuste por conteo',
};

/**
 * The sign a kind's quantity usually carries: sales, comps, merma and transfers out take stock away.
 * A line's reclassification (a comp given after its sale, or removed) posts a sale or a comp with
 * the other sign; their sum with the matching row of the other kind is zero.
 */
export const MOVEMENT_SIGN: Record<MovementKind, 1 | -1 | 0> = {
  sale: -1,
  void_restore: 1,
  comp: -1,
  merma: -1,
  purchase: 1,
  transfer_out: -1,
  transfer_in: 1,
  count_adjustment: 0,
};

export interface Movement {
  kind: MovementKind;
  warehouseId: string;
  insumoId: string;
  /** Signed, in the insumo's consumption unit. */
  qty: number;
}

export function stockKey(warehouseId: string, insumoId: string): string {
  return `${warehouseId}\u0000${insumoId}`;
}

/** Stock per warehouse and insumo: the ledger's sum. */
export function stockOf(movements: readonly Movement[]): Map<string, number> {
  const stock = new Map<string, number>();
  for (const m of movements) {
    const key = stockKey(m.warehouseId, m.insumoId);
    stock.set(key, (stock.get(key) ?? 0) + m.qty);
  }
  return stock;
}

/** What a count posts: counted − theoretical (0 when the shelf matches the ledger). */
export function countAdjustment(counted: number, theoretical: number): number {
  return counted - theoretical;
}

/** One amount of an insumo per unit sold. */
export interface RecipeAmount {
  insumoId: string;
  /** Per unit sold, ≥ 0, in the insumo's consumption unit. */
  amount: number;
}

/**
 * What one order line consumes: the product's recipe × quantity plus each chosen modifier's
 * own amounts × quantity (Doble = +60 ml tequila; "Sin hielo" = nothing), summed per insumo.
 */
export function lineConsumption(
  recipe: readonly RecipeAmount[],
  modifierRecipes: readonly (readonly RecipeAmount[])[],
  quantity: number,
): Map<string, number> {
  const out = new Map<string, number>();
  const add = (rows: readonly RecipeAmount[]) => {
    for (const r of rows) out.set(r.insumoId, (out.get(r.insumoId) ?? 0) + r.amount * quantity);
  };
  add(recipe);
  for (const m of modifierRecipes) add(m);
  for (const [id, qty] of out) if (qty === 0) out.delete(id);
  return out;
}

/** The per-unit recipe of a line, product and modifiers together (what the line freezes). */
export function unitRecipe(recipe: readonly RecipeAmount[], modifierRecipes: readonly (readonly RecipeAmount[])[]): RecipeAmount[] {
  return [...lineConsumption(recipe, modifierRecipes, 1)].map(([insumoId, amount]) => ({ insumoId, amount }));
}

/** How many units of a recipe the stock can still make (Infinity for an empty recipe). */
export function makeableUnits(recipe: readonly RecipeAmount[], stock: (insumoId: string) => number): number {
  let units = Infinity;
  for (const r of recipe) {
    if (r.amount <= 0) continue;
    units = Math.min(units, Math.max(0, Math.floor(stock(r.insumoId) / r.amount)));
  }
  return units;
}

export interface VarianceInput {
  insumoId: string;
  /** Stock at the period's opening count (or the ledger before the period). */
  opening: number;
  /** Purchases and transfers in during the period. */
  received: number;
  /** Transfers out, merma and comps during the period (positive numbers). */
  removed: number;
  /** What the closing count found. */
  closing: number;
  /** Net sold by recipe during the period: sales − voids restored (positive). */
  theoretical: number;
  /** Content of one pour in the insumo's unit (null: no pour). */
  pourSize: number | null;
  /** Last cost in centavos for `costContent` units (a presentation's price and content). */
  costCents: number | null;
  costContent: number | null;
}

export interface VarianceRow {
  insumoId: string;
  theoretical: number;
  real: number;
  /** real − theoretical: positive means more went out than was sold. */
  variance: number;
  /** The variance in pours, in tenths of a pour (rounded). */
  pourTenths: number | null;
  /** The variance at last cost, in centavos (rounded). */
  costCents: number | null;
}

/**
 * Theoretical consumption (what the recipes say was sold) against real consumption (what the
 * counts and purchases say left the shelf): real = opening + received − removed − closing.
 */
export function varianceOf(v: VarianceInput): VarianceRow {
  const real = v.opening + v.received - v.removed - v.closing;
  const variance = real - v.theoretical;
  return {
    insumoId: v.insumoId,
    theoretical: v.theoretical,
    real,
    variance,
    pourTenths: v.pourSize && v.pourSize > 0 ? divRound(variance * 10, v.pourSize) : null,
    costCents: v.costCents !== null && v.costContent ? divRound(variance * v.costCents, v.costContent) : null,
  };
}

/** Worst first: the largest loss in pesos, then in units; gains (negative) last. */
export function sortWorstFirst<T extends VarianceRow>(rows: readonly T[]): T[] {
  return [...rows].sort(
    (a, b) => (b.costCents ?? 0) - (a.costCents ?? 0) || b.variance - a.variance || a.insumoId.localeCompare(b.insumoId),
  );
}

/** Cost of one consumption unit's amount at a presentation's price, in centavos (rounded). */
export function costOf(qty: number, costCents: number, content: number): number {
  return divRound(qty * costCents, content);
}

/** A void restores the pour only before anyone prepared it; once prepared it was poured (merma). */
export function voidRestoresStock(status: string): boolean {
  return status === 'pendiente';
}

export interface LineSeen {
  quantity: number;
  isDeleted: boolean;
  status: string;
  /** Units of the line given away (cortesía): its live comps, or all of it under a whole-order comp. */
  compUnits?: number;
}

export interface LinePosted {
  /** Units the ledger has taken for the line, sold and comped together. */
  units: number;
  /** Of those, the units taken as comps. */
  compUnits?: number;
  /** A voided line's account is settled: nothing more is posted for it. */
  closed: boolean;
}

export type LineMovementKind = 'sale' | 'comp' | 'void_restore';

export interface LineMovement {
  kind: LineMovementKind;
  /** Units taken from the stock (> 0) or given back (< 0): qty in the ledger = −units × recipe. */
  units: number;
}

export interface LinePosting {
  /** In order; each is posted under its own step. Empty: nothing to post. */
  movements: LineMovement[];
  next: LinePosted;
}

/** What a line should have taken by now: its sold and comped units (a void before preparation keeps none). */
export function lineTarget(seen: LineSeen): { sale: number; comp: number } {
  const kept = seen.isDeleted && voidRestoresStock(seen.status) ? 0 : Math.max(0, seen.quantity);
  const comp = Math.min(Math.max(0, seen.compUnits ?? 0), kept);
  return { sale: kept - comp, comp };
}

/**
 * What the ledger posts for an order line it sees now, given what it posted before (null: never
 * seen). The movement kind is derived here once, from the line's state: units sold are a sale,
 * units comped are a comp (poured and given away: never restored), units taken off the line (a
 * partial void moves them to a voided line of their own) or voided before preparation are given
 * back, a line voided after preparation keeps what it took. A comp that comes after the sale was
 * posted reclassifies (sale given back, comp taken: the sum does not move), and a comp removed
 * reclassifies the other way. Posting in any order of sightings ends with the line's real
 * consumption, split by kind.
 */
export function postLine(seen: LineSeen, before: LinePosted | null): LinePosting {
  const state = before ?? { units: 0, compUnits: 0, closed: false };
  if (state.closed) return { movements: [], next: state };
  const target = lineTarget(seen);
  const movements: LineMovement[] = [];
  let comp = state.compUnits ?? 0;
  let sale = state.units - comp;
  if (!before && seen.isDeleted && voidRestoresStock(seen.status) && seen.quantity > 0) {
    // Sold and voided before anyone saw it: posted as both, so the night's record reads true.
    movements.push({ kind: 'sale', units: seen.quantity });
    sale = seen.quantity;
  }
  if (target.comp > comp && target.sale < sale) {
    const r = Math.min(target.comp - comp, sale - target.sale);
    movements.push({ kind: 'sale', units: -r }, { kind: 'comp', units: r });
    sale -= r;
    comp += r;
  } else if (target.comp < comp && target.sale > sale) {
    const r = Math.min(comp - target.comp, target.sale - sale);
    movements.push({ kind: 'comp', units: -r }, { kind: 'sale', units: r });
    comp -= r;
    sale += r;
  }
  if (target.sale > sale) movements.push({ kind: 'sale', units: target.sale - sale });
  if (target.comp > comp) movements.push({ kind: 'comp', units: target.comp - comp });
  // Given back: a comp taken back under its own kind (the comps' sum stays the comps given), the rest as a void.
  if (comp > target.comp) movements.push({ kind: 'comp', units: target.comp - comp });
  if (sale > target.sale) movements.push({ kind: 'void_restore', units: target.sale - sale });
  return {
    movements,
    next: { units: target.sale + target.comp, compUnits: target.comp, closed: seen.isDeleted },
  };
}
