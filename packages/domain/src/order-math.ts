import type { ItemStatus } from './item-status.ts';
import { ITEM_STATUSES } from './item-status.ts';
import type { Cents } from './money.ts';
import { ZERO, addCents, multiplyCents } from './money.ts';

/** What totals need from an order item; callers pass their full item type. */
export interface OrderItemLike {
  productId: string;
  productPrice: Cents;
  quantity: number;
  isDeleted: boolean;
  status: ItemStatus;
}

// Deleted items are soft-deleted and stay in the list for the audit trail, so
// every count and total must go through here.
export function activeItems<T extends Pick<OrderItemLike, 'isDeleted'>>(items: readonly T[]): T[] {
  return items.filter((item) => !item.isDeleted);
}

export function lineTotal(item: Pick<OrderItemLike, 'productPrice' | 'quantity'>): Cents {
  return multiplyCents(item.productPrice, item.quantity);
}

export function orderSubtotal<T extends Pick<OrderItemLike, 'productPrice' | 'quantity' | 'isDeleted'>>(items: readonly T[]): Cents {
  return activeItems(items).reduce<Cents>((sum, item) => addCents(sum, lineTotal(item)), ZERO);
}

export function itemQuantity<T extends Pick<OrderItemLike, 'quantity' | 'isDeleted'>>(items: readonly T[]): number {
  return activeItems(items).reduce((sum, item) => sum + item.quantity, 0);
}

export function distinctProducts<T extends Pick<OrderItemLike, 'productId' | 'isDeleted'>>(items: readonly T[]): number {
  return new Set(activeItems(items).map((item) => item.productId)).size;
}

export function quantityByStatus<T extends Pick<OrderItemLike, 'status' | 'quantity' | 'isDeleted'>>(
  items: readonly T[],
): Record<ItemStatus, number> {
  const counts = Object.fromEntries(ITEM_STATUSES.map((s) => [s, 0])) as Record<ItemStatus, number>;
  for (const item of activeItems(items)) {
    // Stored data may carry a status this build does not know; it is not counted.
    if (Object.hasOwn(counts, item.status)) counts[item.status] += item.quantity;
  }
  return counts;
}

/** The last non-deleted item, shown on table cards as 'último ítem'. */
export function lastActiveItem<T extends Pick<OrderItemLike, 'isDeleted'>>(items: readonly T[]): T | null {
  return activeItems(items).at(-1) ?? null;
}
