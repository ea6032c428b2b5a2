import { checkOwed, owedAmount, type Cents } from '@comanda/domain';
import type { OrderRow } from '../../db/schema.ts';

export type OwedFigures = Pick<OrderRow, 'subtotal'> & Partial<Pick<OrderRow, 'discount' | 'comp' | 'share_amount' | 'shared_out'>>;

/**
 * What the customer owes for the order before tips: the ONE place payments read it from
 * (partial payments, the close, card charges, the balance shown): the subtotal of the active
 * items (kept by touchOrder on every item change) less discounts and comps (decision 0017),
 * less what its equal-share checks owe of them, plus the share it owes of another check (0022).
 */
export function amountOwed(row: OwedFigures): Cents {
  const owed = owedAmount({ subtotal: Number(row.subtotal), discounts: Number(row.discount ?? 0), comps: Number(row.comp ?? 0) });
  return withShares(owed, row);
}

/** An amount owed for the items (after discounts and comps) with the order's equal shares applied. */
export function withShares(owed: number, row: Partial<Pick<OrderRow, 'share_amount' | 'shared_out'>>): Cents {
  return checkOwed({ owed, sharedOut: Number(row.shared_out ?? 0), shareAmount: Number(row.share_amount ?? 0) });
}
