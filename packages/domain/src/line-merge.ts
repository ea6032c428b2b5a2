import { INITIAL_ITEM_STATUS } from './item-status.ts';
import { ORDER_LIMITS } from './limits.ts';
import { normalizeOptionalText } from './validation.ts';

/** A line of an order as the merge rule reads it. */
export interface MergeableLine {
  productId: string;
  status: string;
  isDeleted: boolean;
  quantity: number;
  /** The price per unit on the line (options' deltas included). */
  unitPrice: number;
  notes: string | null;
  /** The chosen options' snapshot as stored (null for none). */
  modifiers: string | null;
  /** Set when a promotion priced the line: its units are counted by that promotion. */
  promotionId: string | null;
  /** A live discount or comp on the line: it was given for those units, not for more. */
  adjusted: boolean;
}

/** Units being added: the same product with its notes, options and unit price. */
export interface UnitsToAdd {
  productId: string;
  quantity: number;
  unitPrice: number;
  notes: string | null | undefined;
  modifiers: string | null;
  /** Promotions in force: they may price or split the new units, so those stay a line of their own. */
  promotionsActive: boolean;
}

/**
 * Adding units of what a pending line already holds raises that line's quantity instead of
 * making a second identical line: the kitchen has not started it (pendiente), so one line says
 * "3 × Tacos" where two would say "1 × Tacos" and "2 × Tacos". The comanda prints only the new
 * units. Anything different — another state, notes, options, price, a promotion, a discount or
 * comp on the line, or more units than one line may hold — is a new line.
 */
export function mayRaisePendingLine(line: MergeableLine, add: UnitsToAdd): boolean {
  return (
    !add.promotionsActive &&
    !line.isDeleted &&
    line.status === INITIAL_ITEM_STATUS &&
    line.promotionId === null &&
    !line.adjusted &&
    line.productId === add.productId &&
    line.quantity + add.quantity <= ORDER_LIMITS.maxLineQuantity &&
    line.unitPrice === add.unitPrice &&
    normalizeOptionalText(line.notes) === normalizeOptionalText(add.notes) &&
    (line.modifiers ?? null) === (add.modifiers ?? null)
  );
}

/**
 * The line the units go onto: the newest pending line that may take them (of two made in the same
 * millisecond, the greater id), or null for a new line. The choice never depends on the order the
 * lines were read in, so every path that raises a line picks the same one.
 */
export function pendingLineFor<L extends MergeableLine & { id: string; createdAt: number }>(
  lines: readonly L[],
  add: UnitsToAdd,
): L | null {
  let found: L | null = null;
  for (const line of lines) {
    if (!mayRaisePendingLine(line, add)) continue;
    if (!found || line.createdAt > found.createdAt || (line.createdAt === found.createdAt && line.id > found.id)) found = line;
  }
  return found;
}
